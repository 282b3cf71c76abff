/**
 * /sys/customer: the customers of the platform (spec §3 Customer, §4 states, §5 rules, §8
 * customer-create answers): search by name, code, status and organisation type; add/edit;
 * cancel and activate; delete after a confirmation of what it removes.
 */
import { useState } from 'react';
import { App, Badge, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { customerApi } from '@coldwatch/contract';
import { idList } from '../../api/call';
import { useAction } from '../../api/hooks';
import { AddButton, linkActionsColumn, ListPage, useListRef, type ListColumn } from '../../ui';
import { formatInZone } from '../../lib/format';
import { CustomerDialog } from './CustomerDialog';
import { CUSTOMER_STATUS, ORG_TYPES, type CustomerRow } from './customerTypes';

export default function CustomerPage() {
  const { t } = useTranslation('customer');
  const { can, user } = useAuth();
  const { modal } = App.useApp();
  const list = useListRef();
  const [editing, setEditing] = useState<CustomerRow | 'new' | null>(null);
  const reload = list.reload;
  const cancel = useAction(customerApi.cancel, { success: t('msg.cancelled'), onDone: reload });
  const activate = useAction(customerApi.activate, { success: t('msg.activated'), onDone: reload });
  const del = useAction(customerApi.del, { success: t('msg.deleted'), onDone: reload });
  const setStatus = (r: CustomerRow, to: 'cancel' | 'activate') => (to === 'cancel' ? cancel : activate).run({ query: { ids: idList([r.id]) } });

  const remove = (r: CustomerRow) =>
    modal.confirm({
      title: t('confirm.deleteTitle', { name: r.name }),
      content: t('confirm.deleteText'),
      okText: t('confirm.deleteOk'),
      okButtonProps: { danger: true },
      cancelText: t('confirm.cancel'),
      width: 460,
      onOk: () => del.run({ query: { ids: idList([r.id]) } }),
    });

  // The platform's own customer is not cancelled or deleted from here.
  const notSelf = (r: CustomerRow) => r.id !== user?.customerId;
  const asks = (title: string, text: string) => ({ title, description: <div style={{ maxWidth: 300 }}>{text}</div>, okText: t('confirm.ok'), cancelText: t('confirm.cancel') });

  const columns: ListColumn<CustomerRow>[] = [
    {
      title: t('col.name'),
      dataIndex: 'name',
      width: 200,
      ellipsis: true,
      search: { type: 'input', label: t('filter.name'), width: 140 },
      render: (v: string, r) => (
        <div style={{ lineHeight: 1.35 }}>
          <div>{v}</div>
          {r.shortName && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {r.shortName}
            </Typography.Text>
          )}
        </div>
      ),
    },
    { title: t('col.code'), dataIndex: 'code', width: 110, render: (v: string) => <span style={{ fontFamily: 'ui-monospace, monospace' }}>{v}</span>, search: { type: 'input', label: t('filter.code'), width: 120 } },
    {
      title: t('col.type'),
      dataIndex: 'type',
      width: 90,
      render: (v: string) => <Tag color={v === 'platform' ? 'purple' : 'blue'}>{t(`type.${v}`, { defaultValue: v })}</Tag>,
    },
    // The search bar's order: name, code, status, organisation type.
    {
      title: t('col.orgType'),
      dataIndex: 'orgType',
      width: 150,
      ellipsis: true,
      render: (v: string) => t(`orgType.${v}`, { defaultValue: v }),
      search: { type: 'select', label: t('filter.orgType'), width: 150, options: ORG_TYPES.map((o) => ({ value: o, label: t(`orgType.${o}`) })), order: 2 },
    },
    { title: t('col.area'), dataIndex: 'area', width: 120, ellipsis: true, render: (v: string) => v || '--' },
    {
      title: t('col.contact'),
      dataIndex: 'contact',
      width: 150,
      render: (v: string, r) => (
        <div style={{ lineHeight: 1.35 }}>
          <div>{v || '--'}</div>
          {r.phone && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {r.phone}
            </Typography.Text>
          )}
        </div>
      ),
    },
    {
      title: t('col.admin'),
      dataIndex: 'adminAccount',
      width: 130,
      render: (v: string | null, r) => (
        <div style={{ lineHeight: 1.35 }}>
          <div>{v ?? '--'}</div>
          {r.userCount !== null && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('col.userCount', { count: r.userCount })}
            </Typography.Text>
          )}
        </div>
      ),
    },
    { title: t('col.email'), dataIndex: 'email', width: 170, ellipsis: true, render: (v: string) => v || '--' },
    {
      title: t('col.notify'),
      key: 'notify',
      width: 110,
      render: (_, r) =>
        r.notifyEmail || r.notifySms ? (
          <Space size={2}>
            {r.notifyEmail && <Tag style={{ marginInlineEnd: 0 }}>{t('notify.email')}</Tag>}
            {r.notifySms && <Tag style={{ marginInlineEnd: 0 }}>{t('notify.sms')}</Tag>}
          </Space>
        ) : (
          <Typography.Text type="secondary">{t('notify.none')}</Typography.Text>
        ),
    },
    {
      title: t('col.status'),
      dataIndex: 'status',
      width: 90,
      render: (s: number) => <Badge status={s === CUSTOMER_STATUS.active ? 'success' : 'default'} text={t(`status.${s}`, { defaultValue: String(s) })} />,
      search: { type: 'select', label: t('filter.status'), width: 100, options: [1, 0].map((s) => ({ value: s, label: t(`status.${s}`) })), order: 1 },
    },
    { title: t('col.createdAt'), dataIndex: 'createdAt', width: 150, render: (v: number | null) => (v ? formatInZone(v, user?.timeZone ?? null, 'YYYY-MM-DD HH:mm') : '--') },
    linkActionsColumn<CustomerRow>(
      {
        title: t('col.actions'),
        width: 230,
        items: [
          { key: 'edit', perm: 'editCustomer', label: t('action.edit'), onClick: setEditing },
          {
            key: 'cancel',
            perm: 'editCustomer',
            when: (r) => notSelf(r) && r.status === CUSTOMER_STATUS.active,
            label: t('action.cancel'),
            danger: true,
            confirm: (r) => ({ ...asks(t('confirm.cancelTitle', { name: r.name }), t('confirm.cancelText')), danger: true }),
            onClick: (r) => setStatus(r, 'cancel'),
          },
          {
            key: 'activate',
            perm: 'editCustomer',
            when: (r) => r.status !== CUSTOMER_STATUS.active,
            label: t('action.activate'),
            confirm: (r) => asks(t('confirm.activateTitle', { name: r.name }), t('confirm.activateText')),
            onClick: (r) => setStatus(r, 'activate'),
          },
          { key: 'delete', perm: 'removeCustomer', when: notSelf, label: t('action.delete'), danger: true, onClick: remove },
        ],
      },
      can,
    ),
  ];

  return (
    <ListPage
      ref={list.ref}
      route={customerApi.page}
      columns={columns}
      toolbar={
        <AddButton perm="newCustomer" onClick={() => setEditing('new')}>
          {t('action.add')}
        </AddButton>
      }
      empty={t('empty')}
      scrollX={1680}
    >
      <CustomerDialog target={editing} onClose={() => setEditing(null)} onDone={reload} />
    </ListPage>
  );
}
