/**
 * /device/gateway: the gateways of the caller's scope (spec §2 device section, §3 Gateway):
 * search, paged table with run status, split-button actions (detail, edit, new secret, delete);
 * a new gateway or a new secret shows what to configure in the gateway, the secret once.
 */
import { useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { App, Button, Dropdown, Modal, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { gatewayApi, type GatewayRow } from '@coldwatch/contract';
import { call, idList } from '../../api/call';
import { useAction } from '../../api/hooks';
import { seesManyCustomers, useAuth } from '../../app/auth';
import { PageCard, PagedTable, SearchBar, type PagedTableRef, type SearchField } from '../../ui';
import { formatInZone } from '../../lib/format';
import { ConnectPanel } from '../wizard/WizardSteps';
import { DeviceStatus } from './DeviceStatus';
import { GatewayDialog } from './GatewayDialog';

export default function GatewayPage() {
  const { t } = useTranslation('device');
  const { can, user } = useAuth();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const table = useRef<PagedTableRef>(null);
  const [filters, setFilters] = useState<{ sn?: string; name?: string; status?: number }>({});
  const [editing, setEditing] = useState<GatewayRow | 'new' | null>(null);
  const [secret, setSecret] = useState<{ id: number; sn: string; secret: string } | null>(null);
  const params = useMemo(() => ({ ...filters }), [filters]);
  const reload = () => table.current?.reload();
  const del = useAction(gatewayApi.del, { success: t('msg.deleted'), onDone: reload });
  const canEdit = can('editGateway');

  const newSecret = (r: GatewayRow) =>
    modal.confirm({
      title: t('gateway.resetTitle', { sn: r.sn }),
      content: t('gateway.resetText'),
      okText: t('gateway.reset'),
      cancelText: t('form.cancel'),
      onOk: async () => setSecret(await call(gatewayApi.resetSecret, { query: { id: r.id } })),
    });
  const setStatus = useAction(gatewayApi.setStatus, { onDone: reload });
  const switchStatus = (id: number, name: string, stop: boolean) =>
    modal.confirm({
      title: t(stop ? 'status.stopTitle' : 'status.enableTitle', { name }),
      content: t(stop ? 'status.stopText' : 'status.enableText'),
      okText: stop ? t('action.stop') : t('action.enable'),
      okButtonProps: { danger: stop },
      cancelText: t('form.cancel'),
      onOk: () => setStatus.run({ body: { ids: [id], stopped: stop } }),
    });
  const remove = (r: GatewayRow) =>
    modal.confirm({
      title: t('gateway.deleteTitle', { sn: r.sn }),
      content: r.sensorCount > 0 ? t('gateway.deleteHasSensors', { count: r.sensorCount }) : t('gateway.deleteText'),
      okText: t('action.delete'),
      okButtonProps: { danger: true },
      cancelText: t('form.cancel'),
      onOk: () => del.run({ query: { ids: idList([r.id]) } }),
    });

  const columns: ColumnsType<GatewayRow> = [
    { title: t('col.status'), dataIndex: 'status', width: 100, render: (s: number, r) => <DeviceStatus status={s} lastSeen={r.lastSeenAt} tz={r.tz} /> },
    {
      title: t('gateway.sn'),
      dataIndex: 'sn',
      width: 150,
      render: (v: string, r) => (
        <Typography.Link code onClick={() => navigate(`/GateWayDetail?id=${r.id}`)}>
          {v}
        </Typography.Link>
      ),
    },
    { title: t('gateway.name'), dataIndex: 'name', width: 160, ellipsis: true },
    { title: t('gateway.type'), dataIndex: 'type', width: 130, render: (v: string) => t(`gatewayType.${v}`, { defaultValue: v }) },
    { title: t('gateway.carrier'), dataIndex: 'carrierName', width: 150, ellipsis: true, render: (v: string | null, r) => (v ? <Typography.Link onClick={() => navigate(`/carrierDetailPage?id=${r.carrierId}`)}>{v}</Typography.Link> : '--') },
    { title: t('col.sensors'), dataIndex: 'sensorCount', width: 80, align: 'right' },
    { title: t('gateway.power'), dataIndex: 'power', width: 90, render: (v: string | null) => (v ? t(`power.${v}`, { defaultValue: v }) : '--') },
    // A gateway's times in its own zone (spec §3 per-device time zone).
    { title: t('col.lastSeen'), dataIndex: 'lastSeenAt', width: 150, render: (v: number | null, r) => (v ? formatInZone(v, r.tz, 'YYYY-MM-DD HH:mm') : '--') },
    { title: t('form.tz'), dataIndex: 'tz', width: 90, render: (v: string) => `UTC${v}` },
    ...(seesManyCustomers(user?.userType) ? [{ title: t('col.customer'), dataIndex: 'customerName', width: 140, ellipsis: true }] : []),
    {
      title: t('col.actions'),
      key: 'actions',
      width: 120,
      fixed: 'right',
      render: (_, r) => (
        <Dropdown.Button
          size="small"
          onClick={() => navigate(`/GateWayDetail?id=${r.id}`)}
          menu={{
            items: [
              ...(canEdit ? [{ key: 'edit', label: t('action.edit') }, { key: 'secret', label: t('gateway.reset') }, { key: 'status', label: r.status === 2 ? t('action.enable') : t('action.stop') }] : []),
              ...(can('removeGateway') ? [{ key: 'delete', danger: true, label: t('action.delete') }] : []),
            ],
            onClick: ({ key }) => {
              if (key === 'edit') setEditing(r);
              if (key === 'secret') newSecret(r);
              if (key === 'status') switchStatus(r.id, r.sn, r.status !== 2);
              if (key === 'delete') remove(r);
            },
          }}
        >
          {t('action.detail')}
        </Dropdown.Button>
      ),
    },
  ];
  const fields: SearchField[] = [
    { name: 'sn', type: 'input', label: t('gateway.sn'), width: 150 },
    { name: 'name', type: 'input', label: t('gateway.name'), width: 140 },
    { name: 'status', type: 'select', label: t('col.status'), width: 110, options: [0, 1, 2].map((s) => ({ value: s, label: t(`status.${s}`) })) },
  ];
  return (
    <PageCard title={t('gateway.title')}>
      <div style={{ display: 'flex', alignItems: 'flex-start', gap: 16, flexWrap: 'wrap' }}>
        <div style={{ flex: 1, minWidth: 240 }}>
          <SearchBar fields={fields} onSearch={(v) => setFilters({ sn: v.sn as string, name: v.name as string, status: v.status as number })} />
        </div>
        {can('newGateway') && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {t('action.add')}
          </Button>
        )}
      </div>
      <PagedTable ref={table} route={gatewayApi.page} params={params} size="small" rowKey="id" columns={columns} locale={{ emptyText: t('gateway.empty') }} scroll={{ x: 1300 }} />
      <GatewayDialog
        target={editing}
        onClose={() => setEditing(null)}
        onDone={(added) => {
          reload();
          if (added) setSecret(added);
        }}
      />
      <Modal open={!!secret} title={t('gateway.connectTitle', { sn: secret?.sn })} footer={null} onCancel={() => setSecret(null)} width={640} destroyOnHidden>
        {secret && <ConnectPanel sn={secret.sn} secret={secret.secret} gatewayId={secret.id} onSecret={(s) => setSecret({ ...secret, secret: s })} />}
      </Modal>
    </PageCard>
  );
}
