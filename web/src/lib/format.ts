/**
 * Formatting shared by every page: times in the customer's zone, values and zones, and the
 * colour of a value against its zone (spec §9: above max orange, below min blue).
 */
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);

/** Shared with the server: one definition of where a value stands (packages/contract/src/board.ts). */
export { rangeState, RANGE_COLORS, type RangeState } from '@coldwatch/contract';

/**
 * Format a UTC ms time in a fixed offset ("+08:00", "-05:30"); without an offset, in the
 * browser's zone.
 */
export function formatInZone(ts: number | null | undefined, offset?: string | null, fmt = 'YYYY-MM-DD HH:mm:ss'): string {
  if (ts === null || ts === undefined) return '';
  const minutes = offsetMinutes(offset);
  if (minutes === null) return dayjs(ts).format(fmt);
  return dayjs(ts).utcOffset(minutes).format(fmt);
}

/** "+08:00" → 480, "-05:30" → -330; null when absent or malformed. */
export function offsetMinutes(offset?: string | null): number | null {
  const m = offset ? /^([+-])(\d{2}):?(\d{2})$/.exec(offset) : null;
  if (!m) return null;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/**
 * Date pickers work in the browser's zone. To let the user pick in the customer's zone, a
 * picker shows a "wall clock" dayjs whose local fields equal the time in that zone:
 * toWall(ts) for the picker's value, fromWall(picked) for the instant it means.
 */
export function toWall(ts: number, offset?: string | null): dayjs.Dayjs {
  const minutes = offsetMinutes(offset);
  if (minutes === null) return dayjs(ts);
  return dayjs(dayjs(ts).utcOffset(minutes).format('YYYY-MM-DDTHH:mm:ss.SSS'));
}

export function fromWall(d: dayjs.Dayjs, offset?: string | null): number {
  const minutes = offsetMinutes(offset);
  if (minutes === null) return d.valueOf();
  return Date.UTC(d.year(), d.month(), d.date(), d.hour(), d.minute(), d.second(), d.millisecond()) - minutes * 60_000;
}

/** Value text with one decimal, '--' when missing. */
export const fmtValue = (v: number | null | undefined, digits = 1) => (v === null || v === undefined ? '--' : v.toFixed(digits));

/** Zone text like "2.0 ~ 8.0", with open ends shown as "--". */
export const fmtZone = (min: number | null, max: number | null) => (min === null && max === null ? '' : `${fmtValue(min)} ~ ${fmtValue(max)}`);

/** A number with at most `digits` decimals and no trailing zeros ('--' when missing): 4.5, 4.25, 4. */
export const fmtNumber = (v: number | null | undefined, digits = 2) => (v === null || v === undefined ? '--' : String(Number(v.toFixed(digits))));

/** A file size for people: 512 B, 12.3 KB. */
export const formatSize = (bytes: number) => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`);

export type DurationUnit = 'd' | 'h' | 'm' | 's';
export interface DurationPart {
  unit: DurationUnit;
  n: number;
}

/**
 * A duration in seconds as its two largest non-zero units (1 d 3 h, 2 h 5 min, 45 s);
 * under one second → [{s: 0}].
 */
export function durationParts(seconds: number | null | undefined, maxParts = 2): DurationPart[] {
  const total = Math.max(0, Math.floor(seconds ?? 0));
  const units: [DurationUnit, number][] = [
    ['d', 86400],
    ['h', 3600],
    ['m', 60],
    ['s', 1],
  ];
  const parts: DurationPart[] = [];
  let rest = total;
  for (const [unit, size] of units) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0 && parts.length < maxParts) parts.push({ unit, n });
    else if (parts.length > 0 && parts.length < maxParts) break; // keep the two units adjacent
  }
  return parts.length ? parts : [{ unit: 's', n: 0 }];
}

/** Join the parts with localised unit labels: label(unit, n) → "3 h" / "3小时". */
export function formatDuration(seconds: number | null | undefined, label: (unit: DurationUnit, n: number) => string, sep = ' '): string {
  return durationParts(seconds)
    .map((p) => label(p.unit, p.n))
    .join(sep);
}
