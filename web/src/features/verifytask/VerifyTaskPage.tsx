/**
 * /arch/verificationTask (spec §2, menu verificationTask, function object VerifyTask; §4): the
 * verification tasks with their state, the actions start recording and terminate, add and edit
 * in a dialog, delete (not while running), and each task's result (the JJF 1101 figures of its
 * recording) in a drawer, which `?id=` opens directly.
 */
import { useMemo, useRef, useState } from 'react';
import { Alert, Button, Drawer, Spin, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { VERIFY_STATUS, verifyTaskApi, type VerifyTaskRow } from '@coldwatch/contract';
import { idList } from '../../api/call';
import { useAction, useCall } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { formatInZone } from '../../lib/format';
import { PageCard, PagedTable, SearchBar, linkActionsColumn, tableColumns, type ListColumn, type PagedTableRef, type SearchField } from '../../ui';
import { VerifyTaskDialog } from './VerifyTaskDialog';
import { VerifyTaskResult } from './VerifyTaskResult';

const STATUS_COLOR = ['default', 'processing', 'blue', 'success'];
const running = (r: VerifyTaskRow) => r.status === VERIFY_STATUS.starting || r.status === VERIFY_STATUS.recording;

export default function VerifyTaskPage() {
  const { t } = useTranslation('verifyTask');
  const { can, user } = useAuth();
  const tz = user?.timeZone ?? null;
  const table = useRef<PagedTableRef>(null);
  const [filters, setFilters] = useState<{ name?: string; status?: string }>({});
  const [editing, setEditing] = useState<VerifyTaskRow | 'new' | null>(null);
  const [params, setParams] = useSearchParams();
  const shown = Number(params.get('id')) || null;
  const show = (id: number | null) => setParams(id ? { id: String(id) } : {}, { replace: true });
  const detail = useCall(verifyTaskApi.detail, { query: { id: shown ?? 0 } }, { enabled: !!shown });
  const query = useMemo(() => ({ ...filters }), [filters]);
  const reload = () => {
    table.current?.reload();
    if (shown) void detail.refetch();
  };
  const del = useAction(verifyTaskApi.del, { success: t('msg.deleted'), onDone: reload });
  const start = useAction(verifyTaskApi.start, { success: t('msg.started'), onDone: reload });
  const terminate = useAction(verifyTaskApi.terminate, { success: t('msg.terminated'), onDone: reload });
  const when = (ms: number) => formatInZone(ms, tz, 'YYYY-MM-DD HH:mm');
  const confirm = (key: string, danger = false) => (r: VerifyTaskRow) => ({ title: t(`confirm.${key}`, { name: r.name }), okText: t('confirm.ok'), cancelText: t('confirm.cancel'), danger });

  const columns: ListColumn<VerifyTaskRow>[] = [
    { title: t('col.name'), dataIndex: 'name', width: 160, ellipsis: true },
    { title: t('col.carrier'), dataIndex: 'carrierName', width: 130, ellipsis: true },
    { title: t('col.status'), dataIndex: 'status', width: 190, render: (v: number) => <Tag color={STATUS_COLOR[v]}>{t(`status.${v}`)}</Tag> },
    { title: t('col.setpoint'), key: 'setpoint', width: 110, render: (_, r) => `${r.setpoint} °C${r.humSetpoint === null ? '' : ` / ${r.humSetpoint} %RH`}` },
    // Start and end on two lines; the record start is in the result.
    { title: t('col.period'), key: 'period', width: 150, render: (_, r) => <div style={{ whiteSpace: 'nowrap' }}>{when(r.startTime)}<br />{when(r.endTime)}</div> },
    { title: t('col.devices'), key: 'devices', width: 70, align: 'right', render: (_, r) => r.devices.length },
    { title: t('col.duration'), dataIndex: 'durationMin', width: 90, render: (v: number) => t('minutes', { n: v }) },
    linkActionsColumn<VerifyTaskRow>(
      {
        title: t('col.actions'),
        width: 260,
        items: [
          { key: 'detail', perm: 'viewVerifyTask', label: t('action.detail'), onClick: (r) => show(r.id) },
          { key: 'edit', perm: 'editVerifyTask', when: (r) => !running(r), label: t('action.edit'), onClick: setEditing },
          { key: 'start', perm: 'editVerifyTask', when: (r) => r.status < VERIFY_STATUS.recording, label: t('action.start'), confirm: confirm('start'), onClick: (r) => start.run({ query: { id: r.id } }) },
          { key: 'terminate', perm: 'editVerifyTask', when: (r) => r.status < VERIFY_STATUS.terminated, label: t('action.terminate'), danger: true, confirm: confirm('terminate', true), onClick: (r) => terminate.run({ query: { id: r.id } }) },
          { key: 'delete', perm: 'removeVerifyTask', when: (r) => !running(r), label: t('action.delete'), danger: true, confirm: confirm('delete', true), onClick: (r) => del.run({ query: { ids: idList([r.id]) } }) },
        ],
      },
      can,
    ),
  ];
  const fields: SearchField[] = [
    { name: 'name', type: 'input', label: t('filter.name'), width: 180 },
    { name: 'status', type: 'select', label: t('filter.status'), width: 200, options: [0, 1, 2, 3].map((s) => ({ value: String(s), label: t(`status.${s}`) })) },
  ];
  return (
    <PageCard title={t('title')}>
      <Alert type="info" showIcon title={t('intro')} style={{ marginBottom: 12 }} />
      <div style={{ display: 'flex', alignItems: 'flex-start', gap: 16, flexWrap: 'wrap' }}>
        <div style={{ flex: 1, minWidth: 240 }}>
          <SearchBar fields={fields} onSearch={(v) => setFilters({ name: v.name as string | undefined, status: v.status as string | undefined })} />
        </div>
        {can('newVerifyTask') && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {t('action.add')}
          </Button>
        )}
      </div>
      <PagedTable ref={table} route={verifyTaskApi.page} params={query} size="small" rowKey="id" columns={tableColumns(columns)} locale={{ emptyText: t('empty') }} scroll={{ x: 1160 }} />
      <VerifyTaskDialog target={editing} timeZone={tz} onClose={() => setEditing(null)} onDone={reload} />
      <Drawer open={!!shown} size="large" title={detail.data ? `${t('result.title')}: ${detail.data.name} · ${detail.data.carrierName}` : t('result.title')} onClose={() => show(null)} destroyOnHidden>
        {detail.data ? <VerifyTaskResult task={detail.data} timeZone={tz} /> : <Spin />}
      </Drawer>
    </PageCard>
  );
}
