/**
 * /device/relay: the relays of the caller's scope (spec §2, §3 Relay, §4 Device switch): their
 * confirmed output and running switch; switch one or a selection, cancel a switch, edit, stop or
 * enable, delete; the switching log of them all.
 */
import { useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { App, Button, Dropdown, Modal, Space, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined, PoweroffOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { relayApi, type RelayRow } from '@coldwatch/contract';
import { idList } from '../../api/call';
import { useAction } from '../../api/hooks';
import { seesManyCustomers, useAuth } from '../../app/auth';
import { PageCard, PagedTable, SearchBar, type PagedTableRef, type SearchField } from '../../ui';
import { DeviceStatus } from '../device/DeviceStatus';
import { RelayDialog } from './RelayDialog';
import { SwitchDialog } from './SwitchDialog';
import { OutputTag, SwitchLogTable, SwitchTag } from './relayParts';

export default function RelayPage() {
  const { t } = useTranslation('relay');
  const { can, user } = useAuth();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const table = useRef<PagedTableRef>(null);
  const [filters, setFilters] = useState<{ devNo?: string; name?: string; status?: number }>({});
  const [selected, setSelected] = useState<RelayRow[]>([]);
  const [editing, setEditing] = useState<RelayRow | 'new' | null>(null);
  const [switching, setSwitching] = useState<RelayRow[] | null>(null);
  const [showLog, setShowLog] = useState(false);
  const params = useMemo(() => ({ ...filters }), [filters]);
  const reload = () => table.current?.reload();
  const cancelSwitch = useAction(relayApi.switch, { success: t('msg.cancelled'), onDone: reload });
  const setStatus = useAction(relayApi.setStatus, { onDone: reload });
  const del = useAction(relayApi.del, { success: t('msg.deleted'), onDone: reload });
  const confirm = (title: string, content: string, ok: string, onOk: () => Promise<unknown>, danger = true) =>
    modal.confirm({ title, content, okText: ok, okButtonProps: { danger }, cancelText: t('cancel'), onOk });
  const tz = user?.timeZone;

  const columns: ColumnsType<RelayRow> = [
    { title: t('col.status'), dataIndex: 'status', width: 100, render: (s: number) => <DeviceStatus status={s} lastSeen={null} tz={null} /> },
    { title: t('col.devNo'), dataIndex: 'devNo', width: 120, render: (v: string, r) => <Typography.Link code onClick={() => navigate(`/RelayDetail?id=${r.id}`)}>{v}</Typography.Link> },
    { title: t('col.name'), dataIndex: 'name', width: 140, ellipsis: true },
    { title: t('col.output'), key: 'output', width: 130, render: (_, r) => <OutputTag row={r} /> },
    { title: t('col.switch'), key: 'switch', width: 280, render: (_, r) => <SwitchTag row={r} tz={tz} /> },
    { title: t('col.carrier'), dataIndex: 'carrierName', width: 140, ellipsis: true, render: (v: string | null, r) => (v ? <Typography.Link onClick={() => navigate(`/carrierDetailPage?id=${r.carrierId}`)}>{v}</Typography.Link> : <Typography.Text type="secondary">{t('unbound')}</Typography.Text>) },
    { title: t('col.gateway'), dataIndex: 'gatewaySn', width: 140, render: (v: string, r) => <Typography.Link onClick={() => navigate(`/GateWayDetail?id=${r.gatewayId}`)}>{v}</Typography.Link> },
    { title: t('col.mac'), dataIndex: 'mac', width: 130, render: (v: string) => v || '--' },
    { title: t('col.reportInterval'), dataIndex: 'reportInterval', width: 100, align: 'right', render: (v: number) => `${v} s` },
    ...(seesManyCustomers(user?.userType) ? [{ title: t('col.customer'), dataIndex: 'customerName', width: 140, ellipsis: true }] : []),
    {
      title: t('col.actions'),
      key: 'actions',
      width: 120,
      fixed: 'right',
      render: (_, r) => (
        <Dropdown.Button
          size="small"
          disabled={!can('editRelay') && !can('removeRelay')}
          onClick={() => setSwitching([r])}
          menu={{
            items: [
              { key: 'detail', label: t('detail') },
              ...(can('editRelay')
                ? [
                    ...(r.switch ? [{ key: 'cancel', label: t('cancelSwitch') }] : []),
                    { key: 'edit', label: t('edit') },
                    { key: 'status', label: t(r.status === 2 ? 'enable' : 'stop') },
                  ]
                : []),
              ...(can('removeRelay') ? [{ key: 'delete', danger: true, label: t('delete') }] : []),
            ],
            onClick: ({ key }) => {
              if (key === 'detail') navigate(`/RelayDetail?id=${r.id}`);
              if (key === 'cancel') confirm(t('cancelTitle', { name: r.name }), t('cancelText'), t('cancelSwitch'), () => cancelSwitch.run({ body: { ids: [r.id], mode: 'cancel', cancelTime: null } }));
              if (key === 'edit') setEditing(r);
              if (key === 'status') confirm(t(r.status === 2 ? 'enableTitle' : 'stopTitle', { name: r.name }), t(r.status === 2 ? 'enableText' : 'stopText'), t(r.status === 2 ? 'enable' : 'stop'), () => setStatus.run({ body: { ids: [r.id], stopped: r.status !== 2 } }), r.status !== 2);
              if (key === 'delete') confirm(t('deleteTitle', { name: r.name }), t('deleteText'), t('delete'), () => del.run({ query: { ids: idList([r.id]) } }));
            },
          }}
        >
          {t('switch')}
        </Dropdown.Button>
      ),
    },
  ];
  const fields: SearchField[] = [
    { name: 'devNo', type: 'input', label: t('col.devNo'), width: 140 },
    { name: 'name', type: 'input', label: t('col.name'), width: 140 },
    { name: 'status', type: 'select', label: t('col.status'), width: 110, options: [0, 1, 2].map((s) => ({ value: s, label: t(`device:status.${s}`) })) },
  ];
  return (
    <PageCard title={t('title')}>
      <div style={{ display: 'flex', alignItems: 'flex-start', gap: 16, flexWrap: 'wrap' }}>
        <div style={{ flex: 1, minWidth: 240 }}>
          <SearchBar fields={fields} onSearch={(v) => setFilters({ devNo: v.devNo as string, name: v.name as string, status: v.status as number })} />
        </div>
        <Space>
          <Button onClick={() => setShowLog(true)}>{t('log.title')}</Button>
          {can('editRelay') && (
            <Button icon={<PoweroffOutlined />} disabled={!selected.length} onClick={() => setSwitching(selected)}>
              {t('switch')}
              {selected.length ? ` (${selected.length})` : ''}
            </Button>
          )}
          {can('newRelay') && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
              {t('add')}
            </Button>
          )}
        </Space>
      </div>
      <PagedTable
        ref={table}
        route={relayApi.page}
        params={params}
        size="small"
        rowKey="id"
        rowSelection={can('editRelay') ? { selectedRowKeys: selected.map((r) => r.id), onChange: (_k, rows) => setSelected(rows) } : undefined}
        columns={columns}
        locale={{ emptyText: t('empty') }}
        scroll={{ x: 1500 }}
      />
      <RelayDialog target={editing} onClose={() => setEditing(null)} onDone={reload} />
      <SwitchDialog
        relays={switching}
        onClose={() => setSwitching(null)}
        onDone={() => {
          setSelected([]);
          reload();
        }}
      />
      <Modal open={showLog} title={t('log.title')} footer={null} onCancel={() => setShowLog(false)} width={1200} style={{ top: '8vh' }} destroyOnHidden>
        <SwitchLogTable />
      </Modal>
    </PageCard>
  );
}
