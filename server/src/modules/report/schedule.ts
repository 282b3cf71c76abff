import type { ReportSchedule } from '@coldwatch/contract';
import { offsetMinutes } from '../../alarm/excluded.js';

/*
 * The periods of scheduled reports in the customer's time zone (a fixed offset, spec §9): a day
 * from local midnight, a week from Monday (ISO), a calendar month. A period's report is made once
 * it is over and SCHEDULE_DELAY_MS more have passed, for readings that arrive late (a gateway
 * that was offline sends its buffer) to be in it.
 */

export const SCHEDULE_DELAY_MS = 15 * 60_000;
const DAY = 86_400_000;

/** The start of the period holding t (UTC ms), the zone's local time being UTC + off. */
function periodStart(t: number, schedule: Exclude<ReportSchedule, 'none'>, off: number): number {
  const day = Math.floor((t + off) / DAY) * DAY;
  if (schedule === 'daily') return day - off;
  if (schedule === 'weekly') return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY - off;
  const d = new Date(day);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) - off;
}

/** The period before the one holding t. */
function previousStart(start: number, schedule: Exclude<ReportSchedule, 'none'>, off: number): number {
  if (schedule === 'daily') return start - DAY;
  if (schedule === 'weekly') return start - 7 * DAY;
  return periodStart(start - 1, schedule, off);
}

/** The last period that is over at `now` (its end at or before now − the delay). */
export function lastPeriod(schedule: Exclude<ReportSchedule, 'none'>, now: number, tz: string): { start: number; end: number } {
  const off = offsetMinutes(tz) * 60_000;
  const end = periodStart(now - SCHEDULE_DELAY_MS, schedule, off);
  return { start: previousStart(end, schedule, off), end };
}
