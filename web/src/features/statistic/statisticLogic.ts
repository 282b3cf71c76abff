/** Pure helpers of the statistics page, the history's figures, the home widget and the guidance ranking. */
import type { MeasureFigures, StatisticFigures, StatisticResult } from '@coldwatch/contract';
import { formatInZone } from '../../lib/format';
import type { ChartOption } from '../history/EChart';

/** The figures a chart can follow, per period. */
export const CHART_FIGURES = ['passRate', 'mkt', 'avg', 'offlineRate'] as const;
export type ChartFigure = (typeof CHART_FIGURES)[number];

/** A share 0–1 as a percentage with two decimals; null stays '--'. */
export const pct = (v: number | null | undefined) => (v === null || v === undefined ? '--' : `${(v * 100).toFixed(2)} %`);

/** A figure as a chart plots it: shares in per cent, values as they are. */
export const plotted = (m: MeasureFigures, f: ChartFigure) => {
  const v = m[f];
  if (v === null) return null;
  return f === 'passRate' || f === 'offlineRate' ? Math.round(v * 10_000) / 100 : Math.round(v * 100) / 100;
};

/** The period's label on the customer's wall clock: a day or a week by its first day, a month by its month. */
export const periodLabel = (p: Pick<StatisticFigures, 'start'>, period: 'day' | 'week' | 'month', tz: string | null) =>
  formatInZone(p.start, tz, period === 'month' ? 'YYYY-MM' : 'MM-DD');

/** One line per carrier of a figure over its periods (the x axis: the first carrier's periods, all share them). */
export function periodChart(rows: StatisticResult[], f: ChartFigure, period: 'day' | 'week' | 'month', tz: string | null, unit: string): ChartOption {
  const axis = (rows[0]?.periods ?? []).map((p) => periodLabel(p, period, tz));
  return {
    tooltip: { trigger: 'axis', valueFormatter: (v) => (v === null || v === undefined ? '--' : `${String(v)} ${unit}`) },
    legend: { type: 'scroll', top: 0 },
    grid: { left: 48, right: 24, top: 40, bottom: 32 },
    xAxis: { type: 'category', data: axis },
    yAxis: { type: 'value', scale: f !== 'passRate' && f !== 'offlineRate', name: unit },
    series: rows.map((r) => ({ type: 'line', name: r.name, connectNulls: false, data: (r.periods ?? []).map((p) => plotted(p.temp, f)) })),
  } as ChartOption;
}

/** What to look at first on a carrier, most pressing first (the guidance analysis). */
export type Concern = 'openExceptions' | 'passRate' | 'excursions' | 'offline' | 'calibration';

export interface CarrierHealth {
  carrierId: number;
  name: string;
  passRate: number | null;
  excursions: number;
  offlineRate: number | null;
  openExceptions: number;
  overdueCalibrations: number;
}

/**
 * How far a carrier is from good, 0 = good: each part is a share of its own "as bad as it gets"
 * (pass rate below 100 %, 5 excursions a week, all readings missing, 3 open exceptions, one overdue
 * calibration), weighted by what an inspector asks about first. Answers the score and the
 * concerns in order of their part, the first being the thing to look at.
 */
export function distance(h: CarrierHealth): { score: number; concerns: Concern[] } {
  const parts: [Concern, number][] = [
    ['openExceptions', 3 * Math.min(1, h.openExceptions / 3)],
    ['passRate', 3 * (h.passRate === null ? 0 : 1 - h.passRate)],
    ['excursions', 2 * Math.min(1, h.excursions / 5)],
    ['offline', 2 * (h.offlineRate ?? 0)],
    ['calibration', 2 * Math.min(1, h.overdueCalibrations)],
  ];
  const bad = parts.filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]);
  return { score: bad.reduce((s, [, v]) => s + v, 0), concerns: bad.map(([c]) => c) };
}
