/**
 * /device/gateway: the gateways of the caller's scope (spec §2 device section, §3 Gateway):
 * search, paged table with run status, split-button actions (detail, edit, new secret, delete);
 * a new gateway or a new secret shows what to configure in the gateway, the secret once.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { gatewayApi, type GatewayRow } from '@coldwatch/contract';
import { call } from '../../api/call';
import { AddButton, ListPage, useListRef, type ListColumn } from '../../ui';
import { formatInZone } from '../../lib/format';
import { ConnectPanel } from '../wizard/WizardSteps';
import { deviceStatusTexts, useDeviceActions, useDeviceColumns } from './deviceList';
import { GatewayDialog } from './GatewayDialog';

export default function GatewayPage() {
  const { t } = useTranslation('device');
  const navigate = useNavigate();
  const list = useListRef();
  const [editing, setEditing] = useState<GatewayRow | 'new' | null>(null);
  const [secret, setSecret] = useState<{ id: number; sn: string; secret: string } | null>(null);
  const col = useDeviceColumns();
  const act = useDeviceActions<GatewayRow>({
    api: gatewayApi,
    reload: list.reload,
    cancel: t('form.cancel'),
    deleted: t('msg.deleted'),
    editPerm: 'editGateway',
    removePerm: 'removeGateway',
    statusTexts: deviceStatusTexts(t, (r: GatewayRow) => r.sn),
    deleteTexts: (r) => ({ label: t('action.delete'), title: t('gateway.deleteTitle', { sn: r.sn }), content: r.sensorCount > 0 ? t('gateway.deleteHasSensors', { count: r.sensorCount }) : t('gateway.deleteText') }),
  });
  const detail = (r: GatewayRow) => navigate(`/GateWayDetail?id=${r.id}`);
  const newSecret = (r: GatewayRow) => act.confirm(t('gateway.resetTitle', { sn: r.sn }), t('gateway.resetText'), t('gateway.reset'), async () => setSecret(await call(gatewayApi.resetSecret, { query: { id: r.id } })), false);

  const columns: ListColumn<GatewayRow>[] = [
    col.status(t, (r) => ({ at: r.lastSeenAt, tz: r.tz })),
    col.number(t('gateway.sn'), 'sn', 150, detail, 150),
    { title: t('gateway.name'), dataIndex: 'name', width: 160, ellipsis: true, search: { type: 'input', width: 140 } },
    { title: t('gateway.type'), dataIndex: 'type', width: 130, render: (v: string) => t(`gatewayType.${v}`, { defaultValue: v }) },
    col.carrier(t('gateway.carrier'), 150),
    { title: t('col.sensors'), dataIndex: 'sensorCount', width: 80, align: 'right' },
    { title: t('gateway.power'), dataIndex: 'power', width: 90, render: (v: string | null) => (v ? t(`power.${v}`, { defaultValue: v }) : '--') },
    // A gateway's times in its own zone (spec §3 per-device time zone).
    { title: t('col.lastSeen'), dataIndex: 'lastSeenAt', width: 150, render: (v: number | null, r) => (v ? formatInZone(v, r.tz, 'YYYY-MM-DD HH:mm') : '--') },
    { title: t('form.tz'), dataIndex: 'tz', width: 90, render: (v: string) => `UTC${v}` },
    col.customer(t('col.customer')),
  ];
  return (
    <ListPage
      ref={list.ref}
      title={t('gateway.title')}
      route={gatewayApi.page}
      columns={columns}
      actions={{
        title: t('col.actions'),
        width: 120,
        primary: { label: t('action.detail'), onClick: detail },
        items: [{ key: 'edit', perm: 'editGateway', label: t('action.edit'), onClick: setEditing }, { key: 'secret', perm: 'editGateway', label: t('gateway.reset'), onClick: newSecret }, { key: 'workOrder', perm: 'newWorkOrder', label: t('workOrder:entry'), onClick: (r) => navigate(`/order/workOrder?raise=gateway:${r.id}&name=${encodeURIComponent(r.sn)}`) }, act.status, act.remove],
      }}
      toolbar={
        <AddButton perm="newGateway" onClick={() => setEditing('new')}>
          {t('action.add')}
        </AddButton>
      }
      empty={t('gateway.empty')}
      scrollX={1300}
    >
      <GatewayDialog
        target={editing}
        onClose={() => setEditing(null)}
        onDone={(added) => {
          list.reload();
          if (added) setSecret(added);
        }}
      />
      <Modal open={!!secret} title={t('gateway.connectTitle', { sn: secret?.sn })} footer={null} onCancel={() => setSecret(null)} width={640} destroyOnHidden>
        {secret && <ConnectPanel sn={secret.sn} secret={secret.secret} gatewayId={secret.id} onSecret={(s) => setSecret({ ...secret, secret: s })} />}
      </Modal>
    </ListPage>
  );
}
