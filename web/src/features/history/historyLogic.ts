/** Pure helpers of the history page: quick ranges, statistics, the chart's point budget. */
import dayjs, { type Dayjs } from 'dayjs';
import type { HistoryPoint, HistoryResult } from '@coldwatch/contract';

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
  count: number;
  minTs: number | null;
  maxTs: number | null;
}

/** min / max / average of one field over the points, ignoring missing values. */
export function seriesStats(points: HistoryPoint[], field: 'temp' | 'hum'): Stats {
  let min: number | null = null;
  let max: number | null = null;
  let minTs: number | null = null;
  let maxTs: number | null = null;
  let sum = 0;
  let count = 0;
  for (const p of points) {
    const v = p[field];
    if (v === null || v === undefined || typeof v !== 'number' || Number.isNaN(v)) continue;
    if (min === null || v < min) {
      min = v;
      minTs = p.ts;
    }
    if (max === null || v > max) {
      max = v;
      maxTs = p.ts;
    }
    sum += v;
    count += 1;
  }
  return { min, max, avg: count ? sum / count : null, count, minTs, maxTs };
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
