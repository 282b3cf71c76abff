/**
 * /order/workOrder (spec §2; docs/workorders.md): the work orders the caller sees, a customer its
 * own and a provider (the platform, a proxy) its customers', with their states and filters. A row
 * opens its drawer, where each side takes its steps. Opened with `?raise=<kind>:<id>&name=` (from an
 * exception or a device page) it raises one on that subject; with `?id=` it opens that order.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Rate, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { WORK_ORDER_CATEGORIES, WORK_ORDER_STATUSES, WORK_ORDER_SUBJECTS, workOrderApi, type WorkOrderRow, type WorkOrderSubject } from '@coldwatch/contract';
import { seesManyCustomers, useAuth } from '../../app/auth';
import { AddButton, PageCard, PagedTable, SearchBar, linkActionsColumn, tableColumns, type ListColumn, type PagedTableRef, type SearchField } from '../../ui';
import { formatInZone } from '../../lib/format';
import { STATUS_COLOR } from './labels';
import { RaiseDialog, type RaisePrefill } from './RaiseDialog';
import { WorkOrderDrawer } from './WorkOrderDrawer';

/** `sensor:12` of the entry points' links, with the subject's name. */
function prefillOf(params: URLSearchParams): RaisePrefill | null {
  const m = /^(\w+):(\d+)$/.exec(params.get('raise') ?? '');
  if (!m || !(WORK_ORDER_SUBJECTS as readonly string[]).includes(m[1])) return null;
  return { kind: m[1] as WorkOrderSubject, id: Number(m[2]), name: params.get('name') ?? m[2] };
}

export default function WorkOrderPage() {
  const { t } = useTranslation('workOrder');
  const { can, user } = useAuth();
  const [params, setParams] = useSearchParams();
  const table = useRef<PagedTableRef>(null);
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const [open, setOpen] = useState<number | null>(params.get('id') ? Number(params.get('id')) : null);
  const prefill = useMemo(() => prefillOf(params), [params]);
  const [raising, setRaising] = useState(false);
  useEffect(() => {
    if (prefill && can('newWorkOrder')) setRaising(true);
  }, [prefill, can]);
  const closeRaise = () => {
    setRaising(false);
    if (prefill) setParams({}, { replace: true });
  };
  const reload = () => table.current?.reload();
  const at = (ms: number) => formatInZone(ms, user?.timeZone, 'YYYY-MM-DD HH:mm');

  const columns: ListColumn<WorkOrderRow>[] = [
    { title: t('col.id'), dataIndex: 'id', width: 70, render: (v: number) => `#${v}` },
    { title: t('col.customer'), dataIndex: 'customerName', width: 150, hidden: !seesManyCustomers(user?.userType) },
    {
      title: t('col.subject'),
      key: 'subject',
      width: 220,
      render: (_, r) => (
        <div>
          <div>{r.subjectName}</div>
          <div style={{ color: '#8c8c8c', fontSize: 12 }}>
            {t(`subject.${r.subjectKind}`)}
            {r.carrierName ? ` · ${r.carrierName}` : ''}
          </div>
        </div>
      ),
    },
    { title: t('col.category'), dataIndex: 'category', width: 100, render: (v: string) => <Tag>{t(`category.${v}`)}</Tag> },
    { title: t('col.description'), dataIndex: 'description', render: (v: string) => <Typography.Text ellipsis={{ tooltip: v }} style={{ maxWidth: 320 }}>{v}</Typography.Text> },
    {
      title: t('col.status'),
      dataIndex: 'status',
      width: 130,
      render: (v: number) => (
        <Tag color={STATUS_COLOR[v]} variant="filled">
          {t(`status.${v}`)}
        </Tag>
      ),
    },
    { title: t('col.raisedBy'), dataIndex: 'raisedBy', width: 110 },
    { title: t('col.createdAt'), dataIndex: 'createdAt', width: 150, render: (v: number) => at(v) },
    { title: t('col.rating'), dataIndex: 'rating', width: 130, render: (v: number | null) => (v === null ? '--' : <Rate disabled value={v} style={{ fontSize: 12 }} />) },
    linkActionsColumn<WorkOrderRow>({ title: t('col.actions'), width: 90, items: [{ key: 'open', perm: 'viewWorkOrder', label: t('action.open'), onClick: (r) => setOpen(r.id) }] }, can),
  ];
  const fields: SearchField[] = [
    { name: 'status', type: 'select', label: t('col.status'), width: 190, options: WORK_ORDER_STATUSES.map((s) => ({ value: String(s), label: t(`status.${s}`) })) },
    { name: 'category', type: 'select', label: t('col.category'), width: 130, options: WORK_ORDER_CATEGORIES.map((c) => ({ value: c, label: t(`category.${c}`) })) },
    { name: 'keyword', type: 'input', label: t('search.keyword'), width: 180 },
    { name: 'range', type: 'dateRange', label: t('col.createdAt') },
  ];
  return (
    <PageCard title={t('title')} extra={
        // Orders are raised by customers; the platform and proxies provide (the server refuses them a raise).
        !seesManyCustomers(user?.userType) && (
          <AddButton perm="newWorkOrder" onClick={() => setRaising(true)}>
            {t('raise.title')}
          </AddButton>
        )
      }>
      <SearchBar
        fields={fields}
        onSearch={(v) => {
          const range = v.range as [number, number] | undefined;
          setFilters({ status: v.status, category: v.category, keyword: v.keyword, startTime: range?.[0], endTime: range?.[1] });
        }}
      />
      <PagedTable
        ref={table}
        route={workOrderApi.page}
        params={filters}
        size="small"
        rowKey="id"
        columns={tableColumns(columns)}
        locale={{ emptyText: t('empty') }}
        scroll={{ x: 1300 }}
        onRow={(r) => ({ onDoubleClick: () => setOpen(r.id) })}
      />
      <RaiseDialog
        open={raising}
        prefill={prefill}
        onClose={closeRaise}
        onDone={(id) => {
          closeRaise();
          reload();
          setOpen(id);
        }}
      />
      <WorkOrderDrawer id={open} onClose={() => setOpen(null)} onChanged={reload} />
    </PageCard>
  );
}
