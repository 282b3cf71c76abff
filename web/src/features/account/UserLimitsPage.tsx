/**
 * /user/userLimits: roles (spec §3 Role, §5, §6): list with search, the role editor with its
 * permission tree; default roles are marked and cannot be deleted; deleting a role deletes
 * the users it leaves without any role, after a confirmation (del with confirm=true).
 */
import { useMemo, useRef, useState } from 'react';
import { App, Badge, Button, Space, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined, StarFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { roleApi, type RoleType } from '@coldwatch/contract';
import { idList } from '../../api/call';
import { useAction } from '../../api/hooks';
import { PageCard, PagedTable, SearchBar, type FiltersOf, type PagedTableRef, type SearchField } from '../../ui';
import { formatInZone } from '../../lib/format';
import { roleName } from '../../lib/seeded';
import { RoleDialog } from './RoleDialog';
import { LEVEL_COLOR, type RoleRow } from './roleTypes';
import { useCustomerOptions } from './shared';

export default function UserLimitsPage() {
  const { t } = useTranslation('account');
  const { can, user, userType } = useAuth();
  const { message, modal } = App.useApp();
  const table = useRef<PagedTableRef>(null);
  const [filters, setFilters] = useState<FiltersOf<typeof roleApi.page>>({});
  const del = useAction(roleApi.del, {
    success: false,
    onDone: (res) => {
      void message.success(res.users ? t('role.msg.deletedUsers', { count: res.users }) : t('role.msg.deleted'));
      table.current?.reload();
    },
  });
  const [editing, setEditing] = useState<RoleRow | 'new' | null>(null);
  const params = useMemo(() => ({ ...filters }), [filters]);
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

  const columns: ColumnsType<RoleRow> = [
    {
      title: t('role.col.name'),
      dataIndex: 'name',
      width: 240,
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
    ...(platform ? [{ title: t('role.col.customer'), dataIndex: 'customerName', width: 160, ellipsis: true } as const] : []),
    { title: t('role.col.type'), dataIndex: 'type', width: 100, render: (v: string) => <Tag color={v === 'admin' ? 'volcano' : undefined}>{t(`role.type.${v}`, { defaultValue: v })}</Tag> },
    { title: t('role.col.level'), dataIndex: 'level', width: 160, render: (v: number) => <Tag color={LEVEL_COLOR[v]}>{t(`role.level.${v}`, { defaultValue: String(v) })}</Tag> },
    { title: t('role.col.status'), dataIndex: 'status', width: 90, render: (s: number) => <Badge status={s === 1 ? 'success' : 'default'} text={t(`role.status.${s}`)} /> },
    { title: t('role.col.delegable'), dataIndex: 'delegable', width: 90, render: (v: boolean) => (v ? <Tag color="green">{t('role.delegableYes')}</Tag> : '--') },
    { title: t('role.col.users'), dataIndex: 'userCount', width: 80, align: 'right' },
    { title: t('role.col.description'), dataIndex: 'description', width: 180, ellipsis: true, render: (v: string) => v || '--' },
    { title: t('role.col.createdAt'), dataIndex: 'createdAt', width: 150, render: (v: number | null) => (v ? formatInZone(v, user?.timeZone ?? null, 'YYYY-MM-DD HH:mm') : '--') },
    {
      title: t('role.col.actions'),
      key: 'actions',
      width: 120,
      fixed: 'right',
      render: (_, r) => (
        <Space size={0}>
          {can('editRole') && (
            <Button type="link" size="small" onClick={() => setEditing(r)}>
              {t('role.action.edit')}
            </Button>
          )}
          {can('removeRole') && (
            <Tooltip title={r.isDefault ? t('role.defaultHint') : undefined}>
              <Button type="link" size="small" danger disabled={r.isDefault} onClick={() => remove(r)}>
                {t('role.action.delete')}
              </Button>
            </Tooltip>
          )}
        </Space>
      ),
    },
  ];

  const fields: SearchField[] = [
    { name: 'name', type: 'input', label: t('role.filter.name'), width: 150 },
    { name: 'status', type: 'select', label: t('role.filter.status'), width: 110, options: [1, 0].map((s) => ({ value: s, label: t(`role.status.${s}`) })) },
    { name: 'type', type: 'select', label: t('role.filter.type'), width: 120, options: ['admin', 'normal'].map((s) => ({ value: s, label: t(`role.type.${s}`) })) },
    ...(platform ? [{ name: 'customerId', type: 'select', label: t('role.filter.customer'), width: 180, options: customers.data ?? [] } as SearchField] : []),
  ];

  return (
    <PageCard>
      <SearchBar
        fields={fields}
        onSearch={(v) => setFilters({ name: v.name as string, status: v.status as number, type: v.type as RoleType | undefined, customerId: v.customerId as number })}
        extra={
          can('newRole') && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
              {t('role.action.add')}
            </Button>
          )
        }
      />
      <PagedTable
        ref={table}
        route={roleApi.page}
        params={params}
        size="small"
        rowKey="id"
        columns={columns}
        locale={{ emptyText: t('role.empty') }}
        scroll={{ x: 1450 }}
      />
      <RoleDialog target={editing} onClose={() => setEditing(null)} onDone={() => table.current?.reload()} />
    </PageCard>
  );
}
