import { useMemo, useState } from 'react';
import { Select, type SelectProps } from 'antd';
import { sensorApi } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { withCurrent, type PickerOption } from '../device/devicePickers';

/**
 * Sensors of the caller's scope, labelled "device number · carrier", searched by device number on
 * the server (a hundred at the most), as the device dialogs' pickers (device/devicePickers.tsx).
 * For the query codes (several) and a work order's subject (one).
 */
export function SensorSelect({ open, current, ...select }: Omit<SelectProps<number | number[]>, 'options' | 'loading' | 'showSearch'> & { open: boolean; current?: PickerOption | null }) {
  const [search, setSearch] = useState('');
  const q = useCall(sensorApi.page, { query: { iDisplayLength: 100, devNo: search || undefined } }, { enabled: open });
  const options = useMemo(
    () => withCurrent((q.data?.rows ?? []).map((s) => ({ value: s.id, label: s.carrierName ? `${s.devNo} · ${s.carrierName}` : s.devNo })), current),
    [q.data, current],
  );
  return <Select {...select} showSearch={{ filterOption: false, onSearch: setSearch }} loading={q.isFetching} options={options} />;
}
