/**
 * The history page's device picker: searches the caller's sensors by number (GET
 * /service/sensor/page) and shows each with its monitoring point; with a carrier given
 * (/historyData?carrierId=), the carrier's own value (its sample mode over its sensors) comes
 * first, then its sensors. Choosing the carrier value answers ''.
 */
import { useEffect, useMemo, useState } from 'react';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { sensorApi } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';

const SHOWN = 20;
/** The option of the carrier's own value. */
const CARRIER = '@carrier';

export function DevicePicker({ value, carrierId, carrierLabel, onChange }: { value: string; carrierId?: number; carrierLabel?: string; onChange: (devNo: string) => void }) {
  const { t } = useTranslation('history');
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  // Typing settles for 250 ms before the server is asked (spec §9 debounce of the same order).
  useEffect(() => {
    const id = setTimeout(() => setSearch(typed.trim()), 250);
    return () => clearTimeout(id);
  }, [typed]);
  const found = useCall(sensorApi.page, { query: { devNo: search || undefined, iDisplayStart: 0, iDisplayLength: SHOWN } });
  const ofCarrier = useCall(sensorApi.page, { query: { carrierId, iDisplayStart: 0, iDisplayLength: SHOWN } }, { enabled: !!carrierId });

  const options = useMemo(() => {
    const seen = new Set<string>();
    const rows = [...(ofCarrier.data?.rows ?? []), ...(found.data?.rows ?? [])].filter((r) => !seen.has(r.devNo) && seen.add(r.devNo));
    const list = rows.map((r) => ({ value: r.devNo, label: r.carrierName ? `${r.devNo} · ${r.carrierName}` : r.devNo }));
    // A number typed in the address that the search does not list (yet) stays selectable.
    if (value && !seen.has(value)) list.unshift({ value, label: value });
    if (carrierId) list.unshift({ value: CARRIER, label: carrierLabel ?? t('carrierValueShort') });
    return list;
  }, [found.data, ofCarrier.data, value, carrierId, carrierLabel, t]);

  return (
    <Select
      showSearch={{ filterOption: false, onSearch: setTyped }}
      style={{ width: 280 }}
      aria-label={t('device')}
      placeholder={t('devicePlaceholder')}
      value={value || (carrierId ? CARRIER : undefined)}
      options={options}
      loading={found.isFetching}
      onChange={(v: string | undefined) => onChange(!v || v === CARRIER ? '' : v)}
      allowClear
      notFoundContent={found.isFetching ? undefined : t('noMatch')}
    />
  );
}
