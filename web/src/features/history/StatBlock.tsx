/**
 * One measure's statistics over the span, the server's over every reading (api/statistic.ts):
 * min and max (coloured by the zone, with their time), time-weighted average and standard
 * deviation, MKT for temperature, pass rate and readings.
 */
import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { fmtValue, formatInZone, rangeState, RANGE_COLORS } from '../../lib/format';
import { pct } from '../statistic/statisticLogic';
import type { Stats } from './historyLogic';

/** A value's colour: red or blue outside its zone, the text's own inside. */
export function valueColor(v: number | null, min: number | null, max: number | null) {
  const s = rangeState(v, min, max);
  return s === 'high' || s === 'low' ? RANGE_COLORS[s] : undefined;
}

export function StatBlock({ title, stats, zoneMin, zoneMax, timeZone }: { title: string; stats: Stats; zoneMin: number | null; zoneMax: number | null; timeZone: string | null }) {
  const { t } = useTranslation('history');
  const at = (ts: number | null) => (ts ? t('stats.at', { time: formatInZone(ts, timeZone, 'MM-DD HH:mm') }) : '');
  return (
    <Card size="small" className="cw-his-stat" title={`${title} · ${t('stats.title')}`} extra={<span title={t('stats.weighted')}>ⓘ</span>}>
      <div className="cw-his-stat-row">
        <div>
          <div className="cw-his-stat-label">{t('stats.min')}</div>
          <div className="cw-his-stat-value" style={{ color: valueColor(stats.min, zoneMin, zoneMax) }}>
            {fmtValue(stats.min, 2)}
          </div>
          <div className="cw-his-stat-at">{at(stats.minTs)}</div>
        </div>
        <div>
          <div className="cw-his-stat-label">{t('stats.max')}</div>
          <div className="cw-his-stat-value" style={{ color: valueColor(stats.max, zoneMin, zoneMax) }}>
            {fmtValue(stats.max, 2)}
          </div>
          <div className="cw-his-stat-at">{at(stats.maxTs)}</div>
        </div>
        {(
          [
            ['avg', fmtValue(stats.avg, 2)],
            ['stdDev', fmtValue(stats.stdDev, 2)],
            ...(stats.mkt !== null ? [['mkt', fmtValue(stats.mkt, 2)]] : []),
            ['passRate', pct(stats.passRate)],
            ['count', String(stats.count)],
          ] as [string, string][]
        ).map(([k, v]) => (
          <div key={k}>
            <div className="cw-his-stat-label">{t(`stats.${k}`)}</div>
            <div className="cw-his-stat-value">{v}</div>
            <div className="cw-his-stat-at">&nbsp;</div>
          </div>
        ))}
      </div>
    </Card>
  );
}
