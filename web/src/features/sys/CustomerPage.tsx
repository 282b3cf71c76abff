/**
 * /sys/customer: the customers of the platform (spec §3 Customer, §4 states, §5 rules, §8
 * customer-create answers): search by name, code, status and organisation type; add/edit;
 * cancel and activate; delete after a confirmation of what it removes.
 */
import { useMemo, useRef, useState } from 'react';
import { App, Badge, Button, Popconfirm, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { customerApi, type OrgType } from '@coldwatch/contract';
import { idList } from '../../api/call';
import { useAction } from '../../api/hooks';
import { PageCard, PagedTable, SearchBar, type FiltersOf, type PagedTableRef, type SearchField } from '../../ui';
import { formatInZone } from '../../lib/format';
import { CustomerDialog } from './CustomerDialog';
import { CUSTOMER_STATUS, ORG_TYPES, type CustomerRow } from './customerTypes';

export default function CustomerPage() {
  const { t } = useTranslation('customer');
  const { can, user } = useAuth();
  const { modal } = App.useApp();
  const table = useRef<PagedTableRef>(null);
  const [filters, setFilters] = useState<FiltersOf<typeof customerApi.page>>({});
  const [editing, setEditing] = useState<CustomerRow | 'new' | null>(null);
  const params = useMemo(() => ({ ...filters }), [filters]);

  const canEdit = can('editCustomer');
  const canRemove = can('removeCustomer');

  const reload = () => table.current?.reload();
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

  const columns: ColumnsType<CustomerRow> = [
    {
      title: t('col.name'),
      dataIndex: 'name',
      width: 200,
      ellipsis: true,
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
    { title: t('col.code'), dataIndex: 'code', width: 110, render: (v: string) => <span style={{ fontFamily: 'ui-monospace, monospace' }}>{v}</span> },
    {
      title: t('col.type'),
      dataIndex: 'type',
      width: 90,
      render: (v: string) => <Tag color={v === 'platform' ? 'purple' : 'blue'}>{t(`type.${v}`, { defaultValue: v })}</Tag>,
    },
    { title: t('col.orgType'), dataIndex: 'orgType', width: 150, ellipsis: true, render: (v: string) => t(`orgType.${v}`, { defaultValue: v }) },
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
    },
    { title: t('col.createdAt'), dataIndex: 'createdAt', width: 150, render: (v: number | null) => (v ? formatInZone(v, user?.timeZone ?? null, 'YYYY-MM-DD HH:mm') : '--') },
    {
      title: t('col.actions'),
      key: 'actions',
      width: 230,
      fixed: 'right',
      render: (_, r) => {
        const self = r.id === user?.customerId;
        return (
          <Space size={0}>
            {canEdit && (
              <Button type="link" size="small" onClick={() => setEditing(r)}>
                {t('action.edit')}
              </Button>
            )}
            {canEdit && !self && r.status === CUSTOMER_STATUS.active && (
              <Popconfirm
                title={t('confirm.cancelTitle', { name: r.name })}
                description={<div style={{ maxWidth: 300 }}>{t('confirm.cancelText')}</div>}
                okText={t('confirm.ok')}
                cancelText={t('confirm.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => setStatus(r, 'cancel')}
              >
                <Button type="link" size="small" danger>
                  {t('action.cancel')}
                </Button>
              </Popconfirm>
            )}
            {canEdit && r.status !== CUSTOMER_STATUS.active && (
              <Popconfirm
                title={t('confirm.activateTitle', { name: r.name })}
                description={<div style={{ maxWidth: 300 }}>{t('confirm.activateText')}</div>}
                okText={t('confirm.ok')}
                cancelText={t('confirm.cancel')}
                onConfirm={() => setStatus(r, 'activate')}
              >
                <Button type="link" size="small">
                  {t('action.activate')}
                </Button>
              </Popconfirm>
            )}
            {canRemove && !self && (
              <Button type="link" size="small" danger onClick={() => remove(r)}>
                {t('action.delete')}
              </Button>
            )}
          </Space>
        );
      },
    },
  ];

  const fields: SearchField[] = [
    { name: 'name', type: 'input', label: t('filter.name'), width: 140 },
    { name: 'code', type: 'input', label: t('filter.code'), width: 120 },
    { name: 'status', type: 'select', label: t('filter.status'), width: 100, options: [1, 0].map((s) => ({ value: s, label: t(`status.${s}`) })) },
    { name: 'orgType', type: 'select', label: t('filter.orgType'), width: 150, options: ORG_TYPES.map((o) => ({ value: o, label: t(`orgType.${o}`) })) },
  ];

  return (
    <PageCard>
      {/* The add button beside the filters, not inside their wrapping row: with longer (English) labels it stays on the first line. */}
      <div style={{ display: 'flex', alignItems: 'flex-start', gap: 16 }}>
        <div style={{ flex: 1, minWidth: 0 }}>
          <SearchBar
            fields={fields}
            onSearch={(v) => setFilters({ name: v.name as string, code: v.code as string, status: v.status as number, orgType: v.orgType as OrgType | undefined })}
          />
        </div>
        {can('newCustomer') && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} style={{ flex: 'none' }}>
            {t('action.add')}
          </Button>
        )}
      </div>
      <PagedTable
        ref={table}
        route={customerApi.page}
        params={params}
        size="small"
        rowKey="id"
        columns={columns}
        locale={{ emptyText: t('empty') }}
        scroll={{ x: 1680 }}
      />
      <CustomerDialog target={editing} onClose={() => setEditing(null)} onDone={() => table.current?.reload()} />
    </PageCard>
  );
}
