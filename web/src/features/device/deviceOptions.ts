/** Pickers the device dialogs share: carriers of a customer, time zones of spec §9 (UTC−12..UTC+12). */
import { useMemo } from 'react';
import { carrierApi } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';

/** "+08:00" style offsets from −12:00 to +12:00 in whole hours (spec §9 time zones). */
export const TIME_ZONES = Array.from({ length: 25 }, (_, i) => {
  const h = i - 12;
  return `${h < 0 ? '-' : '+'}${String(Math.abs(h)).padStart(2, '0')}:00`;
});

export const timeZoneOptions = TIME_ZONES.map((z) => ({ value: z, label: `UTC${z}` }));

/** The carriers a device may be bound to (the caller's scope, searched by name). */
export function useCarrierOptions(open: boolean, search: string, customerId?: number) {
  const q = useCall(carrierApi.page, { query: { iDisplayLength: 100, name: search || undefined, customerId } }, { enabled: open });
  return useMemo(() => ({ loading: q.isFetching, options: (q.data?.rows ?? []).map((c) => ({ value: c.id, label: `${c.name} · ${c.sceneLabel}` })) }), [q.data, q.isFetching]);
}
