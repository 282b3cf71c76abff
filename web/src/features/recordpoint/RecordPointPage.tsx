/**
 * /arch/temprecord (spec §2 collect records, function object RecordPoint; docs/records.md): each
 * carrier's day with its record times filled from the carrier's value nearest them, the paper
 * log GSP inspectors ask for, and its approval (spec §4: not approved, approved, rejected),
 * signed with account and password as an exception's handling is.
 */
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button, Card, Segmented, Space, Tag, Tooltip, Typography } from 'antd';
import { CheckOutlined, ClockCircleOutlined, CloseOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ColumnsType } from 'antd/es/table';
import { RANGE_COLORS, rangeState, recordPointApi, RECORD_STATES, type RecordDayRow, type RecordState } from '@coldwatch/contract';
import { useAuth } from '../../app/auth';
import { PagedTable } from '../../ui';
import { fmtValue, formatInZone } from '../../lib/format';
import { useHistorySpan } from '../history/historySpan';
import { SpanPicker } from '../history/SpanPicker';
import { CarrierSelect } from '../device/devicePickers';
import { SignRecordDialog, type SignTarget } from './SignRecordDialog';
import { TimesDialog } from './TimesDialog';
import './recordPoint.css';

const STATE_COLORS: Record<RecordState, string> = { pending: 'default', approved: 'success', rejected: 'error' };

export default function RecordPointPage() {
  const { t } = useTranslation('recordPoint');
  const { user, can } = useAuth();
  const timeZone = user?.timeZone ?? null;
  const [params] = useSearchParams();
  const span = useHistorySpan(params, timeZone);
  const [carrierId, setCarrierId] = useState<number | undefined>(Number(params.get('carrierId')) || undefined);
  const [state, setState] = useState<RecordState | ''>('');
  const [signing, setSigning] = useState<SignTarget | null>(null);
  const [timesOpen, setTimesOpen] = useState(false);
  const editable = can('editRecordPoint');

  const filters = useMemo(() => ({ carrierId, state: state || undefined, start: span.range[0], end: span.range[1] }), [carrierId, state, span.range]);
  const value = (v: number | null, min: number | null, max: number | null, unit: string) => {
    const s = rangeState(v, min, max);
    return <span style={{ color: s === 'high' || s === 'low' ? RANGE_COLORS[s] : undefined }}>{v === null ? '--' : `${fmtValue(v, 1)} ${unit}`}</span>;
  };

  const columns: ColumnsType<RecordDayRow> = [
    { title: t('col.day'), dataIndex: 'day', width: 110 },
    { title: t('col.carrier'), dataIndex: 'carrierName', width: 160 },
    {
      title: t('col.points'),
      key: 'points',
      render: (_, r) => (
        <div className="cw-rp-points">
          {r.points.map((p) => (
            <Tooltip key={p.time} title={p.ts === null ? t('noReading') : t('readAt', { time: formatInZone(p.ts, timeZone, 'HH:mm:ss') })}>
              <span className="cw-rp-point">
                <span className="cw-rp-time">{p.time}</span>
                {value(p.temp, r.tempMin, r.tempMax, '°C')}
                {p.hum !== null && <span className="cw-rp-hum">{value(p.hum, r.humMin, r.humMax, '%RH')}</span>}
              </span>
            </Tooltip>
          ))}
        </div>
      ),
    },
    {
      title: t('col.state'),
      key: 'state',
      width: 250,
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          <Tag color={STATE_COLORS[r.state]}>{t(`state.${r.state}`)}</Tag>
          {r.signedBy && (
            <Typography.Text type="secondary" className="cw-rp-signed">
              {t('signedBy', { name: r.signedBy, account: r.signedAccount, time: formatInZone(r.signedAt, timeZone, 'YYYY-MM-DD HH:mm') })}
            </Typography.Text>
          )}
          {r.comment && <Typography.Text className="cw-rp-signed">{r.comment}</Typography.Text>}
        </Space>
      ),
    },
    ...(editable
      ? [
          {
            title: t('col.actions'),
            key: 'actions',
            width: 170,
            render: (_: unknown, r: RecordDayRow) =>
              r.state === 'approved' ? null : !r.complete ? (
                <Typography.Text type="secondary">
                  <ClockCircleOutlined /> {t('notYet')}
                </Typography.Text>
              ) : (
                <Space size={4}>
                  <Button size="small" type="primary" icon={<CheckOutlined />} onClick={() => setSigning({ row: r, decision: 'approved' })}>
                    {t('sign.approve')}
                  </Button>
                  <Button size="small" danger icon={<CloseOutlined />} onClick={() => setSigning({ row: r, decision: 'rejected' })}>
                    {t('sign.reject')}
                  </Button>
                </Space>
              ),
          },
        ]
      : []),
  ];

  return (
    <div className="cw-rp-page">
      <Card size="small">
        <div className="cw-rp-toolbar">
          <CarrierSelect open className="cw-rp-carrier" allowClear placeholder={t('allCarriers')} value={carrierId} onChange={(v) => setCarrierId(v ?? undefined)} />
          <Segmented<RecordState | ''> value={state} onChange={setState} options={[{ value: '', label: t('state.all') }, ...RECORD_STATES.map((s) => ({ value: s, label: t(`state.${s}`) }))]} />
          <SpanPicker span={span} timeZone={timeZone} />
          {editable && (
            <Button icon={<ClockCircleOutlined />} onClick={() => setTimesOpen(true)}>
              {t('times.open')}
            </Button>
          )}
        </div>
      </Card>
      <Card size="small" title={t('title')} extra={timeZone && <Typography.Text type="secondary">{t('timeZone', { tz: timeZone })}</Typography.Text>}>
        <PagedTable route={recordPointApi.page} params={filters} rowKey={(r) => `${r.carrierId}:${r.day}`} columns={columns} size="small" scroll={{ x: 'max-content' }} locale={{ emptyText: t('empty') }} />
      </Card>
      <SignRecordDialog target={signing} onClose={() => setSigning(null)} onDone={() => undefined} />
      <TimesDialog open={timesOpen} carrierId={carrierId} onClose={() => setTimesOpen(false)} />
    </div>
  );
}
