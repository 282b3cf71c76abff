import { useMemo, useState } from 'react';
import { Col, Row, Segmented, Tag, Tooltip, Typography } from 'antd';
import { ClockCircleOutlined, LineChartOutlined, RightOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { EXCEPTION_CATEGORIES, EXCEPTION_STATUS, exceptionRefs } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { fmtNumber, formatInZone, fromWall, RANGE_COLORS, toWall } from '../../lib/format';
import { useExceptionRefresh } from '../databoard/useLiveStream';
import { HomeChart, type HomeChartOption } from './HomeChart';
import { WidgetCard } from './WidgetCard';
import { historyLink, valueUnit } from './homeLogic';

export const LATEST_COUNT = 5; // spec §9: home shows the latest five exceptions
const PENDING_COUNT = 8;

const CATEGORY_COLOR: Record<string, string> = {
  temp_high: 'orange',
  temp_low: 'blue',
  hum_high: 'gold',
  hum_low: 'cyan',
  sensor_connect: 'purple',
  gateway_connect: 'magenta',
  gateway_blackout: 'red',
};
/** Spec §9: above max orange, below min blue; a peak of another kind (connection) in the text colour. */
const peakColor = (category: string) => (category.endsWith('_high') ? RANGE_COLORS.high : category.endsWith('_low') ? RANGE_COLORS.low : undefined);

const STATUS_COLOR: Record<number, string> = { 0: 'error', 1: 'processing', 2: 'default' };

/**
 * The latest five exceptions; each leads to the exception records and to its device's history.
 * With `pending`: the widget "pending exception records" (spec §2), the newest still waiting for handling.
 */
export function LatestExceptions({ pending = false }: { pending?: boolean }) {
  const { t } = useTranslation('home');
  const { user } = useAuth();
  const limit = pending ? PENDING_COUNT : LATEST_COUNT;
  const q = useCall(exceptionRefs.latest, { query: { limit, ...(pending ? { status: EXCEPTION_STATUS.pending } : {}) } }, { refetchInterval: 300_000 });
  useExceptionRefresh(() => void q.refetch());
  const rows = (q.data ?? []).slice(0, limit);
  return (
    <WidgetCard
      title={t(pending ? 'pendingTitle' : 'latestTitle')}
      extra={
        <Link to="/abnormal/dataex">
          {t('viewAll')} <RightOutlined />
        </Link>
      }
      loading={q.isPending}
      error={q.error}
      empty={rows.length === 0}
      onRetry={() => q.refetch()}
      testId={pending ? 'widget-pending-exceptions' : 'widget-latest-exceptions'}
    >
      <ul className="cw-latest">
        {rows.map((r) => {
          const value = r.peakValue ?? r.firstValue;
          const history = historyLink(r);
          return (
            <li key={r.id}>
              <Tag color={CATEGORY_COLOR[r.category] ?? 'default'} className="cw-latest-tag">
                {t(`category.${r.category}`, { defaultValue: r.category })}
              </Tag>
              <div className="cw-latest-main">
                <Link to="/abnormal/dataex" className="cw-latest-title">
                  {r.carrierName ?? t('noCarrier')}
                  {value != null && <span className="cw-latest-value" style={{ color: peakColor(r.category) }} data-peak={r.category}>{t('peak', { value: `${fmtNumber(value)} ${valueUnit(r.category)}`.trim() })}</span>}
                </Link>
                <div className="cw-latest-meta">
                  <ClockCircleOutlined /> {formatInZone(r.startTs, user?.timeZone, 'YYYY-MM-DD HH:mm')}
                  {r.devNo && <span className="cw-latest-dev">{t('device', { no: r.devNo })}</span>}
                </div>
              </div>
              <div className="cw-latest-side">
                {r.ongoing ? <Tag color="red">{t('ongoing')}</Tag> : <Tag color={STATUS_COLOR[r.status] ?? 'default'}>{t(`status.${r.status}`)}</Tag>}
                {history && (
                  <Tooltip title={t('history')}>
                    <Link to={history} aria-label={t('history')} className="cw-latest-history">
                      <LineChartOutlined />
                    </Link>
                  </Tooltip>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </WidgetCard>
  );
}


const PERIODS = { week: 7, month: 30, quarter: 90 } as const;
type Period = keyof typeof PERIODS;

/** Exception statistics over the last week / month / three months (spec §9 quick ranges). */
export function ExceptionStatsWidget() {
  const { t } = useTranslation('home');
  const { user } = useAuth();
  const tz = user?.timeZone ?? null;
  const [period, setPeriod] = useState<Period>('month');
  // The range is fixed per period (from its first day to the end of today, in the customer's zone) so the cache key stays put.
  const today = toWall(Date.now(), tz);
  const q = useCall(exceptionRefs.stats, {
    query: { startTime: fromWall(today.subtract(PERIODS[period], 'day').startOf('day'), tz), endTime: fromWall(today.endOf('day'), tz) },
  });
  useExceptionRefresh(() => void q.refetch());
  const s = q.data;
  const option = useMemo<HomeChartOption>(() => {
    const cats = [...EXCEPTION_CATEGORIES, ...Object.keys(s?.byCategory ?? {}).filter((c) => !(EXCEPTION_CATEGORIES as readonly string[]).includes(c))];
    return {
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      grid: { left: 8, right: 24, top: 8, bottom: 4, containLabel: true },
      xAxis: { type: 'value', minInterval: 1, splitLine: { lineStyle: { color: '#eef1f5' } } },
      yAxis: { type: 'category', inverse: true, data: cats.map((c) => t(`category.${c}`, { defaultValue: c })), axisTick: { show: false } },
      series: [{ type: 'bar', barWidth: 12, data: cats.map((c) => s?.byCategory[c] ?? 0), itemStyle: { color: '#1d6fe0', borderRadius: [0, 4, 4, 0] } }],
    };
  }, [s, t]);
  const figures = [
    { key: 'total', value: s?.total, color: undefined },
    { key: 'pending', value: s?.pending, color: '#dc2626' },
    { key: 'processed', value: s?.processed, color: '#1d6fe0' },
    { key: 'closed', value: s?.closed, color: '#64748b' },
    { key: 'ongoing', value: s?.ongoing, color: '#f59e0b' },
  ];
  return (
    <WidgetCard
      title={t('statsTitle')}
      extra={
        <Segmented<Period>
          size="small"
          value={period}
          onChange={setPeriod}
          options={(Object.keys(PERIODS) as Period[]).map((p) => ({ value: p, label: t(`period.${p}`) }))}
        />
      }
      loading={q.isPending}
      error={q.error}
      onRetry={() => q.refetch()}
      testId="widget-exception-stats"
    >
      <Row gutter={8} className="cw-ex-figures">
        {figures.map((f) => (
          <Col flex="1" key={f.key}>
            <div className="cw-ex-figure">
              <div className="cw-ex-figure-value" style={{ color: f.color }}>
                {f.value ?? 0}
              </div>
              <Typography.Text type="secondary" className="cw-ex-figure-label">
                {t(`exStats.${f.key}`)}
              </Typography.Text>
            </div>
          </Col>
        ))}
      </Row>
      <HomeChart option={option} height={200} />
    </WidgetCard>
  );
}
