import { paramApi, TRANSMIT_INTERVAL_PARAM } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';

/**
 * The default transmission interval of a device kind in seconds: the /sys/paramsetup parameter
 * (spec §3) that a new device's form starts from. Undefined until read; a form left empty sends
 * nothing and the server fills in the same parameter.
 */
export function useTransmitDefault(kind: keyof typeof TRANSMIT_INTERVAL_PARAM): number | undefined {
  const params = useCall(paramApi.list);
  const v = params.data?.[TRANSMIT_INTERVAL_PARAM[kind]];
  return v === undefined ? undefined : Number(v);
}
