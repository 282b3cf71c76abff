/**
 * /queryCode (no sign-in; docs/workorders.md "Query codes"): whoever holds a query code sees its
 * sensors' readings over the code's period, and nothing else, until it expires (7 days, spec §9)
 * or is revoked. Built for a phone first (390 px): one column of cards, the chart as wide as the
 * screen. An expired, revoked or altered code says which.
 */
import { useSearchParams } from 'react-router';
import { Alert, Card, Result, Spin, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { queryCodeRefs } from '@coldwatch/contract';
import { useQuietCall } from '../../api/hooks';
import { errorMessage } from '../../app/errors';
import { LogoMark } from '../../ui/Logo';
import { formatInZone } from '../../lib/format';
import { SensorChart } from '../history/SensorChart';

/** Lowest, highest and latest temperature of the points shown. */
function stats(points: { temp: number | null }[]) {
  const temps = points.map((p) => p.temp).filter((v): v is number => v !== null);
  return temps.length ? { min: Math.min(...temps), max: Math.max(...temps), last: temps[temps.length - 1] } : null;
}

export default function QueryCodePublicPage() {
  const { t } = useTranslation('queryCode');
  const [params] = useSearchParams();
  const code = params.get('code') ?? '';
  // Quiet: a 401 here is the code's, not a session's; the reader stays on the page and reads why.
  const q = useQuietCall(queryCodeRefs.sensors, { query: { code, iDisplayLength: 50 } }, { retry: false, enabled: !!code });
  const d = q.data;
  const at = (ms: number) => formatInZone(ms, d?.timeZone, 'YYYY-MM-DD HH:mm');

  return (
    <div style={{ minHeight: '100vh', background: '#f1f4f9', padding: '16px 12px', display: 'flex', flexDirection: 'column', alignItems: 'center' }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 10, marginBottom: 12 }}>
        <LogoMark size={26} />
        <span style={{ fontSize: 17, fontWeight: 600, color: '#0b1b33' }}>{t('common:product')}</span>
      </div>
      <div style={{ width: 'min(760px, 100%)' }} data-testid="query-code-page">
        {!code || q.isError ? (
          <Card>
            <Result status="warning" title={t('public.failed')} subTitle={code ? errorMessage(q.error, t) : t('public.noCode')} />
          </Card>
        ) : !d ? (
          <Spin tip={t('public.loading')}>
            <div style={{ height: 120 }} />
          </Spin>
        ) : (
          <>
            <Card size="small" style={{ marginBottom: 12 }}>
              <Typography.Title level={5} style={{ margin: 0 }}>
                {d.customerName}
              </Typography.Title>
              <Typography.Text type="secondary">{t('public.period', { from: at(d.startTime), to: at(d.endTime) })}</Typography.Text>
              <Alert type="info" showIcon style={{ marginTop: 8 }} title={t('public.expires', { time: at(d.expiresAt) })} />
            </Card>
            {d.rows.map((s) => {
              const st = stats(s.points);
              return (
                <Card key={s.deviceNo} size="small" style={{ marginBottom: 12 }} title={s.carrierName ?? s.deviceNo} extra={<Typography.Text type="secondary">{s.deviceNo}</Typography.Text>}>
                  {st && (
                    <div style={{ display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', gap: 8, marginBottom: 8 }}>
                      <Statistic title={t('public.min')} value={st.min} suffix="°C" valueStyle={{ fontSize: 18, color: s.zone.tempMin !== null && st.min < s.zone.tempMin ? '#1677ff' : undefined }} />
                      <Statistic title={t('public.max')} value={st.max} suffix="°C" valueStyle={{ fontSize: 18, color: s.zone.tempMax !== null && st.max > s.zone.tempMax ? '#fa8c16' : undefined }} />
                      <Statistic title={t('public.last')} value={st.last} suffix="°C" valueStyle={{ fontSize: 18 }} />
                    </div>
                  )}
                  <SensorChart sensor={s} span={[d.startTime, Math.min(d.endTime, Date.now())]} timeZone={d.timeZone} />
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t('public.readings', { n: s.total })}
                  </Typography.Text>
                </Card>
              );
            })}
            <Typography.Paragraph type="secondary" style={{ textAlign: 'center', fontSize: 12 }}>
              {t('public.readOnly')}
            </Typography.Paragraph>
          </>
        )}
      </div>
    </div>
  );
}
