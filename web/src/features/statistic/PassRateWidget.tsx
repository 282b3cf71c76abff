/**
 * Home widget "pass-rate statistics" (spec §2): the customer's carriers over the last 7 days, the
 * least in range first, each with its share of the time in its zone (docs/statistics.md) and a
 * link to its chart; the statistics page for the rest.
 */
import { Link } from 'react-router';
import { Progress, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { WidgetCard } from '../home/WidgetCard';
import { pct } from './statisticLogic';
import { useWeekStatistics } from './useWeekStatistics';
import './statistic.css';

const SHOWN = 8;

export function PassRateWidget() {
  const { t } = useTranslation('statistic');
  const week = useWeekStatistics();
  const rows = week.rows
    .filter((r) => r.summary.temp.passRate !== null)
    .sort((a, b) => a.summary.temp.passRate! - b.summary.temp.passRate!)
    .slice(0, SHOWN);
  return (
    <WidgetCard
      title={t('widget.title')}
      extra={<Link to="/count/statistic">{t('widget.more')}</Link>}
      loading={week.loading}
      error={week.error}
      empty={!rows.length}
      onRetry={week.retry}
      testId="pass-rate-widget"
    >
      <div className="cw-pass-rates">
        {rows.map((r) => {
          const rate = r.summary.temp.passRate!;
          return (
            <div key={r.carrierId} className="cw-pass-rate">
              <Link to={`/carrierProbeHistory?carrierId=${r.carrierId}&start=${week.span[0]}&end=${week.span[1]}`}>
                <Typography.Text ellipsis style={{ width: 140 }}>
                  {r.name}
                </Typography.Text>
              </Link>
              <Progress percent={Math.floor(rate * 10_000) / 100} showInfo={false} size="small" status={rate < 0.95 ? 'exception' : 'success'} style={{ flex: 1, margin: '0 8px' }} />
              <span className="cw-pass-rate-value">{pct(rate)}</span>
            </div>
          );
        })}
      </div>
    </WidgetCard>
  );
}
