import { useState, useSyncExternalStore } from 'react';
import { App, Button, Popconfirm, Progress, Space, Table, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { downloadRefs, type DownloadKind, type DownloadRecord, type DownloadStatus } from '@coldwatch/contract';
import { useAuth } from '../../app/auth';
import { useAction, useCall } from '../../api/hooks';
import { formatInZone } from '../../lib/format';
import { saveDownload } from './saveFile';
import { subscribe, watchExport, watched } from './watch';
import { POLL_MS } from './DownloadWatcher';

const STATUS_COLOR: Record<DownloadStatus, string> = { generating: 'processing', generated: 'success', failed: 'error' };

/** Bytes as people read them. */
export const sizeText = (n: number | null) => (n === null ? '--' : n >= 1 << 20 ? `${(n / 2 ** 20).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1024))} KB`);

/**
 * The download records of the caller (an administrator's: its customers'), newest first, paged
 * on the server: a record being generated shows its progress as a bar (refreshed every second,
 * §9), a generated one downloads, a failed one can be generated again; ended ones delete (§4).
 */
export function DownloadTable({ kind, status, toolbar }: { kind?: DownloadKind; status?: DownloadStatus; toolbar?: React.ReactNode }) {
  const { t } = useTranslation('download');
  const { user, can } = useAuth();
  const { modal, message } = App.useApp();
  const tz = user?.timeZone ?? null;
  const [page, setPage] = useState({ iDisplayStart: 0, iDisplayLength: 15 });
  const watching = useSyncExternalStore(subscribe, () => watched().length);
  const list = useCall(downloadRefs.page, { query: { ...page, kind, status } }, { refetchInterval: (q) => (watching || q.state.data?.rows.some((r) => r.status === 'generating') ? POLL_MS : false) });
  const del = useAction(downloadRefs.delete, { invalidates: [downloadRefs.page] });
  const again = useAction(downloadRefs.regenerate, { success: t('regenerated'), invalidates: [downloadRefs.page], onDone: (r) => watchExport(r.key) });

  const download = async (r: DownloadRecord) => {
    const got = await saveDownload(r.id, r.name);
    if (got.ok) return;
    // §8: a corrupted or missing file asks to generate it again.
    if (got.status === 410 && r.kind === 'export' && can('viewExportTask'))
      modal.confirm({ title: t('corruptTitle'), content: got.msg, okText: t('action.regenerate'), onOk: () => again.run({ query: { id: r.id } }) });
    else void message.error(got.msg || t('downloadFailed'));
  };

  const columns = [
    { title: t('col.name'), dataIndex: 'name', width: 280, ellipsis: { showTitle: true } },
    { title: t('col.kind'), dataIndex: 'source', width: 120, render: (v: string) => t(`source.${v}`, { defaultValue: v }) },
    {
      title: t('col.status'),
      dataIndex: 'status',
      width: 200,
      render: (v: DownloadStatus, r: DownloadRecord) =>
        v === 'generating' ? (
          <Progress percent={r.progress} size="small" status="active" className="cw-download-progress" />
        ) : v === 'failed' ? (
          <Tooltip title={r.error}>
            <Tag color={STATUS_COLOR[v]}>{t(`status.${v}`)}</Tag>
          </Tooltip>
        ) : (
          <Tag color={STATUS_COLOR[v]}>{t(`status.${v}`)}</Tag>
        ),
    },
    { title: t('col.rows'), dataIndex: 'rows', width: 100, render: (v: number | null) => (v === null ? '--' : v.toLocaleString()) },
    { title: t('col.size'), dataIndex: 'size', width: 90, render: sizeText },
    { title: t('col.user'), dataIndex: 'userName', width: 110 },
    { title: t('col.createdAt'), dataIndex: 'createdAt', width: 170, render: (v: number) => formatInZone(v, tz) },
    { title: t('col.expiresAt'), dataIndex: 'expiresAt', width: 120, render: (v: number | null) => (v === null ? '--' : formatInZone(v, tz, 'YYYY-MM-DD')) },
    {
      title: t('col.actions'),
      key: 'actions',
      width: 220,
      fixed: 'right' as const,
      render: (_: unknown, r: DownloadRecord) => (
        <Space size={4} wrap>
          {r.status === 'generated' && (
            <Button size="small" type="link" className="cw-download-file" onClick={() => void download(r)}>
              {t('action.download')}
            </Button>
          )}
          {r.status === 'failed' && r.kind === 'export' && can('viewExportTask') && (
            <Button size="small" type="link" onClick={() => void again.run({ query: { id: r.id } })}>
              {t('action.regenerate')}
            </Button>
          )}
          {r.status !== 'generating' && can('removeDownload') && (
            <Popconfirm title={t('confirmDelete')} onConfirm={() => del.run({ query: { ids: String(r.id) } })}>
              <Button size="small" type="link" danger>
                {t('action.delete')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];
  return (
    <>
      {toolbar}
      <Table<DownloadRecord>
        rowKey="id"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.rows ?? []}
        columns={columns}
        scroll={{ x: 1300 }}
        locale={{ emptyText: t('empty') }}
        pagination={{
          current: page.iDisplayStart / page.iDisplayLength + 1,
          pageSize: page.iDisplayLength,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [15, 20, 50, 100],
          onChange: (p, size) => setPage({ iDisplayStart: (p - 1) * size, iDisplayLength: size }),
        }}
      />
    </>
  );
}
