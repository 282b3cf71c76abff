/**
 * /sys/backup: the whole-database backups of the `backup` job (docs/operations.md "Backups"),
 * for platform users; reached from System › Scheduled jobs. Platform administrators download a
 * backup or copy a signed link that opens /dataBackup without signing in for 24 hours.
 */
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { App, Badge, Button, Modal, Space, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { CloudDownloadOutlined, LinkOutlined, PlayCircleOutlined, ReloadOutlined, ScheduleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { USER_TYPE, backupApi, scheduledApi, type BackupFile, type Result } from '@coldwatch/contract';
import { useAction } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { formatInZone } from '../../lib/format';
import { PageCard, PagedTable, type PagedTableRef } from '../../ui';
import { fileSize } from './size';

type List = Result<typeof backupApi.list>;

export default function BackupPage() {
  const { t } = useTranslation('backup');
  const { user, userType, isRoot, can } = useAuth();
  const { message } = App.useApp();
  const table = useRef<PagedTableRef>(null);
  const [info, setInfo] = useState<Pick<List, 'dir' | 'retentionYears' | 'nextRunAt'>>();
  const [shown, setShown] = useState<{ url: string; expiresAt: number }>();
  const tz = user?.timeZone;
  const at = (ms: number) => formatInZone(ms, tz);
  const admin = isRoot || userType === USER_TYPE.platformAdmin;

  const run = useAction(scheduledApi.run, {
    success: false,
    onDone: (r) => {
      void message.success(t(r.queued ? 'queued' : 'alreadyQueued'));
      table.current?.reload();
    },
  });
  const link = useAction(backupApi.link, {
    success: false,
    onDone: (r) => {
      // A console served over plain HTTP has no clipboard API: the dialog shows the link to copy by hand.
      if (!navigator.clipboard) return setShown(r);
      navigator.clipboard.writeText(r.url).then(
        () => void message.success(t('linkCopied', { time: at(r.expiresAt) })),
        () => setShown(r),
      );
    },
  });

  const columns: TableColumnsType<BackupFile> = [
    { title: t('col.time'), dataIndex: 'startedAt', width: 170, render: (v: number) => at(v) },
    { title: t('col.kind'), dataIndex: 'kind', width: 170, render: (k: string) => <Tag>{t(`kind.${k}`)}</Tag> },
    { title: t('col.name'), dataIndex: 'name', width: 340, render: (n: string) => <Typography.Text code style={{ whiteSpace: 'nowrap' }}>{n || '--'}</Typography.Text> },
    { title: t('col.size'), dataIndex: 'sizeBytes', width: 100, render: (b: number | null) => (b === null ? '--' : fileSize(b)) },
    { title: t('col.took'), dataIndex: 'durationMs', width: 90, render: (ms: number) => `${(ms / 1000).toFixed(1)} s` },
    {
      title: t('col.sha256'),
      dataIndex: 'sha256',
      width: 130,
      render: (h: string | null) => (h ? <Typography.Text copyable={{ text: h }} style={{ fontFamily: 'monospace' }}>{h.slice(0, 10)}…</Typography.Text> : '--'),
    },
    {
      title: t('col.result'),
      key: 'result',
      width: 200,
      render: (_, b) =>
        b.outcome === 'failed' ? (
          <div>
            <Badge status="error" text={t('state.failed')} />
            <div className="cw-sched-result is-error">{b.error}</div>
          </div>
        ) : b.deletedAt ? (
          <Badge status="default" text={t('state.deleted', { time: at(b.deletedAt) })} />
        ) : b.present ? (
          <Badge status="success" text={t('state.ok')} />
        ) : (
          <Badge status="warning" text={t('state.missing')} />
        ),
    },
    { title: t('col.action'), key: 'action', width: 210, render: (_, b) => b.present && <FileActions file={b} admin={admin} busy={link.busy} onLink={() => void link.run({ query: { id: b.id } })} /> },
  ];

  const toolbar = (
    <Space>
      {can('editParam') && (
        <Button type="primary" icon={<PlayCircleOutlined />} loading={run.busy} onClick={() => void run.run({ query: { name: 'backup' } })}>
          {t('runNow')}
        </Button>
      )}
      <Link to="/sys/scheduled">
        <Button icon={<ScheduleOutlined />}>{t('jobs')}</Button>
      </Link>
      <Button icon={<ReloadOutlined />} onClick={() => table.current?.reload()}>
        {t('reload')}
      </Button>
    </Space>
  );

  return (
    <PageCard title={t('title')} extra={toolbar}>
      {info && (
        <>
          <Typography.Paragraph type="secondary">{t('hint', { dir: info.dir, years: info.retentionYears })}</Typography.Paragraph>
          <Typography.Paragraph type="secondary">{t('restoreHint')}</Typography.Paragraph>
          {info.nextRunAt !== null && <Typography.Paragraph strong>{t('nextRun', { time: at(info.nextRunAt) })}</Typography.Paragraph>}
        </>
      )}
      <PagedTable
        ref={table}
        route={backupApi.list}
        rowKey="id"
        size="middle"
        columns={columns}
        refetchInterval={10_000}
        onLoaded={(r) => setInfo(r)}
        locale={{ emptyText: t('empty') }}
        scroll={{ x: 1420 }}
      />
      <Modal open={!!shown} title={t('linkTitle')} footer={null} onCancel={() => setShown(undefined)}>
        {shown && (
          <>
            <Typography.Paragraph type="warning">{t('linkText', { time: at(shown.expiresAt) })}</Typography.Paragraph>
            <Typography.Paragraph copyable code style={{ wordBreak: 'break-all' }}>
              {shown.url}
            </Typography.Paragraph>
          </>
        )}
      </Modal>
    </PageCard>
  );
}

/** Download and "copy link", for platform administrators only (a backup holds every customer). */
function FileActions({ file, admin, busy, onLink }: { file: BackupFile; admin: boolean; busy: boolean; onLink: () => void }) {
  const { t } = useTranslation('backup');
  return (
    <Tooltip title={admin ? undefined : t('adminOnly')}>
      <Space size={4}>
        <Button size="small" icon={<CloudDownloadOutlined />} disabled={!admin} href={admin ? `${backupApi.download.path}?id=${file.id}` : undefined} download>
          {t('download')}
        </Button>
        <Button size="small" icon={<LinkOutlined />} disabled={!admin} loading={busy} onClick={onLink} data-testid={`link-${file.id}`}>
          {t('copyLink')}
        </Button>
      </Space>
    </Tooltip>
  );
}
