/** Pure helpers of the history page: quick ranges, the server's statistics beside the points, the chart's point budget. */
import dayjs, { type Dayjs } from 'dayjs';
import type { HistoryPoint, HistoryResult, MeasureFigures } from '@coldwatch/contract';

/** A point of the contract's historyApi.history; the zone of its carrier. */
export type { HistoryPoint };
export type Zone = HistoryResult['zone'];

export type QuickRange = 'today' | 'h24' | 'week' | 'month' | 'quarter';
export const QUICK_RANGES: QuickRange[] = ['today', 'h24', 'week', 'month', 'quarter'];

/** Spec §9 quick ranges (last week, last month = 30 days, last three months = 90 days) plus today and 24 h. */
export function quickRange(kind: QuickRange, now: Dayjs = dayjs()): [Dayjs, Dayjs] {
  switch (kind) {
    case 'today':
      return [now.startOf('day'), now];
    case 'h24':
      return [now.subtract(24, 'hour'), now];
    case 'week':
      return [now.subtract(7, 'day'), now];
    case 'month':
      return [now.subtract(30, 'day'), now];
    case 'quarter':
      return [now.subtract(90, 'day'), now];
  }
}

export interface Stats {
  min: number | null;
  max: number | null;
  avg: number | null;
  stdDev: number | null;
  /** Temperature only. */
  mkt: number | null;
  passRate: number | null;
  count: number;
  minTs: number | null;
  maxTs: number | null;
}

/**
 * The span's figures as the server computed them over every reading (api/statistic.ts,
 * docs/statistics.md): time-weighted, invalid rules left out. The chart's points keep each
 * bucket's extremes, so they tell when the minimum and maximum happened; nothing else is taken
 * from them. Empty while the figures load or without a carrier.
 */
export function figureStats(m: MeasureFigures | null | undefined, points: HistoryPoint[], field: 'temp' | 'hum'): Stats {
  if (!m) return { min: null, max: null, avg: null, stdDev: null, mkt: null, passRate: null, count: 0, minTs: null, maxTs: null };
  const at = (v: number | null) => (v === null ? null : (points.find((p) => p[field] !== null && Math.abs((p[field] as number) - v) < 0.005)?.ts ?? null));
  return { min: m.min, max: m.max, avg: m.avg, stdDev: m.stdDev, mkt: m.mkt, passRate: m.passRate, count: m.readings, minTs: at(m.min), maxTs: at(m.max) };
}

/**
 * How many points to ask for: about two per horizontal pixel of the plot (the server keeps
 * min and max of each bucket, so two per bucket), bounded to a sane range.
 */
export function maxPointsForWidth(width: number): number {
  const w = Math.max(200, Math.floor(width || 0));
  return Math.min(5000, Math.max(400, w * 2));
}

/** Does the series carry humidity at all? */
export const hasHumidity = (points: HistoryPoint[]) => points.some((p) => p.hum !== null && p.hum !== undefined);
