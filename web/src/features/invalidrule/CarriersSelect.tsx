/**
 * Several carriers of one customer, searched by name on the server (a hundred at the most per
 * search), the chosen ones kept labelled when a search does not list them.
 */
import { useMemo, useState } from 'react';
import { Select, type SelectProps } from 'antd';
import { carrierApi } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';

interface Props extends Omit<SelectProps<number[]>, 'options' | 'loading' | 'showSearch' | 'mode'> {
  open: boolean;
  customerId?: number;
  /** The rule's carriers as saved (their names). */
  current: { id: number; name: string }[];
}

export function CarriersSelect({ open, customerId, current, ...select }: Props) {
  const [search, setSearch] = useState('');
  const q = useCall(carrierApi.page, { query: { iDisplayLength: 100, name: search || undefined, customerId } }, { enabled: open });
  const options = useMemo(() => {
    const listed = (q.data?.rows ?? []).map((c) => ({ value: c.id, label: `${c.name} · ${c.sceneLabel}` }));
    const missing = current.filter((c) => !listed.some((o) => o.value === c.id)).map((c) => ({ value: c.id, label: c.name }));
    return [...missing, ...listed];
  }, [q.data, current]);
  return <Select {...select} mode="multiple" showSearch={{ filterOption: false, onSearch: setSearch }} loading={q.isFetching} options={options} maxTagCount="responsive" />;
}
