/**
 * /sys/scheduled (the /sys section's default page, spec §2): the console's periodic jobs
 * (`scheduledApi.list`): name, schedule, last run and its result, next run, and "run now"
 * (`scheduledApi.run`, needs editParam). Refreshes every 10 s while open.
 */
import { App, Badge, Button, Table, Tooltip, Typography, type TableColumnsType } from 'antd';
import { PlayCircleOutlined, ReloadOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { scheduledApi, type ScheduledJob } from '@coldwatch/contract';
import { useAction, useCall } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { errorMessage } from '../../app/errors';
import { formatInZone } from '../../lib/format';
import { PageCard } from '../../ui';

const STATE_BADGE: Record<string, 'success' | 'error' | 'warning' | 'processing' | 'default'> = {
  done: 'success',
  failed: 'error',
  retrying: 'warning',
  running: 'processing',
  queued: 'processing',
  never: 'default',
};

/** "every 30 s", "every 15 min", "every 1 h". */
export function scheduleText(everyS: number, t: (k: string, o: { count: number }) => string) {
  if (everyS % 3600 === 0) return t('every.h', { count: everyS / 3600 });
  if (everyS % 60 === 0) return t('every.min', { count: everyS / 60 });
  return t('every.s', { count: everyS });
}

const stateOf = (j: ScheduledJob) => (j.running ? 'running' : j.queued && j.lastState !== 'retrying' ? 'queued' : (j.lastState ?? 'never'));

export default function ScheduledPage() {
  const { t } = useTranslation('scheduled');
  const { user, can } = useAuth();
  const { message } = App.useApp();
  const jobs = useCall(scheduledApi.list, undefined, { refetchInterval: 10_000 });
  const run = useAction(scheduledApi.run, {
    success: false,
    invalidates: [scheduledApi.list],
    onDone: (r) => void message.success(t(r.queued ? 'queued' : 'alreadyQueued')),
  });
  const tz = user?.timeZone;

  const columns: TableColumnsType<ScheduledJob> = [
    {
      title: t('col.name'),
      dataIndex: 'name',
      render: (name: string) => (
        <div>
          <Typography.Text strong>{t(`job.${name}`, { defaultValue: name })}</Typography.Text>
          <div className="cw-sched-desc">{t(`desc.${name}`, { defaultValue: '' })}</div>
          {name === 'backup' && <Link to="/sys/backup">{t('backups')}</Link>}
        </div>
      ),
    },
    { title: t('col.schedule'), dataIndex: 'everyS', width: 140, render: (s: number) => scheduleText(s, t) },
    { title: t('col.lastRun'), dataIndex: 'lastRunAt', width: 180, render: (v: number | null) => (v ? formatInZone(v, tz) : '--') },
    {
      title: t('col.result'),
      key: 'result',
      render: (_, j) => {
        const st = stateOf(j);
        return (
          <div>
            <Badge status={STATE_BADGE[st] ?? 'default'} text={t(`state.${st}`)} />
            {j.lastFigures && <div className="cw-sched-result">{t(`figures.${j.name}`, { ...j.lastFigures, defaultValue: JSON.stringify(j.lastFigures) })}</div>}
            {j.lastError && <div className="cw-sched-result is-error">{j.lastError}</div>}
          </div>
        );
      },
    },
    { title: t('col.duration'), dataIndex: 'lastMs', width: 90, render: (ms: number | null) => (ms === null ? '--' : `${ms} ms`) },
    { title: t('col.nextRun'), dataIndex: 'nextRunAt', width: 180, render: (v: number) => formatInZone(v, tz) },
    {
      title: t('col.action'),
      key: 'action',
      width: 130,
      render: (_, j) =>
        can('editParam') ? (
          <Tooltip title={t(`desc.${j.name}`, { defaultValue: '' })}>
            <Button size="small" icon={<PlayCircleOutlined />} loading={run.busy} disabled={j.running} onClick={() => void run.run({ query: { name: j.name } })} data-testid={`run-${j.name}`}>
              {t('runNow')}
            </Button>
          </Tooltip>
        ) : null,
    },
  ];

  return (
    <PageCard
      title={t('title')}
      extra={
        <Button icon={<ReloadOutlined />} onClick={() => void jobs.refetch()}>
          {t('reload')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('hint')}</Typography.Paragraph>
      <Table<ScheduledJob>
        rowKey="name"
        size="middle"
        columns={columns}
        dataSource={jobs.data ?? []}
        loading={jobs.isLoading}
        pagination={false}
        locale={{ emptyText: jobs.isError ? errorMessage(jobs.error, t) : t('empty') }}
        scroll={{ x: 1000 }}
      />
    </PageCard>
  );
}
