/**
 * The gateway and carrier pickers of the device dialogs (sensors, gas, magnets, bases, displays,
 * relays; a gateway picks only its carrier; a loan picks the borrower's gateway). Each loads its
 * options when its dialog opens, a hundred at the most, from the customer given (the edited
 * device's: a device moves only within its customer), searched on the server, and keeps the
 * current choice labelled when the search does not list it. Put one inside a Form.Item: it
 * passes the item's value, onChange and id on to its Select.
 */
import { useMemo, useState } from 'react';
import { Select, type SelectProps } from 'antd';
import { carrierApi, gatewayApi } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';

export interface PickerOption {
  value: number;
  label: string;
}

/** The current choice first, when the options loaded do not hold it. */
export const withCurrent = (options: PickerOption[], current: PickerOption | null | undefined) => (current && !options.some((o) => o.value === current.value) ? [current, ...options] : options);

interface PickerProps extends Omit<SelectProps<number>, 'options' | 'loading' | 'showSearch'> {
  /** Load the options (the dialog is open). */
  open: boolean;
  /** Only this customer's (default: the caller's scope). */
  customerId?: number;
}

/** A device as its row names its gateway. */
export interface OnGateway {
  gatewayId: number;
  gatewaySn: string;
  gatewayName: string;
}

/** The gateway a device reports through, labelled "serial number · name", searched by serial number. */
export function GatewaySelect({ open, customerId, current, searchable = true, ...select }: PickerProps & { current?: OnGateway | null; searchable?: boolean }) {
  const [search, setSearch] = useState('');
  const q = useCall(gatewayApi.page, { query: { iDisplayLength: 100, sn: search || undefined, customerId } }, { enabled: open });
  const options = useMemo(
    () => withCurrent((q.data?.rows ?? []).map((g) => ({ value: g.id, label: `${g.sn} · ${g.name}` })), current && { value: current.gatewayId, label: `${current.gatewaySn} · ${current.gatewayName}` }),
    [q.data, current],
  );
  return <Select {...select} showSearch={searchable ? { filterOption: false, onSearch: setSearch } : undefined} loading={q.isFetching} options={options} />;
}

/** A device as its row names its carrier. */
export interface Carried {
  carrierId: number | null;
  carrierName: string | null;
}

/** The carrier (monitoring point) a device is bound to, labelled "name · scene", searched by name; clearing it unbinds. */
export function CarrierSelect({ open, customerId, current, ...select }: PickerProps & { current?: Carried | null }) {
  const [search, setSearch] = useState('');
  const q = useCall(carrierApi.page, { query: { iDisplayLength: 100, name: search || undefined, customerId } }, { enabled: open });
  const options = useMemo(
    () => withCurrent((q.data?.rows ?? []).map((c) => ({ value: c.id, label: `${c.name} · ${c.sceneLabel}` })), current?.carrierId ? { value: current.carrierId, label: current.carrierName ?? String(current.carrierId) } : null),
    [q.data, current],
  );
  return <Select allowClear {...select} showSearch={{ filterOption: false, onSearch: setSearch }} loading={q.isFetching} options={options} />;
}
