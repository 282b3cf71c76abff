/**
 * What the device list pages (gateways, sensors, gas, magnets, display screens, smart bases,
 * relays) share, as configuration for the list kit (ui/ListPage): their common columns (run
 * status, number, carrier, gateway, customer) and their stop/enable and delete actions.
 */
import { Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { Callable, RouteDef } from '@coldwatch/contract';
import { idList } from '../../api/call';
import { useAction } from '../../api/hooks';
import { seesManyCustomers, useAuth } from '../../app/auth';
import { useConfirm, type ListColumn, type RowAction } from '../../ui';
import { CarrierLink, GatewayLink } from './DeviceDetail';
import { DeviceStatus } from './DeviceStatus';

interface Device {
  id: number;
  status: number;
}
interface Carried {
  carrierId: number | null;
  carrierName: string | null;
}
interface OnGateway {
  gatewayId: number;
  gatewaySn: string;
}

/** Run status options of spec §4 (offline, online, stopped), in the device catalogue. */
export const statusOptions = (t: TFunction) => [0, 1, 2].map((s) => ({ value: s, label: t(`device:status.${s}`) }));

/** Builders of the columns every device list has; titles come translated from the page's catalogue. */
export function useDeviceColumns() {
  const { user } = useAuth();
  return {
    /** Run status, with when it was last heard of; searched last-but-one (after the page's own fields). */
    status: <R extends Device>(t: TFunction, lastSeen?: (r: R) => { at: number | null; tz: string | null }): ListColumn<R> => ({
      title: t('col.status'),
      dataIndex: 'status' as keyof R & string,
      width: 100,
      render: (s: number, r: R) => <DeviceStatus status={s} lastSeen={lastSeen?.(r).at ?? null} tz={lastSeen?.(r).tz ?? null} />,
      search: { type: 'select', width: 110, options: statusOptions(t), order: 1 },
    }),
    /** The number (or serial number) as the link that opens the row. */
    number: <R extends Device>(title: string, field: keyof R & string, width: number, open: (r: R) => void, searchWidth = 140): ListColumn<R> => ({
      title,
      dataIndex: field,
      width,
      render: (v: string, r: R) => (
        <Typography.Link code onClick={() => open(r)}>
          {v}
        </Typography.Link>
      ),
      search: { type: 'input', width: searchWidth },
    }),
    /** The bound carrier as a link to it, or `unbound` (a text, or '--'). */
    carrier: <R extends Carried>(title: string, width: number, unbound?: string): ListColumn<R> => ({
      title,
      dataIndex: 'carrierName' as keyof R & string,
      width,
      ellipsis: true,
      render: (v: string | null, r: R) => <CarrierLink id={r.carrierId} name={v} unbound={unbound === undefined ? '--' : <Typography.Text type="secondary">{unbound}</Typography.Text>} />,
    }),
    /** The gateway's serial number as a link to it. */
    gateway: <R extends OnGateway>(title: string): ListColumn<R> => ({
      title,
      dataIndex: 'gatewaySn' as keyof R & string,
      width: 140,
      render: (v: string, r: R) => <GatewayLink id={r.gatewayId}>{v}</GatewayLink>,
    }),
    /** The customer, for callers who see several (spec §6). */
    customer: <R,>(title: string): ListColumn<R> => ({ title, dataIndex: 'customerName' as keyof R & string, width: 140, ellipsis: true, hidden: !seesManyCustomers(user?.userType) }),
  };
}

interface StatusTexts {
  label: string;
  title: string;
  content: string;
}

export interface DeviceActionsOptions<R extends Device> {
  api: { setStatus: Callable<RouteDef>; del: Callable<RouteDef> };
  reload: () => void;
  /** The confirm dialogs' cancel button. */
  cancel: string;
  /** Success toast of a deletion. */
  deleted: string;
  editPerm: string;
  removePerm: string;
  /** Texts of stopping (`stop` true) or enabling the row. */
  statusTexts: (stop: boolean, r: R) => StatusTexts;
  /** Texts of deleting the row. */
  deleteTexts: (r: R) => StatusTexts;
}

/** The page's keys at its top level (base, display, relay catalogues): stop/enable with the row's name. */
export const flatStatusTexts =
  (t: TFunction) =>
  (stop: boolean, r: { name: string }): StatusTexts => ({ label: t(stop ? 'stop' : 'enable'), title: t(stop ? 'stopTitle' : 'enableTitle', { name: r.name }), content: t(stop ? 'stopText' : 'enableText') });
/** The same in those catalogues for deleting. */
export const flatDeleteTexts = (t: TFunction) => (r: { name: string }): StatusTexts => ({ label: t('delete'), title: t('deleteTitle', { name: r.name }), content: t('deleteText') });
/** The device catalogue's (gateways, sensors): stop/enable with the row's number. */
export const deviceStatusTexts =
  <R,>(t: TFunction, name: (r: R) => string) =>
  (stop: boolean, r: R): StatusTexts => ({
    label: stop ? t('action.stop') : t('action.enable'),
    title: t(stop ? 'status.stopTitle' : 'status.enableTitle', { name: name(r) }),
    content: t(stop ? 'status.stopText' : 'status.enableText'),
  });

/** Stop or enable (a confirm; danger when stopping), and delete (a confirm), as row actions. */
export function useDeviceActions<R extends Device>(o: DeviceActionsOptions<R>) {
  const confirm = useConfirm(o.cancel);
  const setStatus = useAction(o.api.setStatus, { onDone: o.reload });
  const del = useAction(o.api.del, { success: o.deleted, onDone: o.reload });
  const status: RowAction<R> = {
    key: 'status',
    perm: o.editPerm,
    label: (r) => o.statusTexts(r.status !== 2, r).label,
    onClick: (r) => {
      const stop = r.status !== 2;
      const x = o.statusTexts(stop, r);
      confirm(x.title, x.content, x.label, () => setStatus.run({ body: { ids: [r.id], stopped: stop } } as never), stop);
    },
  };
  const remove: RowAction<R> = {
    key: 'delete',
    perm: o.removePerm,
    danger: true,
    label: (r) => o.deleteTexts(r).label,
    onClick: (r) => {
      const x = o.deleteTexts(r);
      confirm(x.title, x.content, x.label, () => del.run({ query: { ids: idList([r.id]) } } as never));
    },
  };
  return { status, remove, confirm };
}
