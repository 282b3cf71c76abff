/**
 * /arch/task: the monitor tasks (spec §3 Monitor task; docs/devices.md "Monitor tasks"): for each
 * device family of each customer in scope, the silence after which a device counts as offline
 * and whether the task runs. A family the customer has not set shows the platform default it
 * inherits; "Restore default" gives an own setting back to it.
 */
import { useMemo, useRef, useState } from 'react';
import { Alert, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { MONITOR_FAMILIES, monitorTaskApi, type MonitorFamily, type MonitorTaskRow } from '@coldwatch/contract';
import { idList } from '../../api/call';
import { useAction } from '../../api/hooks';
import { seesManyCustomers, useAuth } from '../../app/auth';
import { PageCard, PagedTable, SearchBar, linkActionsColumn, tableColumns, type ListColumn, type PagedTableRef, type SearchField } from '../../ui';
import { formatInZone } from '../../lib/format';
import { intervalText } from './taskLabels';
import { TaskDialog } from './TaskDialog';

const rowKey = (r: MonitorTaskRow) => `${r.customerId}:${r.family}`;

export default function MonitorTaskPage() {
  const { t } = useTranslation('monitorTask');
  const { can, user } = useAuth();
  const table = useRef<PagedTableRef>(null);
  const [filters, setFilters] = useState<{ family?: MonitorFamily; status?: string }>({});
  const [editing, setEditing] = useState<MonitorTaskRow | null>(null);
  const params = useMemo(() => ({ ...filters }), [filters]);
  const reload = () => table.current?.reload();
  const start = useAction(monitorTaskApi.update, { success: t('msg.started'), onDone: reload });
  const stop = useAction(monitorTaskApi.update, { success: t('msg.stopped'), onDone: reload });
  const reset = useAction(monitorTaskApi.del, { success: t('msg.reset'), onDone: reload });
  const task = (r: MonitorTaskRow) => t(`family.${r.family}`);
  /** Starting or stopping keeps the task's interval (an inherited default becomes the customer's own row). */
  const setStatus = (r: MonitorTaskRow, status: 0 | 1) =>
    (status ? start : stop).run({ body: { customerId: r.customerId, family: r.family, intervalValue: r.intervalValue, intervalUnit: r.intervalUnit, status } });

  const columns: ListColumn<MonitorTaskRow>[] = [
    { title: t('col.customer'), dataIndex: 'customerName', width: 160, hidden: !seesManyCustomers(user?.userType) },
    {
      title: t('col.task'),
      key: 'task',
      width: 270,
      render: (_, r) => (
        <div data-family={r.family}>
          <div>{task(r)}</div>
          <div style={{ color: '#8c8c8c', fontSize: 12 }}>{t(`covers.${r.family}`)}</div>
        </div>
      ),
    },
    { title: t('col.interval'), key: 'interval', width: 110, render: (_, r) => intervalText(t, r.intervalValue, r.intervalUnit) },
    {
      title: t('col.status'),
      dataIndex: 'status',
      width: 90,
      render: (v: number) => (
        <Tag color={v === 1 ? 'success' : 'default'} variant="filled">
          {t(`status.${v}`)}
        </Tag>
      ),
    },
    { title: t('col.source'), dataIndex: 'inherited', width: 130, render: (v: boolean) => (v ? <Tag>{t('source.default')}</Tag> : <Tag color="blue">{t('source.own')}</Tag>) },
    { title: t('col.devices'), dataIndex: 'devices', width: 80, align: 'right' },
    {
      title: t('col.updated'),
      key: 'updated',
      width: 200,
      render: (_, r) => (r.updatedAt ? t('updatedBy', { time: formatInZone(r.updatedAt, user?.timeZone, 'YYYY-MM-DD HH:mm'), who: r.updatedBy ?? '' }) : '--'),
    },
    linkActionsColumn<MonitorTaskRow>(
      {
        title: t('col.actions'),
        width: 220,
        items: [
          { key: 'edit', perm: 'editDetectionTask', label: t('action.edit'), onClick: setEditing },
          { key: 'start', perm: 'editDetectionTask', when: (r) => r.status !== 1, label: t('action.start'), onClick: (r) => setStatus(r, 1) },
          {
            key: 'stop',
            perm: 'editDetectionTask',
            when: (r) => r.status === 1,
            label: t('action.stop'),
            danger: true,
            confirm: (r) => ({ title: t('confirm.stop', { task: task(r) }), description: t('confirm.stopText'), okText: t('confirm.ok'), cancelText: t('confirm.cancel'), danger: true }),
            onClick: (r) => setStatus(r, 0),
          },
          {
            key: 'reset',
            perm: 'editDetectionTask',
            when: (r) => !r.inherited && r.id !== null,
            label: t('action.reset'),
            confirm: (r) => ({ title: t('confirm.reset', { task: task(r) }), okText: t('confirm.ok'), cancelText: t('confirm.cancel') }),
            onClick: (r) => reset.run({ query: { ids: idList([r.id!]) } }),
          },
        ],
      },
      can,
    ),
  ];
  const fields: SearchField[] = [
    { name: 'family', type: 'select', label: t('search.family'), width: 260, options: MONITOR_FAMILIES.map((f) => ({ value: f, label: t(`family.${f}`) })) },
    { name: 'status', type: 'select', label: t('search.status'), width: 120, options: [1, 0].map((s) => ({ value: String(s), label: t(`status.${s}`) })) },
  ];
  return (
    <PageCard title={t('title')}>
      <Alert type="info" showIcon title={t('intro')} style={{ marginBottom: 12 }} />
      <SearchBar fields={fields} onSearch={(v) => setFilters({ family: v.family as MonitorFamily | undefined, status: v.status as string | undefined })} />
      <PagedTable
        ref={table}
        route={monitorTaskApi.page}
        params={params}
        size="small"
        rowKey={rowKey}
        columns={tableColumns(columns)}
        locale={{ emptyText: t('empty') }}
        scroll={{ x: 1100 }}
      />
      <TaskDialog target={editing} onClose={() => setEditing(null)} onDone={reload} />
    </PageCard>
  );
}
