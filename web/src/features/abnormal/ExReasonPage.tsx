/**
 * /abnormal/abnormalcause: the exception reasons (spec §2, menu module exReason; table
 * ex_catalog): each customer's list that a handling picks from, seeded with a default list in
 * both languages. Read with viewEx, changed with newEx / editEx / removeEx (the menu entry's
 * object is Ex). A reason that exceptions name cannot be deleted: it is switched off instead.
 */
import { useMemo, useRef, useState } from 'react';
import { Button, Popconfirm, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { exReasonApi, type ExReasonRow } from '@coldwatch/contract';
import { idList } from '../../api/call';
import { useAction } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { PageCard, PagedTable, SearchBar, type PagedTableRef, type SearchField } from '../../ui';
import { useCustomerOptions } from '../account/shared';
import { ExReasonDialog } from './ExReasonDialog';
import { reasonName } from './reasonName';

export default function ExReasonPage() {
  const { t, i18n } = useTranslation('exreason');
  const { can } = useAuth();
  const table = useRef<PagedTableRef>(null);
  const [filters, setFilters] = useState<{ name?: string; enabled?: 'true' | 'false'; customerId?: number }>({});
  const [editing, setEditing] = useState<ExReasonRow | 'new' | null>(null);
  const params = useMemo(() => ({ ...filters }), [filters]);
  // Platform users keep every customer's list: they see whose it is and choose it for a new reason.
  const customers = useCustomerOptions();
  const platform = can('viewCustomer');
  const reload = () => table.current?.reload();
  const del = useAction(exReasonApi.del, { success: t('msg.deleted'), onDone: reload, invalidates: [exReasonApi.options] });
  const toggle = useAction(exReasonApi.update, { success: false, onDone: reload, invalidates: [exReasonApi.options] });
  const setEnabled = (r: ExReasonRow, enabled: boolean) =>
    toggle.run({ body: { id: r.id, code: r.code, nameZh: r.nameZh, nameEn: r.nameEn, sort: r.sort, enabled } });

  const columns: ColumnsType<ExReasonRow> = [
    ...(platform ? [{ title: t('col.customer'), dataIndex: 'customerName', width: 150, ellipsis: true }] : []),
    {
      title: t('col.name'),
      key: 'name',
      width: 220,
      render: (_, r) => (
        <Space size={6}>
          <span>{reasonName(r, i18n.language)}</span>
          {r.builtin && <Tag color="blue">{t('builtin')}</Tag>}
        </Space>
      ),
    },
    { title: t('col.code'), dataIndex: 'code', width: 140, render: (v: string) => <code>{v}</code> },
    { title: t('col.nameZh'), dataIndex: 'nameZh', width: 150, render: (v: string) => v || '--' },
    { title: t('col.nameEn'), dataIndex: 'nameEn', width: 190, render: (v: string) => v || '--' },
    { title: t('col.sort'), dataIndex: 'sort', width: 80, align: 'right' },
    {
      title: t('col.enabled'),
      dataIndex: 'enabled',
      width: 100,
      render: (v: boolean, r) => (can('editEx') ? <Switch size="small" checked={v} loading={toggle.busy} onChange={(on) => void setEnabled(r, on)} aria-label={t('col.enabled')} /> : v ? t('yes') : t('no')),
    },
    {
      title: t('col.inUse'),
      dataIndex: 'inUse',
      width: 100,
      align: 'right',
      render: (n: number) => (n ? n : <Typography.Text type="secondary">0</Typography.Text>),
    },
    {
      title: t('col.actions'),
      key: 'actions',
      width: 150,
      fixed: 'right',
      render: (_, r) => (
        <Space size={0}>
          {can('editEx') && (
            <Button type="link" size="small" onClick={() => setEditing(r)}>
              {t('action.edit')}
            </Button>
          )}
          {can('removeEx') &&
            (r.inUse > 0 ? (
              <Tooltip title={t('inUse', { count: r.inUse })}>
                <Button type="link" size="small" danger disabled>
                  {t('action.delete')}
                </Button>
              </Tooltip>
            ) : (
              <Popconfirm
                title={t('confirm.delete', { name: reasonName(r, i18n.language) })}
                okText={t('form.ok')}
                cancelText={t('form.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => del.run({ query: { ids: idList([r.id]) } })}
              >
                <Button type="link" size="small" danger>
                  {t('action.delete')}
                </Button>
              </Popconfirm>
            ))}
        </Space>
      ),
    },
  ];
  const fields: SearchField[] = [
    { name: 'name', type: 'input', label: t('filter.name'), width: 180 },
    { name: 'enabled', type: 'select', label: t('filter.enabled'), width: 120, options: [{ value: 'true', label: t('yes') }, { value: 'false', label: t('no') }] },
    ...(platform ? [{ name: 'customerId', type: 'select' as const, label: t('col.customer'), width: 180, options: customers.data ?? [] }] : []),
  ];
  return (
    <PageCard title={t('title')}>
      <Typography.Paragraph type="secondary" style={{ marginTop: -4 }}>
        {t('intro')}
      </Typography.Paragraph>
      <div style={{ display: 'flex', alignItems: 'flex-start', gap: 16, flexWrap: 'wrap' }}>
        <div style={{ flex: 1, minWidth: 240 }}>
          <SearchBar
            fields={fields}
            onSearch={(v) => setFilters({ name: v.name as string | undefined, enabled: v.enabled as 'true' | 'false' | undefined, customerId: v.customerId as number | undefined })}
          />
        </div>
        {can('newEx') && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {t('action.add')}
          </Button>
        )}
      </div>
      <PagedTable ref={table} route={exReasonApi.page} params={params} size="small" rowKey="id" columns={columns} locale={{ emptyText: t('empty') }} scroll={{ x: platform ? 1200 : 1050 }} />
      <ExReasonDialog target={editing} customers={platform ? (customers.data ?? []) : undefined} onClose={() => setEditing(null)} onDone={reload} />
    </PageCard>
  );
}
