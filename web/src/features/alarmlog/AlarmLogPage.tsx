/** /noti/alarmLog: every change of a carrier's alarm switch and every alarm pause and its end, who, when and why (spec §2, §4). */
import { Tag, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { alarmLogApi } from '@coldwatch/contract';
import { seesManyCustomers, useAuth } from '../../app/auth';
import { ListPage, type ListColumn, type RowOf } from '../../ui';
import { formatInZone } from '../../lib/format';
import { carrierTypeLabel } from '../carrier/carrierLabels';

type Row = RowOf<typeof alarmLogApi.page>;

/** What the alarm-resume job writes at a pause's end (server alarm/pause.ts): shown in the reader's language. */
const PAUSE_ENDED = 'pause ended: ';

export default function AlarmLogPage() {
  const { t } = useTranslation('carrier');
  const { user } = useAuth();
  const navigate = useNavigate();
  const tz = user?.timeZone ?? null;
  // The search bar's order: carrier, operator, switch, time.
  const columns: ListColumn<Row>[] = [
    { title: t('log.time'), dataIndex: 'time', width: 170, render: (v: number) => formatInZone(v, tz), search: { type: 'datetimeRange', range: ['startTime', 'endTime'], order: 3 } },
    {
      title: t('log.carrier'),
      dataIndex: 'carrierName',
      width: 180,
      // A deleted carrier's name stays, struck through.
      render: (v: string, r) => (r.carrierId ? <Typography.Link onClick={() => navigate(`/carrierDetailPage?id=${r.carrierId}`)}>{v}</Typography.Link> : <Typography.Text delete>{v}</Typography.Text>),
      search: { type: 'input', width: 150 },
    },
    { title: t('col.type'), dataIndex: 'carrierType', width: 110, render: (v: number | null) => (v ? carrierTypeLabel(t, v) : '--') },
    { title: t('col.scene'), dataIndex: 'sceneLabel', width: 140, render: (v: string | null) => v ?? '--' },
    {
      title: t('log.switch'),
      dataIndex: 'alarmOn',
      // Wide enough for "Paused until 11-27 12:17" on one line.
      width: 190,
      render: (v: boolean, r) =>
        r.pausedUntil ? (
          <Tag color="gold">{t('log.pausedUntil', { time: formatInZone(r.pausedUntil, tz, 'MM-DD HH:mm') })}</Tag>
        ) : v ? (
          <Tag color="green">{t('alarm.on')}</Tag>
        ) : (
          <Tag color="red">{t('alarm.off')}</Tag>
        ),
      search: { type: 'select', width: 110, options: [{ value: 'true', label: t('alarm.on') }, { value: 'false', label: t('alarm.off') }], order: 2 },
    },
    {
      title: t('log.reason'),
      dataIndex: 'reason',
      width: 200,
      ellipsis: { showTitle: true },
      render: (v: string, r) => (r.operator === 'system' && v.startsWith(PAUSE_ENDED) ? t('log.pauseEnded', { reason: v.slice(PAUSE_ENDED.length) || '--' }) : v || '--'),
    },
    { title: t('log.operator'), dataIndex: 'operator', width: 120, search: { type: 'input', width: 120, order: 1 } },
    { title: t('col.customer'), dataIndex: 'customerName', width: 140, hidden: !seesManyCustomers(user?.userType) },
  ];
  return <ListPage route={alarmLogApi.page} columns={columns} empty={t('log.empty')} scrollX={1000} />;
}
