/**
 * /traceDetail (no sign-in; docs/transport.md "The transport code"): the receiver of a shipment
 * scans the trip's QR code and sees that the cargo stayed cold: cargo, origin and destination,
 * the route on the map coloured by temperature against the zone, the temperature chart, min, max
 * and MKT of the trip, and its excursions with their handling. Built for a phone first (390 px):
 * one column of cards, the base font size following the screen (spec: width × 100 / 750). An
 * expired or altered code says which.
 */
import { useSearchParams } from 'react-router';
import { Card, Descriptions, Result, Spin, Statistic, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { EXCEPTION_STATUS, tripRefs } from '@coldwatch/contract';
import { useQuietCall } from '../../api/hooks';
import { errorMessage } from '../../app/errors';
import { LogoMark } from '../../ui/Logo';
import { fmtValue, formatInZone } from '../../lib/format';
import { TripMap } from './TripMap';
import { SensorChart } from '../history/SensorChart';

export default function TraceDetailPage() {
  const { t } = useTranslation('trip');
  const [params] = useSearchParams();
  const code = params.get('code') ?? '';
  // Quiet: a 401 here is the code's, not a session's; the reader stays on the page and reads why.
  const q = useQuietCall(tripRefs.trace, { query: { code } }, { retry: false, enabled: !!code });
  const d = q.data;
  const at = (ms: number | null) => (ms === null ? t('underWay') : formatInZone(ms, d?.timeZone, 'YYYY-MM-DD HH:mm'));
  const temp = d?.statistic?.summary.temp;
  const zone = d?.statistic?.zone ?? d?.readings[0]?.zone ?? { tempMin: null, tempMax: null, humMin: null, humMax: null };
  const span: [number, number] = d ? [d.trip.startTime, d.trip.endTime ?? Date.now()] : [0, 0];

  return (
    <div style={{ minHeight: '100vh', background: '#f1f4f9', padding: '16px 12px', display: 'flex', flexDirection: 'column', alignItems: 'center', fontSize: 'clamp(14px, calc(100vw * 100 / 750 / 3.4), 16px)' }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 10, marginBottom: 12 }}>
        <LogoMark size={26} />
        <span style={{ fontSize: 17, fontWeight: 600, color: '#0b1b33' }}>{t('trace.title')}</span>
      </div>
      <div style={{ width: 'min(760px, 100%)' }} data-testid="trace-page">
        {!code || q.isError ? (
          <Card>
            <Result status="warning" title={t('trace.failed')} subTitle={code ? errorMessage(q.error, t) : t('trace.noCode')} />
          </Card>
        ) : !d ? (
          <Spin tip={t('trace.loading')}>
            <div style={{ height: 120 }} />
          </Spin>
        ) : (
          <>
            <Card size="small" style={{ marginBottom: 12 }}>
              <Typography.Title level={5} style={{ margin: 0 }}>
                {d.trip.cargo || d.trip.carrierName}
              </Typography.Title>
              <Typography.Text type="secondary">{d.customerName}</Typography.Text>
              <Descriptions column={1} size="small" style={{ marginTop: 8 }}>
                <Descriptions.Item label={t('col.carrier')}>{d.trip.carrierName}</Descriptions.Item>
                <Descriptions.Item label={t('col.origin')}>{d.trip.origin || '--'}</Descriptions.Item>
                <Descriptions.Item label={t('col.destination')}>{d.trip.destination || '--'}</Descriptions.Item>
                <Descriptions.Item label={t('col.start')}>{at(d.trip.startTime)}</Descriptions.Item>
                <Descriptions.Item label={t('col.end')}>{at(d.trip.endTime)}</Descriptions.Item>
              </Descriptions>
            </Card>
            {temp && (
              <Card size="small" style={{ marginBottom: 12 }} title={t('trace.figures')}>
                <div style={{ display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', gap: 8 }}>
                  <Statistic title={t('fig.min')} value={fmtValue(temp.min)} suffix="°C" valueStyle={{ fontSize: 18, color: zone.tempMin !== null && temp.min !== null && temp.min < zone.tempMin ? '#1677ff' : undefined }} />
                  <Statistic title={t('fig.max')} value={fmtValue(temp.max)} suffix="°C" valueStyle={{ fontSize: 18, color: zone.tempMax !== null && temp.max !== null && temp.max > zone.tempMax ? '#fa541c' : undefined }} />
                  <Statistic title={t('fig.mkt')} value={fmtValue(temp.mkt, 2)} suffix="°C" valueStyle={{ fontSize: 18 }} />
                </div>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('trace.zone', { min: fmtValue(zone.tempMin), max: fmtValue(zone.tempMax) })}
                </Typography.Text>
              </Card>
            )}
            <Card size="small" style={{ marginBottom: 12 }} title={t('trace.route')}>
              <TripMap route={d.route} points={d.readings[0]?.points ?? []} zone={zone} tileUrl={d.tileUrl} labels={{ start: t('map.start'), end: t('map.end'), tilesFailed: t('map.tilesFailed') }} height={300} />
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('map.legend')}
              </Typography.Text>
            </Card>
            {d.readings.map((s) => (
              <Card key={s.deviceNo} size="small" style={{ marginBottom: 12 }} title={t('trace.chart')} extra={<Typography.Text type="secondary">{s.deviceNo}</Typography.Text>}>
                <SensorChart sensor={s} span={span} timeZone={d.timeZone} />
              </Card>
            ))}
            <Card size="small" style={{ marginBottom: 12 }} title={t('trace.excursions', { n: d.excursions.length })}>
              {!d.excursions.length ? (
                <Typography.Text type="success">{t('trace.noExcursions')}</Typography.Text>
              ) : (
                d.excursions.map((e, i) => (
                  <div key={i} style={{ padding: '6px 0', borderBottom: i < d.excursions.length - 1 ? '1px solid #f0f0f0' : undefined }}>
                    <Tag color={e.category === 'retention' ? 'purple' : 'volcano'}>{t(`abnormal:category.${e.category}`, { defaultValue: e.category })}</Tag>
                    <Typography.Text>{`${at(e.start)} – ${e.end === null ? t('ongoing') : at(e.end)}`}</Typography.Text>
                    <div>
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {e.status === EXCEPTION_STATUS.pending ? t('trace.unhandled') : t('trace.handled', { reason: [e.reason, e.measures].filter(Boolean).join('; ') || '--' })}
                      </Typography.Text>
                    </div>
                  </div>
                ))
              )}
            </Card>
            <Typography.Paragraph type="secondary" style={{ textAlign: 'center', fontSize: 12 }}>
              {t('trace.expires', { time: at(d.expiresAt) })}
            </Typography.Paragraph>
          </>
        )}
      </div>
    </div>
  );
}
