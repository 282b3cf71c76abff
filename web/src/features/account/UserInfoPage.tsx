/**
 * /user/userinfo: users (spec §3 User, §5, §8 User answers): search by account, name, mobile
 * and status (platform users also by customer); add/edit with roles of the target customer
 * and its associated architecture; reset password (the temporary one shown once);
 * enable/disable; delete after a confirmation.
 */
import { useMemo, useRef, useState } from 'react';
import { App, Badge, Button, Popconfirm, Space, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { ManOutlined, PlusOutlined, StarFilled, WomanOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { userApi } from '@coldwatch/contract';
import { idList } from '../../api/call';
import { useAction } from '../../api/hooks';
import { PageCard, PagedTable, SearchBar, type FiltersOf, type PagedTableRef, type SearchField } from '../../ui';
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
  const { modal } = App.useApp();
  const table = useRef<PagedTableRef>(null);
  const [filters, setFilters] = useState<FiltersOf<typeof userApi.page>>({});
  const [editing, setEditing] = useState<UserRow | 'new' | null>(null);
  const [password, setPassword] = useState<{ account: string; password: string; created?: boolean } | null>(null);
  const params = useMemo(() => ({ ...filters }), [filters]);
  const platform = userType === 2 || userType === 3;
  const customers = useCustomerOptions(platform);
  const canEdit = can('editUser');

  const reload = () => table.current?.reload();
  const enable = useAction(userApi.status, { success: t('user.msg.enabled'), onDone: reload });
  const disable = useAction(userApi.status, { success: t('user.msg.disabled'), onDone: reload });
  const setStatus = (r: UserRow, status: 0 | 1) => (status ? enable : disable).run({ query: { ids: idList([r.id]), status: status ? '1' : '0' } });
  // The temporary password is shown in its own dialog, not as a toast.
  const resetPassword = useAction(userApi.resetPassword, { success: false, onDone: (res) => setPassword({ account: res.account, password: res.password }) });
  const reset = (r: UserRow) => resetPassword.run({ query: { id: r.id } });
  const del = useAction(userApi.del, { success: t('user.msg.deleted'), onDone: reload });

  const remove = (r: UserRow) =>
    modal.confirm({
      title: t('user.confirm.deleteTitle', { name: r.name || r.account }),
      content: t('user.confirm.deleteText'),
      okText: t('user.confirm.deleteOk'),
      okButtonProps: { danger: true },
      cancelText: t('user.confirm.cancel'),
      onOk: () => del.run({ query: { ids: idList([r.id]) } }),
    });

  const columns: ColumnsType<UserRow> = [
    {
      title: t('user.col.account'),
      dataIndex: 'account',
      width: 150,
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
      render: (v: string, r) => (
        <Space size={4}>
          {r.gender === 0 ? <WomanOutlined style={{ color: '#eb2f96' }} /> : <ManOutlined style={{ color: '#1677ff' }} />}
          <span>{v ? userName(t, r) : '--'}</span>
        </Space>
      ),
    },
    ...(platform ? [{ title: t('user.col.customer'), dataIndex: 'customerName', width: 160, ellipsis: true } as const] : []),
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
    { title: t('user.col.mobile'), dataIndex: 'mobile', width: 130, render: (v: string) => v || '--' },
    { title: t('user.col.email'), dataIndex: 'email', width: 170, ellipsis: true, render: (v: string) => v || '--' },
    { title: t('user.col.status'), dataIndex: 'status', width: 90, render: (s: number) => <Badge status={s === 1 ? 'success' : 'default'} text={t(`user.status.${s}`)} /> },
    { title: t('user.col.createdAt'), dataIndex: 'createdAt', width: 150, render: (v: number | null) => (v ? formatInZone(v, user?.timeZone ?? null, 'YYYY-MM-DD HH:mm') : '--') },
    {
      title: t('user.col.actions'),
      key: 'actions',
      width: 240,
      fixed: 'right',
      render: (_, r) => {
        const self = r.id === user?.id;
        return (
          <Space size={0}>
            {canEdit && (
              <Button type="link" size="small" onClick={() => setEditing(r)}>
                {t('user.action.edit')}
              </Button>
            )}
            {canEdit && !self && (
              <Popconfirm
                title={t('user.confirm.resetTitle', { name: r.name || r.account })}
                description={<div style={{ maxWidth: 280 }}>{t('user.confirm.resetText')}</div>}
                okText={t('user.confirm.ok')}
                cancelText={t('user.confirm.cancel')}
                onConfirm={() => reset(r)}
              >
                <Button type="link" size="small">
                  {t('user.action.resetPassword')}
                </Button>
              </Popconfirm>
            )}
            {canEdit && !self && (
              <Popconfirm
                title={t(r.status === 1 ? 'user.confirm.disableTitle' : 'user.confirm.enableTitle', { name: r.name || r.account })}
                description={r.status === 1 ? <div style={{ maxWidth: 280 }}>{t('user.confirm.disableText')}</div> : undefined}
                okText={t('user.confirm.ok')}
                cancelText={t('user.confirm.cancel')}
                onConfirm={() => setStatus(r, r.status === 1 ? 0 : 1)}
              >
                <Button type="link" size="small" danger={r.status === 1}>
                  {r.status === 1 ? t('user.action.disable') : t('user.action.enable')}
                </Button>
              </Popconfirm>
            )}
            {can('removeUser') && !self && !r.defaultAccount && (
              <Button type="link" size="small" danger onClick={() => remove(r)}>
                {t('user.action.delete')}
              </Button>
            )}
          </Space>
        );
      },
    },
  ];

  const fields: SearchField[] = [
    { name: 'account', type: 'input', label: t('user.filter.account'), width: 130 },
    { name: 'name', type: 'input', label: t('user.filter.name'), width: 120 },
    { name: 'mobile', type: 'input', label: t('user.filter.mobile'), width: 130 },
    { name: 'status', type: 'select', label: t('user.filter.status'), width: 100, options: [1, 0].map((s) => ({ value: s, label: t(`user.status.${s}`) })) },
    ...(platform ? [{ name: 'customerId', type: 'select', label: t('user.filter.customer'), width: 170, options: customers.data ?? [] } as SearchField] : []),
  ];

  return (
    <PageCard>
      <SearchBar
        fields={fields}
        onSearch={(v) => setFilters({ account: v.account as string, name: v.name as string, mobile: v.mobile as string, status: v.status as number, customerId: v.customerId as number })}
        extra={
          can('newUser') && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
              {t('user.action.add')}
            </Button>
          )
        }
      />
      <PagedTable
        ref={table}
        route={userApi.page}
        params={params}
        size="small"
        rowKey="id"
        columns={columns}
        locale={{ emptyText: t('user.empty') }}
        scroll={{ x: 1400 }}
      />
      <UserDialog
        target={editing}
        onClose={() => setEditing(null)}
        onDone={(created) => {
          table.current?.reload();
          if (created) setPassword({ ...created, created: true });
        }}
      />
      <PasswordDialog shown={password} onClose={() => setPassword(null)} />
    </PageCard>
  );
}
