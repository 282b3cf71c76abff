import { translate, type MeasureFigures } from '@coldwatch/contract';
import { localTime } from '../../modules/backup/sceneExport.js';
import { statistics } from '../../modules/statistic/statistic.repository.js';
import { aboutSheet, col, dataScope, type Producer } from './context.js';

/*
 * Carriers' statistics over a span (docs/statistics.md), computed by the statistic module as its
 * page does: one row per carrier and measure for the whole span, then one per day.
 */

const r2 = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);
const pct = (v: number | null) => (v === null ? null : Math.round(v * 10_000) / 100);

export const exportStatistics: Producer = async (ctx, out, format) => {
  const c = ctx.criteria as { carrierIds: number[]; start: number; end: number };
  const L = ctx.locale;
  const results = [];
  for (const [i, id] of c.carrierIds.entries()) {
    ctx.checkpoint();
    results.push(...(await statistics(ctx.db, dataScope(ctx), [id], c.start, c.end, { period: 'day' })));
    ctx.progress((i + 1) / c.carrierIds.length);
    await out.breathe();
  }
  const tz = results[0]?.tz ?? '+08:00';
  const t = (k: string) => col(L, k, tz);
  out.sheet(translate('errors.export.sheet.statistic', L), [t('carrier'), t('period'), t('type'), t('readings'), t('min'), t('max'), t('avg'), t('stdDev'), t('mkt'), t('passRate'), t('inZone'), t('excursions'), t('offlineRate')], [24, 36, 10, 10, 10, 10, 10, 10, 10, 12, 12, 10, 12]);
  let rows = 0;
  const line = (name: string, period: string, measure: 'temp' | 'hum', f: MeasureFigures) => {
    out.row([name, period, t(measure), f.readings, r2(f.min), r2(f.max), r2(f.avg), r2(f.stdDev), measure === 'temp' ? r2(f.mkt) : null, pct(f.passRate), f.timeInZoneS === null ? null : Math.round(f.timeInZoneS / 60), f.excursions, pct(f.offlineRate)]);
    rows++;
  };
  for (const r of results) {
    const span = (s: { start: number; end: number }) => `${localTime(s.start, r.tz)} – ${localTime(s.end, r.tz)}`;
    for (const s of [r.summary, ...(r.periods ?? [])]) {
      line(r.name, span(s), 'temp', s.temp);
      if (s.hum) line(r.name, span(s), 'hum', s.hum);
    }
  }
  aboutSheet(ctx, out, format, tz, [
    ['subject', String(ctx.criteria.subject ?? '')],
    ['span', `${localTime(c.start, tz)} – ${localTime(c.end, tz)}`],
    ['rows', rows],
  ]);
  return rows;
};
