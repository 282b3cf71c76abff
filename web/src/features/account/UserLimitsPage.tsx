/**
 * /user/userLimits: roles (spec §3 Role, §5, §6): list with search, the role editor with its
 * permission tree; default roles are marked and cannot be deleted; deleting a role deletes
 * the users it leaves without any role, after a confirmation (del with confirm=true).
 */
import { useState } from 'react';
import { App, Badge, Space, Tag, Tooltip, Typography } from 'antd';
import { StarFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { roleApi } from '@coldwatch/contract';
import { idList } from '../../api/call';
import { useAction } from '../../api/hooks';
import { AddButton, linkActionsColumn, ListPage, useListRef, type ListColumn } from '../../ui';
import { formatInZone } from '../../lib/format';
import { roleName } from '../../lib/seeded';
import { RoleDialog } from './RoleDialog';
import { LEVEL_COLOR, type RoleRow } from './roleTypes';
import { useCustomerOptions } from './shared';

export default function UserLimitsPage() {
  const { t } = useTranslation('account');
  const { can, user, userType } = useAuth();
  const { message, modal } = App.useApp();
  const list = useListRef();
  const del = useAction(roleApi.del, {
    success: false,
    onDone: (res) => {
      void message.success(res.users ? t('role.msg.deletedUsers', { count: res.users }) : t('role.msg.deleted'));
      list.reload();
    },
  });
  const [editing, setEditing] = useState<RoleRow | 'new' | null>(null);
  const platform = userType === 2 || userType === 3;
  const customers = useCustomerOptions(platform);

  const remove = (r: RoleRow) =>
    modal.confirm({
      title: t('role.confirm.deleteTitle', { name: r.name }),
      content: (
        <div>
          <p style={{ margin: 0 }}>{t('role.confirm.deleteText')}</p>
          {r.userCount > 0 && (
            <Typography.Text type="danger" strong>
              {t('role.confirm.deleteUsers', { count: r.userCount })}
            </Typography.Text>
          )}
        </div>
      ),
      okText: t('role.confirm.ok'),
      okButtonProps: { danger: true },
      cancelText: t('role.confirm.cancel'),
      width: 460,
      onOk: () => del.run({ query: { ids: idList([r.id]), confirm: 'true' } }),
    });

  const columns: ListColumn<RoleRow>[] = [
    {
      title: t('role.col.name'),
      dataIndex: 'name',
      width: 240,
      search: { type: 'input', label: t('role.filter.name'), width: 150 },
      render: (v: string, r) => (
        <Space size={6}>
          <span>{roleName(t, v)}</span>
          {r.isDefault && (
            <Tooltip title={t('role.defaultHint')}>
              <Tag color="gold" icon={<StarFilled />} style={{ marginInlineEnd: 0 }}>
                {t('role.default')}
              </Tag>
            </Tooltip>
          )}
        </Space>
      ),
    },
    // The search bar's order: name, status, type, customer.
    {
      title: t('role.col.customer'),
      dataIndex: 'customerName',
      width: 160,
      ellipsis: true,
      hidden: !platform,
      search: { type: 'select', name: 'customerId', label: t('role.filter.customer'), width: 180, options: customers.data ?? [], order: 3 },
    },
    {
      title: t('role.col.type'),
      dataIndex: 'type',
      width: 100,
      render: (v: string) => <Tag color={v === 'admin' ? 'volcano' : undefined}>{t(`role.type.${v}`, { defaultValue: v })}</Tag>,
      search: { type: 'select', label: t('role.filter.type'), width: 120, options: ['admin', 'normal'].map((s) => ({ value: s, label: t(`role.type.${s}`) })), order: 2 },
    },
    { title: t('role.col.level'), dataIndex: 'level', width: 160, render: (v: number) => <Tag color={LEVEL_COLOR[v]}>{t(`role.level.${v}`, { defaultValue: String(v) })}</Tag> },
    {
      title: t('role.col.status'),
      dataIndex: 'status',
      width: 90,
      render: (s: number) => <Badge status={s === 1 ? 'success' : 'default'} text={t(`role.status.${s}`)} />,
      search: { type: 'select', label: t('role.filter.status'), width: 110, options: [1, 0].map((s) => ({ value: s, label: t(`role.status.${s}`) })), order: 1 },
    },
    { title: t('role.col.delegable'), dataIndex: 'delegable', width: 90, render: (v: boolean) => (v ? <Tag color="green">{t('role.delegableYes')}</Tag> : '--') },
    { title: t('role.col.users'), dataIndex: 'userCount', width: 80, align: 'right' },
    { title: t('role.col.description'), dataIndex: 'description', width: 180, ellipsis: true, render: (v: string) => v || '--' },
    { title: t('role.col.createdAt'), dataIndex: 'createdAt', width: 150, render: (v: number | null) => (v ? formatInZone(v, user?.timeZone ?? null, 'YYYY-MM-DD HH:mm') : '--') },
    linkActionsColumn<RoleRow>(
      {
        title: t('role.col.actions'),
        width: 120,
        items: [
          { key: 'edit', perm: 'editRole', label: t('role.action.edit'), onClick: setEditing },
          // A default role stays: shown disabled, with why.
          { key: 'delete', perm: 'removeRole', label: t('role.action.delete'), danger: true, disabled: (r) => r.isDefault, hint: (r) => (r.isDefault ? t('role.defaultHint') : undefined), onClick: remove },
        ],
      },
      can,
    ),
  ];

  return (
    <ListPage
      ref={list.ref}
      route={roleApi.page}
      columns={columns}
      toolbar={
        <AddButton perm="newRole" onClick={() => setEditing('new')}>
          {t('role.action.add')}
        </AddButton>
      }
      empty={t('role.empty')}
      scrollX={1450}
    >
      <RoleDialog target={editing} onClose={() => setEditing(null)} onDone={list.reload} />
    </ListPage>
  );
}
