import { useMemo } from 'react';
import { sensorTypeOffered, typeApi } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';

/**
 * Which types the catalogues offer for new devices and carriers (/sys/deviceType,
 * /sys/carrierType): the pickers of the dialogs list these, plus the one a record already has
 * (`keep`), which it may keep. Until the catalogues are loaded every type is offered (the server
 * has the last word).
 */
export function useOffered() {
  const devices = useCall(typeApi.devices, undefined, { staleTime: 60_000 });
  const carriers = useCall(typeApi.carriers, undefined, { staleTime: 60_000 });
  return useMemo(() => {
    const off = new Set((devices.data ?? []).filter((d) => !d.enabled).map((d) => `${d.kind}:${d.code}`));
    const carrierOff = new Set((carriers.data ?? []).filter((c) => !c.enabled).map((c) => c.type));
    return {
      sensor: (type: string, keep?: string) => type === keep || sensorTypeOffered(off, type),
      gateway: (type: string, keep?: string) => type === keep || !off.has(`gateway:${type}`),
      carrier: (type: number, keep?: number) => type === keep || !carrierOff.has(type),
      gas: (code: string, keep?: string | null) => code === keep || sensorTypeOffered(off, 'gas', code),
      other: (kind: 'relay' | 'display' | 'base', code: string) => !off.has(`${kind}:${code}`),
    };
  }, [devices.data, carriers.data]);
}
