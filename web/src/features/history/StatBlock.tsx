/** One series' statistics over the span: min and max (coloured by the zone, with their time), average, count. */
import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { fmtValue, formatInZone, rangeState, RANGE_COLORS } from '../../lib/format';
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
    <Card size="small" className="cw-his-stat" title={`${title} · ${t('stats.title')}`}>
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
        <div>
          <div className="cw-his-stat-label">{t('stats.avg')}</div>
          <div className="cw-his-stat-value">{fmtValue(stats.avg, 2)}</div>
          <div className="cw-his-stat-at">&nbsp;</div>
        </div>
        <div>
          <div className="cw-his-stat-label">{t('stats.count')}</div>
          <div className="cw-his-stat-value">{stats.count}</div>
          <div className="cw-his-stat-at">&nbsp;</div>
        </div>
      </div>
    </Card>
  );
}
