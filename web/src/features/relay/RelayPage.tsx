/**
 * /device/relay: the relays of the caller's scope (spec §2, §3 Relay, §4 Device switch): their
 * confirmed output and running switch; switch one or a selection, cancel a switch, edit, stop or
 * enable, delete; the switching log of them all.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, Modal, Space } from 'antd';
import { PlusOutlined, PoweroffOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { relayApi, type RelayRow } from '@coldwatch/contract';
import { useAction } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { ListPage, useListRef, type ListColumn } from '../../ui';
import { flatDeleteTexts, flatStatusTexts, useDeviceActions, useDeviceColumns } from '../device/deviceList';
import { RelayDialog } from './RelayDialog';
import { SwitchDialog } from './SwitchDialog';
import { OutputTag, SwitchLogTable, SwitchTag } from './relayParts';

export default function RelayPage() {
  const { t } = useTranslation('relay');
  const { can, user } = useAuth();
  const navigate = useNavigate();
  const list = useListRef();
  const [selected, setSelected] = useState<RelayRow[]>([]);
  const [editing, setEditing] = useState<RelayRow | 'new' | null>(null);
  const [switching, setSwitching] = useState<RelayRow[] | null>(null);
  const [showLog, setShowLog] = useState(false);
  const col = useDeviceColumns();
  const act = useDeviceActions<RelayRow>({ api: relayApi, reload: list.reload, cancel: t('cancel'), deleted: t('msg.deleted'), editPerm: 'editRelay', removePerm: 'removeRelay', statusTexts: flatStatusTexts(t), deleteTexts: flatDeleteTexts(t) });
  const cancelSwitch = useAction(relayApi.switch, { success: t('msg.cancelled'), onDone: list.reload });
  const detail = (r: RelayRow) => navigate(`/RelayDetail?id=${r.id}`);
  const tz = user?.timeZone;

  const columns: ListColumn<RelayRow>[] = [
    col.status(t),
    col.number(t('col.devNo'), 'devNo', 120, detail),
    { title: t('col.name'), dataIndex: 'name', width: 140, ellipsis: true, search: { type: 'input', width: 140 } },
    { title: t('col.output'), key: 'output', width: 130, render: (_, r) => <OutputTag row={r} /> },
    { title: t('col.switch'), key: 'switch', width: 280, render: (_, r) => <SwitchTag row={r} tz={tz} /> },
    col.carrier(t('col.carrier'), 140, t('unbound')),
    col.gateway(t('col.gateway')),
    { title: t('col.mac'), dataIndex: 'mac', width: 130, render: (v: string) => v || '--' },
    { title: t('col.reportInterval'), dataIndex: 'reportInterval', width: 100, align: 'right', render: (v: number) => `${v} s` },
    col.customer(t('col.customer')),
  ];
  return (
    <ListPage
      ref={list.ref}
      title={t('title')}
      route={relayApi.page}
      columns={columns}
      actions={{
        title: t('col.actions'),
        width: 120,
        primary: { label: t('switch'), onClick: (r) => setSwitching([r]), disabled: !can('editRelay') && !can('removeRelay') },
        items: [
          { key: 'detail', label: t('detail'), onClick: detail },
          {
            key: 'cancel',
            perm: 'editRelay',
            when: (r) => !!r.switch,
            label: t('cancelSwitch'),
            onClick: (r) => act.confirm(t('cancelTitle', { name: r.name }), t('cancelText'), t('cancelSwitch'), () => cancelSwitch.run({ body: { ids: [r.id], mode: 'cancel', cancelTime: null } })),
          },
          { key: 'edit', perm: 'editRelay', label: t('edit'), onClick: setEditing },
          act.status,
          act.remove,
        ],
      }}
      toolbar={
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
      }
      rowSelection={can('editRelay') ? { selectedRowKeys: selected.map((r) => r.id), onChange: (_k, rows) => setSelected(rows) } : undefined}
      empty={t('empty')}
      scrollX={1500}
    >
      <RelayDialog target={editing} onClose={() => setEditing(null)} onDone={list.reload} />
      <SwitchDialog
        relays={switching}
        onClose={() => setSwitching(null)}
        onDone={() => {
          setSelected([]);
          list.reload();
        }}
      />
      <Modal open={showLog} title={t('log.title')} footer={null} onCancel={() => setShowLog(false)} width={1200} style={{ top: '8vh' }} destroyOnHidden>
        <SwitchLogTable />
      </Modal>
    </ListPage>
  );
}
