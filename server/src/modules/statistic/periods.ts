import type { StatisticPeriod } from '@coldwatch/contract';
import { offsetMinutes } from '../../alarm/excluded.js';

const DAY = 86_400_000;

/**
 * The boundaries of the periods of [start, end) in the customer's time zone, a fixed offset of
 * any minutes ('+05:45', spec §9): days from local midnight, weeks from Monday (ISO), calendar
 * months. The first and last period are cut to the range; without a period, the range is one.
 */
export function periodCuts(start: number, end: number, period: StatisticPeriod | undefined, tz: string): number[] {
  if (!period || start >= end) return [start, Math.max(start, end)];
  const off = offsetMinutes(tz) * 60_000;
  const cuts = [start];
  for (let t = nextBoundary(start, period, off); t < end; t = nextBoundary(t, period, off)) cuts.push(t);
  cuts.push(end);
  return cuts;
}

/** The first boundary of a period after t (UTC ms), local time being UTC + off. */
function nextBoundary(t: number, period: StatisticPeriod, off: number): number {
  const local = t + off;
  const day = Math.floor(local / DAY) * DAY;
  if (period === 'day') return day + DAY - off;
  if (period === 'week') {
    const sinceMonday = (new Date(day).getUTCDay() + 6) % 7;
    return day - sinceMonday * DAY + 7 * DAY - off;
  }
  const d = new Date(day);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - off;
}
