/**
 * /noti/notification: the notice log (spec §3 Notice log, §2): every alarm, calibration and
 * captcha message the console sent or tried to send, on each channel, with how it went. A
 * failed notice (a provider not configured, a number refused, a provider away past the last
 * attempt) can be sent again once the cause is fixed.
 */
import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { NOTICE_CHANNELS, NOTICE_STATUS, NOTICE_TYPES, noticeApi } from '@coldwatch/contract';
import { seesManyCustomers, useAuth } from '../../app/auth';
import { useAction } from '../../api/hooks';
import { idList } from '../../api/call';
import { linkActionsColumn, ListPage, useListRef, type ListColumn, type RowOf } from '../../ui';
import { formatInZone } from '../../lib/format';

type Row = RowOf<typeof noticeApi.page>;

const STATUS_COLOR: Record<number, string> = { [NOTICE_STATUS.pending]: 'blue', [NOTICE_STATUS.sent]: 'green', [NOTICE_STATUS.failed]: 'red', [NOTICE_STATUS.skipped]: 'orange' };

export default function NoticeLogPage() {
  const { t } = useTranslation('notice');
  const { user, can } = useAuth();
  const list = useListRef();
  const tz = user?.timeZone ?? null;
  const retry = useAction(noticeApi.retry, { success: t('retried'), onDone: list.reload });
  const statusLabel = (s: number) => t(`status.${s}`);
  // A skipped row's result is a reason key (why the alarm went to nobody): said in words, not as the key.
  const resultText = (r: Pick<Row, 'status' | 'result'>) => (r.status === NOTICE_STATUS.skipped ? t(`skip.${r.result}`, { defaultValue: r.result }) : r.result);
  const columns: ListColumn<Row>[] = [
    { title: t('col.createdAt'), dataIndex: 'createdAt', width: 150, render: (v: number) => formatInZone(v, tz), search: { type: 'datetimeRange', range: ['startTime', 'endTime'], order: 5 } },
    {
      title: t('col.type'),
      dataIndex: 'type',
      width: 80,
      render: (v: string) => t(`type.${v}`, { defaultValue: v }),
      csv: (r) => t(`type.${r.type}`, { defaultValue: r.type }),
      search: { type: 'select', width: 120, options: NOTICE_TYPES.map((v) => ({ value: v, label: t(`type.${v}`) })), order: 1 },
    },
    {
      title: t('col.channel'),
      dataIndex: 'channel',
      width: 85,
      render: (v: string) => t(`channel.${v}`, { defaultValue: v }),
      csv: (r) => t(`channel.${r.channel}`, { defaultValue: r.channel }),
      search: { type: 'select', width: 110, options: NOTICE_CHANNELS.map((v) => ({ value: v, label: t(`channel.${v}`) })), order: 2 },
    },
    { title: t('col.recipient'), dataIndex: 'recipient', width: 170, ellipsis: true, search: { type: 'input', width: 160, order: 0 } },
    {
      title: t('col.status'),
      dataIndex: 'status',
      width: 80,
      render: (v: number) => <Tag color={STATUS_COLOR[v]}>{statusLabel(v)}</Tag>,
      csv: (r) => statusLabel(r.status),
      search: { type: 'select', width: 110, options: Object.values(NOTICE_STATUS).map((v) => ({ value: String(v), label: statusLabel(v) })), order: 3 },
    },
    {
      title: t('col.content'),
      key: 'content',
      width: 240,
      // The subject over the text's first lines; the whole text on hover and in the CSV.
      render: (_: unknown, r) => (
        <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-line' }} ellipsis={{ rows: 2, tooltip: r.content }}>
          {r.subject ? <Typography.Text strong>{r.subject} </Typography.Text> : null}
          {r.content}
        </Typography.Paragraph>
      ),
      csv: (r) => (r.subject ? `${r.subject}\n${r.content}` : r.content),
    },
    { title: t('col.sendTime'), dataIndex: 'sendTime', width: 150, render: (v: number | null) => (v === null ? '--' : formatInZone(v, tz)) },
    { title: t('col.result'), dataIndex: 'result', width: 170, ellipsis: { showTitle: true }, render: (_: string, r) => resultText(r) || '--', csv: (r) => resultText(r) },
    { title: t('col.attempts'), dataIndex: 'attempts', width: 70, align: 'right' },
    { title: t('col.customer'), dataIndex: 'customerName', width: 140, hidden: !seesManyCustomers(user?.userType) },
    linkActionsColumn<Row>(
      {
        title: t('col.actions'),
        width: 70,
        items: [{ key: 'retry', label: t('retry'), perm: 'editNoticeLog', when: (r) => r.status === NOTICE_STATUS.failed, onClick: (r) => retry.run({ query: { ids: idList([r.id]) } }) }],
      },
      can,
    ),
  ];
  return <ListPage ref={list.ref} route={noticeApi.page} columns={columns} empty={t('empty')} scrollX={1250} exportName="notices" />;
}
