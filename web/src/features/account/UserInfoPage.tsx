/**
 * /user/userinfo: users (spec §3 User, §5, §8 User answers): search by account, name, mobile
 * and status (platform users also by customer); add/edit with roles of the target customer
 * and its associated architecture; reset password (the temporary one shown once);
 * enable/disable; delete after a confirmation.
 */
import { useState } from 'react';
import { Badge, Space, Tag, Tooltip } from 'antd';
import { ManOutlined, StarFilled, WomanOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { userApi } from '@coldwatch/contract';
import { idList } from '../../api/call';
import { useAction } from '../../api/hooks';
import { AddButton, linkActionsColumn, ListPage, useConfirm, useListRef, type ListColumn } from '../../ui';
import { formatInZone } from '../../lib/format';
import { roleName, userName } from '../../lib/seeded';
import { PasswordDialog } from './PasswordDialog';
import { UserDialog } from './UserDialog';
import { LEVEL_COLOR } from './roleTypes';
import { useCustomerOptions } from './shared';
import type { UserRow } from './userTypes';

export default function UserInfoPage() {
  const { t } = useTranslation('account');
  const { can, user, userType } = useAuth();
  const confirm = useConfirm(t('user.confirm.cancel'));
  const list = useListRef();
  const [editing, setEditing] = useState<UserRow | 'new' | null>(null);
  const [password, setPassword] = useState<{ account: string; password: string; created?: boolean } | null>(null);
  const platform = userType === 2 || userType === 3;
  const customers = useCustomerOptions(platform);

  const enable = useAction(userApi.status, { success: t('user.msg.enabled'), onDone: list.reload });
  const disable = useAction(userApi.status, { success: t('user.msg.disabled'), onDone: list.reload });
  const setStatus = (r: UserRow, status: 0 | 1) => (status ? enable : disable).run({ query: { ids: idList([r.id]), status: status ? '1' : '0' } });
  // The temporary password is shown in its own dialog, not as a toast.
  const resetPassword = useAction(userApi.resetPassword, { success: false, onDone: (res) => setPassword({ account: res.account, password: res.password }) });
  const reset = (r: UserRow) => resetPassword.run({ query: { id: r.id } });
  const del = useAction(userApi.del, { success: t('user.msg.deleted'), onDone: list.reload });

  const remove = (r: UserRow) => confirm(t('user.confirm.deleteTitle', { name: r.name || r.account }), t('user.confirm.deleteText'), t('user.confirm.deleteOk'), () => del.run({ query: { ids: idList([r.id]) } }));
  // A user does not reset, switch off or delete its own account here.
  const notSelf = (r: UserRow) => r.id !== user?.id;
  const asks = { okText: t('user.confirm.ok'), cancelText: t('user.confirm.cancel') };

  const columns: ListColumn<UserRow>[] = [
    {
      title: t('user.col.account'),
      dataIndex: 'account',
      width: 150,
      search: { type: 'input', label: t('user.filter.account'), width: 130 },
      render: (v: string, r) => (
        <Space size={4}>
          <span style={{ fontFamily: 'ui-monospace, monospace' }}>{v}</span>
          {r.defaultAccount && (
            <Tooltip title={t('user.col.defaultAccount')}>
              <StarFilled style={{ color: '#faad14' }} />
            </Tooltip>
          )}
        </Space>
      ),
    },
    {
      title: t('user.col.name'),
      dataIndex: 'name',
      width: 130,
      ellipsis: true,
      search: { type: 'input', label: t('user.filter.name'), width: 120 },
      render: (v: string, r) => (
        <Space size={4}>
          {r.gender === 0 ? <WomanOutlined style={{ color: '#eb2f96' }} /> : <ManOutlined style={{ color: '#1677ff' }} />}
          <span>{v ? userName(t, r) : '--'}</span>
        </Space>
      ),
    },
    {
      title: t('user.col.customer'),
      dataIndex: 'customerName',
      width: 160,
      ellipsis: true,
      hidden: !platform,
      search: { type: 'select', name: 'customerId', label: t('user.filter.customer'), width: 170, options: customers.data ?? [], order: 1 },
    },
    {
      title: t('user.col.roles'),
      dataIndex: 'roles',
      width: 200,
      render: (roles: UserRow['roles']) =>
        roles.length ? (
          <Space size={[4, 4]} wrap>
            {roles.map((r) => (
              <Tooltip key={r.id} title={t(`role.level.${r.level}`, { defaultValue: '' })}>
                <Tag color={r.type === 'admin' ? 'volcano' : LEVEL_COLOR[r.level]} style={{ marginInlineEnd: 0 }}>
                  {roleName(t, r.name)}
                </Tag>
              </Tooltip>
            ))}
          </Space>
        ) : (
          '--'
        ),
    },
    { title: t('user.col.mobile'), dataIndex: 'mobile', width: 130, render: (v: string) => v || '--', search: { type: 'input', label: t('user.filter.mobile'), width: 130 } },
    { title: t('user.col.email'), dataIndex: 'email', width: 170, ellipsis: true, render: (v: string) => v || '--' },
    {
      title: t('user.col.status'),
      dataIndex: 'status',
      width: 90,
      render: (s: number) => <Badge status={s === 1 ? 'success' : 'default'} text={t(`user.status.${s}`)} />,
      search: { type: 'select', label: t('user.filter.status'), width: 100, options: [1, 0].map((s) => ({ value: s, label: t(`user.status.${s}`) })) },
    },
    { title: t('user.col.createdAt'), dataIndex: 'createdAt', width: 150, render: (v: number | null) => (v ? formatInZone(v, user?.timeZone ?? null, 'YYYY-MM-DD HH:mm') : '--') },
    linkActionsColumn<UserRow>(
      {
        title: t('user.col.actions'),
        width: 240,
        items: [
          { key: 'edit', perm: 'editUser', label: t('user.action.edit'), onClick: setEditing },
          {
            key: 'reset',
            perm: 'editUser',
            when: notSelf,
            label: t('user.action.resetPassword'),
            confirm: (r) => ({ ...asks, title: t('user.confirm.resetTitle', { name: r.name || r.account }), description: <div style={{ maxWidth: 280 }}>{t('user.confirm.resetText')}</div> }),
            onClick: reset,
          },
          {
            key: 'status',
            perm: 'editUser',
            when: notSelf,
            label: (r) => (r.status === 1 ? t('user.action.disable') : t('user.action.enable')),
            danger: (r) => r.status === 1,
            confirm: (r) => ({
              ...asks,
              title: t(r.status === 1 ? 'user.confirm.disableTitle' : 'user.confirm.enableTitle', { name: r.name || r.account }),
              description: r.status === 1 ? <div style={{ maxWidth: 280 }}>{t('user.confirm.disableText')}</div> : undefined,
            }),
            onClick: (r) => setStatus(r, r.status === 1 ? 0 : 1),
          },
          { key: 'delete', perm: 'removeUser', when: (r) => notSelf(r) && !r.defaultAccount, label: t('user.action.delete'), danger: true, onClick: remove },
        ],
      },
      can,
    ),
  ];

  return (
    <ListPage
      ref={list.ref}
      route={userApi.page}
      columns={columns}
      toolbar={
        <AddButton perm="newUser" onClick={() => setEditing('new')}>
          {t('user.action.add')}
        </AddButton>
      }
      empty={t('user.empty')}
      scrollX={1400}
    >
      <UserDialog
        target={editing}
        onClose={() => setEditing(null)}
        onDone={(created) => {
          list.reload();
          if (created) setPassword({ ...created, created: true });
        }}
      />
      <PasswordDialog shown={password} onClose={() => setPassword(null)} />
    </ListPage>
  );
}
