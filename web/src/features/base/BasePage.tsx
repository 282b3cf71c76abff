/** /device/base: the smart bases of the caller's scope (spec §2, §3 base types); a base's detail opens in its own window (spec §2 /BaseDetail). */
import { useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { App, Button, Dropdown, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { BASE_TYPES, baseApi, type BaseRow } from '@coldwatch/contract';
import { idList } from '../../api/call';
import { useAction } from '../../api/hooks';
import { seesManyCustomers, useAuth } from '../../app/auth';
import { PageCard, PagedTable, SearchBar, type PagedTableRef, type SearchField } from '../../ui';
import { DeviceStatus } from '../device/DeviceStatus';
import { typeName } from '../type/typeLabels';
import { BaseDialog } from './BaseDialog';

type BaseType = (typeof BASE_TYPES)[number];

/** Spec §2: the base detail opens in its own window. */
export const openBase = (id: number) => window.open(`/BaseDetail?id=${id}`, `base-${id}`, 'width=1100,height=760');

export default function BasePage() {
  const { t } = useTranslation('base');
  const { can, user } = useAuth();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const table = useRef<PagedTableRef>(null);
  const [filters, setFilters] = useState<{ devNo?: string; name?: string; type?: BaseType; status?: number }>({});
  const [editing, setEditing] = useState<BaseRow | 'new' | null>(null);
  const params = useMemo(() => ({ ...filters }), [filters]);
  const reload = () => table.current?.reload();
  const setStatus = useAction(baseApi.setStatus, { onDone: reload });
  const del = useAction(baseApi.del, { success: t('msg.deleted'), onDone: reload });
  const confirm = (title: string, content: string, ok: string, onOk: () => Promise<unknown>, danger = true) => modal.confirm({ title, content, okText: ok, okButtonProps: { danger }, cancelText: t('cancel'), onOk });

  const columns: ColumnsType<BaseRow> = [
    { title: t('col.status'), dataIndex: 'status', width: 100, render: (s: number) => <DeviceStatus status={s} lastSeen={null} tz={null} /> },
    { title: t('col.devNo'), dataIndex: 'devNo', width: 120, render: (v: string, r) => <Typography.Link code onClick={() => openBase(r.id)}>{v}</Typography.Link> },
    { title: t('col.name'), dataIndex: 'name', width: 160, ellipsis: true },
    { title: t('col.type'), dataIndex: 'type', width: 200, render: (v: string) => typeName(t, 'base', v) },
    { title: t('col.carrier'), dataIndex: 'carrierName', width: 150, ellipsis: true, render: (v: string | null, r) => (v ? <Typography.Link onClick={() => navigate(`/carrierDetailPage?id=${r.carrierId}`)}>{v}</Typography.Link> : <Typography.Text type="secondary">{t('unbound')}</Typography.Text>) },
    { title: t('col.gateway'), dataIndex: 'gatewaySn', width: 140, render: (v: string, r) => <Typography.Link onClick={() => navigate(`/GateWayDetail?id=${r.gatewayId}`)}>{v}</Typography.Link> },
    { title: t('col.description'), dataIndex: 'description', ellipsis: true, render: (v: string) => v || '--' },
    ...(seesManyCustomers(user?.userType) ? [{ title: t('col.customer'), dataIndex: 'customerName', width: 140, ellipsis: true }] : []),
    {
      title: t('col.actions'),
      key: 'actions',
      width: 110,
      fixed: 'right',
      render: (_, r) => (
        <Dropdown.Button
          size="small"
          onClick={() => openBase(r.id)}
          menu={{
            items: [
              ...(can('editPlinth') ? [{ key: 'edit', label: t('edit') }, { key: 'status', label: t(r.status === 2 ? 'enable' : 'stop') }] : []),
              ...(can('removePlinth') ? [{ key: 'delete', danger: true, label: t('delete') }] : []),
            ],
            onClick: ({ key }) => {
              if (key === 'edit') setEditing(r);
              if (key === 'status') confirm(t(r.status === 2 ? 'enableTitle' : 'stopTitle', { name: r.name }), t(r.status === 2 ? 'enableText' : 'stopText'), t(r.status === 2 ? 'enable' : 'stop'), () => setStatus.run({ body: { ids: [r.id], stopped: r.status !== 2 } }), r.status !== 2);
              if (key === 'delete') confirm(t('deleteTitle', { name: r.name }), t('deleteText'), t('delete'), () => del.run({ query: { ids: idList([r.id]) } }));
            },
          }}
        >
          {t('detail')}
        </Dropdown.Button>
      ),
    },
  ];
  const fields: SearchField[] = [
    { name: 'devNo', type: 'input', label: t('col.devNo'), width: 140 },
    { name: 'name', type: 'input', label: t('col.name'), width: 140 },
    { name: 'type', type: 'select', label: t('col.type'), width: 200, options: BASE_TYPES.map((x) => ({ value: x, label: typeName(t, 'base', x) })) },
    { name: 'status', type: 'select', label: t('col.status'), width: 110, options: [0, 1, 2].map((s) => ({ value: s, label: t(`device:status.${s}`) })) },
  ];
  return (
    <PageCard title={t('title')}>
      <div style={{ display: 'flex', alignItems: 'flex-start', gap: 16, flexWrap: 'wrap' }}>
        <div style={{ flex: 1, minWidth: 240 }}>
          <SearchBar fields={fields} onSearch={(v) => setFilters({ devNo: v.devNo as string, name: v.name as string, type: v.type as BaseType, status: v.status as number })} />
        </div>
        {can('newPlinth') && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {t('add')}
          </Button>
        )}
      </div>
      <PagedTable ref={table} route={baseApi.page} params={params} size="small" rowKey="id" columns={columns} locale={{ emptyText: t('empty') }} scroll={{ x: 1300 }} />
      <BaseDialog target={editing} onClose={() => setEditing(null)} onDone={reload} />
    </PageCard>
  );
}
