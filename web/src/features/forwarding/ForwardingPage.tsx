/**
 * /sys/forwarding (spec §2, §3 Forwarding server, Forward setting, Platform; docs/forwarding.md):
 * the customer's forwarding servers with their status (connected, last forwarded, backlog, last
 * error), the supervision platforms reached through them, and the forward settings that bind
 * carriers and sensors to either. Secrets are typed in and never shown again.
 */
import { useEffect, useState } from 'react';
import { Alert, Tabs, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { forwardingApi, type ForwardBindRow, type ForwardPlatformRow, type ForwardServerRow } from '@coldwatch/contract';
import { idList } from '../../api/call';
import { useAction } from '../../api/hooks';
import { seesManyCustomers, useAuth } from '../../app/auth';
import { AddButton, linkActionsColumn, ListPage, PageCard, useListRef, type ListColumn } from '../../ui';
import { formatInZone } from '../../lib/format';
import { ServerDialog } from './ServerDialog';
import { PlatformDialog } from './PlatformDialog';
import { BindDialog } from './BindDialog';

/** How often the servers' status is read again while the page is open (ms). */
const STATUS_REFRESH_MS = 5000;

function ServersTab() {
  const { t } = useTranslation('forwarding');
  const { can, user } = useAuth();
  const list = useListRef();
  const [editing, setEditing] = useState<ForwardServerRow | 'new' | null>(null);
  const del = useAction(forwardingApi.del, { success: t('msg.deleted'), onDone: list.reload });
  const { reload } = list;
  // The status columns follow the forwarder while the page is open.
  useEffect(() => {
    const timer = setInterval(reload, STATUS_REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);
  const when = (ms: number | null) => (ms ? formatInZone(ms, user?.timeZone, 'YYYY-MM-DD HH:mm:ss') : '--');
  const columns: ListColumn<ForwardServerRow>[] = [
    { title: t('col.customer'), dataIndex: 'customerName', width: 140, hidden: !seesManyCustomers(user?.userType) },
    { title: t('col.name'), dataIndex: 'name', width: 150, search: { type: 'input', width: 160 } },
    { title: t('col.type'), dataIndex: 'type', width: 80, render: (v: string) => <Tag>{v.toUpperCase()}</Tag>, search: { type: 'select', width: 110, options: [{ value: 'mqtt', label: 'MQTT' }, { value: 'http', label: 'HTTP' }] } },
    {
      title: t('col.address'),
      key: 'address',
      width: 250,
      render: (_, r) => (
        <Typography.Text code style={{ fontSize: 12 }}>
          {`${r.type === 'mqtt' ? (r.tls ? 'mqtts' : 'mqtt') : r.tls ? 'https' : 'http'}://${r.host}:${r.port}${r.type === 'http' ? r.path : ` ${r.pubTopic}`}`}
        </Typography.Text>
      ),
    },
    { title: t('col.qos'), dataIndex: 'qos', width: 60, render: (v: number, r) => (r.type === 'mqtt' ? v : '--') },
    {
      title: t('col.status'),
      key: 'status',
      width: 110,
      render: (_, r) =>
        !r.enabled ? <Tag>{t('status.disabled')}</Tag> : r.status.connected ? <Tag color="success">{t('status.connected')}</Tag> : <Tag color={r.bindings ? 'error' : 'default'}>{t('status.disconnected')}</Tag>,
    },
    { title: t('col.lastForwarded'), key: 'last', width: 160, render: (_, r) => when(r.status.lastForwardedAt) },
    { title: t('col.backlog'), key: 'backlog', width: 90, align: 'right', render: (_, r) => r.status.backlog.toLocaleString() },
    {
      title: t('col.lastError'),
      key: 'error',
      width: 220,
      ellipsis: true,
      render: (_, r) =>
        r.status.lastError ? (
          <Tooltip title={`${when(r.status.lastErrorAt)} ${r.status.lastError}`}>
            <Typography.Text type={r.status.connected ? 'secondary' : 'danger'}>{r.status.lastError}</Typography.Text>
          </Tooltip>
        ) : (
          '--'
        ),
    },
    { title: t('col.bindings'), dataIndex: 'bindings', width: 80, align: 'right' },
    linkActionsColumn<ForwardServerRow>(
      {
        title: t('col.actions'),
        width: 120,
        items: [
          { key: 'edit', perm: 'editForwarding', label: t('action.edit'), onClick: setEditing },
          {
            key: 'delete',
            perm: 'removeForwarding',
            label: t('action.delete'),
            danger: true,
            disabled: (r) => r.bindings > 0,
            hint: (r) => (r.bindings > 0 ? t('inUse') : undefined),
            confirm: (r) => ({ title: t('confirm.delete', { name: r.name }), okText: t('form.ok'), cancelText: t('form.cancel'), danger: true }),
            onClick: (r) => del.run({ query: { ids: idList([r.id]) } }),
          },
        ],
      },
      can,
    ),
  ];
  return (
    <ListPage
      ref={list.ref}
      route={forwardingApi.page}
      columns={columns}
      scrollX={1400}
      empty={t('empty.servers')}
      toolbar={
        <AddButton perm="newForwarding" onClick={() => setEditing('new')}>
          {t('action.addServer')}
        </AddButton>
      }
    >
      <ServerDialog target={editing} onClose={() => setEditing(null)} onDone={list.reload} />
    </ListPage>
  );
}

function PlatformsTab() {
  const { t } = useTranslation('forwarding');
  const { can, user } = useAuth();
  const list = useListRef();
  const [editing, setEditing] = useState<ForwardPlatformRow | 'new' | null>(null);
  const del = useAction(forwardingApi.platformDel, { success: t('msg.deleted'), onDone: list.reload });
  const columns: ListColumn<ForwardPlatformRow>[] = [
    { title: t('col.customer'), dataIndex: 'customerName', width: 140, hidden: !seesManyCustomers(user?.userType) },
    { title: t('platform.code'), dataIndex: 'code', width: 110, render: (v: string) => <code>{v}</code> },
    { title: t('platform.name'), dataIndex: 'name', width: 180, search: { type: 'input', width: 160 } },
    { title: t('platform.vendorCode'), dataIndex: 'vendorCode', width: 110, render: (v: string) => v || '--' },
    { title: t('platform.appId'), dataIndex: 'appId', width: 160 },
    { title: t('platform.key'), dataIndex: 'hasKey', width: 90, render: (v: boolean) => (v ? <Tag color="blue">{t('platform.keySet')}</Tag> : '--') },
    { title: t('platform.server'), dataIndex: 'serverName', width: 150 },
    linkActionsColumn<ForwardPlatformRow>(
      {
        title: t('col.actions'),
        width: 120,
        items: [
          { key: 'edit', perm: 'editForwarding', label: t('action.edit'), onClick: setEditing },
          {
            key: 'delete',
            perm: 'removeForwarding',
            label: t('action.delete'),
            danger: true,
            confirm: (r) => ({ title: t('confirm.delete', { name: r.name }), okText: t('form.ok'), cancelText: t('form.cancel'), danger: true }),
            onClick: (r) => del.run({ query: { ids: idList([r.id]) } }),
          },
        ],
      },
      can,
    ),
  ];
  return (
    <ListPage
      ref={list.ref}
      route={forwardingApi.platformPage}
      columns={columns}
      scrollX={1000}
      empty={t('empty.platforms')}
      toolbar={
        <AddButton perm="newForwarding" onClick={() => setEditing('new')}>
          {t('action.addPlatform')}
        </AddButton>
      }
    >
      <PlatformDialog target={editing} onClose={() => setEditing(null)} onDone={list.reload} />
    </ListPage>
  );
}

function BindingsTab() {
  const { t } = useTranslation('forwarding');
  const { can, user } = useAuth();
  const list = useListRef();
  const [adding, setAdding] = useState(false);
  const del = useAction(forwardingApi.bindDel, { success: t('msg.deleted'), onDone: list.reload });
  const toggle = useAction(forwardingApi.bindUpdate, { success: t('msg.updated'), onDone: list.reload });
  const columns: ListColumn<ForwardBindRow>[] = [
    {
      title: t('bind.subject'),
      key: 'subject',
      width: 200,
      render: (_, r) => (r.carrierId ? `${t('bind.carrier')} · ${r.carrierName ?? r.carrierId}` : `${t('bind.sensor')} · ${r.devNo ?? r.sensorId}`),
    },
    { title: t('bind.target'), key: 'target', width: 220, render: (_, r) => (r.platformName ? `${r.platformName} (${r.serverName})` : r.serverName) },
    { title: t('bind.exceptions'), dataIndex: 'exceptions', width: 110, render: (v: boolean) => (v ? t('yes') : t('no')) },
    { title: t('col.status'), dataIndex: 'enabled', width: 100, render: (v: boolean) => (v ? <Tag color="success">{t('status.on')}</Tag> : <Tag>{t('status.paused')}</Tag>) },
    { title: t('bind.cursor'), dataIndex: 'cursorTs', width: 170, render: (v: number) => formatInZone(v, user?.timeZone, 'YYYY-MM-DD HH:mm:ss') },
    linkActionsColumn<ForwardBindRow>(
      {
        title: t('col.actions'),
        width: 180,
        items: [
          { key: 'pause', perm: 'editForwarding', when: (r) => r.enabled, label: t('action.pause'), onClick: (r) => toggle.run({ body: { id: r.id, exceptions: r.exceptions, enabled: false } }) },
          { key: 'resume', perm: 'editForwarding', when: (r) => !r.enabled, label: t('action.resume'), onClick: (r) => toggle.run({ body: { id: r.id, exceptions: r.exceptions, enabled: true } }) },
          {
            key: 'delete',
            perm: 'removeForwarding',
            label: t('action.delete'),
            danger: true,
            confirm: () => ({ title: t('confirm.unbind'), okText: t('form.ok'), cancelText: t('form.cancel'), danger: true }),
            onClick: (r) => del.run({ query: { ids: idList([r.id]) } }),
          },
        ],
      },
      can,
    ),
  ];
  return (
    <ListPage
      ref={list.ref}
      route={forwardingApi.bindPage}
      columns={columns}
      scrollX={1000}
      empty={t('empty.bindings')}
      toolbar={
        <AddButton perm="newForwarding" onClick={() => setAdding(true)}>
          {t('action.addBinding')}
        </AddButton>
      }
    >
      <BindDialog open={adding} onClose={() => setAdding(false)} onDone={list.reload} />
    </ListPage>
  );
}

export default function ForwardingPage() {
  const { t } = useTranslation('forwarding');
  return (
    <PageCard title={t('title')}>
      <Alert type="info" showIcon title={t('intro')} style={{ marginBottom: 12 }} />
      <Tabs
        destroyOnHidden
        items={[
          { key: 'servers', label: t('tab.servers'), children: <ServersTab /> },
          { key: 'platforms', label: t('tab.platforms'), children: <PlatformsTab /> },
          { key: 'bindings', label: t('tab.bindings'), children: <BindingsTab /> },
        ]}
      />
    </PageCard>
  );
}
