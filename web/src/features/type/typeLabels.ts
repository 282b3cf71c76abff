import type { TFunction } from 'i18next';
import type { DeviceKind } from '@coldwatch/contract';

/**
 * A device type's name in the user's language: sensors and gateways keep the names their pages
 * already use (carrier:sensorType, device:gatewayType); the other kinds are named in type.json
 * (a dot in a code, "2.4g", is not a key separator there).
 */
export function typeName(t: TFunction, kind: DeviceKind, code: string): string {
  if (kind === 'sensor') return t(`carrier:sensorType.${code}`, { defaultValue: code });
  if (kind === 'gateway') return t(`device:gatewayType.${code}`, { defaultValue: code });
  return t(`type:name.${kind}.${code.replace(/\./g, '_')}`, { defaultValue: code });
}
