/** Pure helpers of the exception list: duration, value against limits. */

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

/** Seconds of an exception: its recorded duration, or for an ongoing one the time since start. */
export function exceptionSeconds(row: { ongoing: boolean; startTs: number; endTs?: number | null; durationS?: number | null }, now = Date.now()): number {
  if (!row.ongoing && row.durationS !== null && row.durationS !== undefined) return row.durationS;
  const end = row.ongoing ? now : (row.endTs ?? now);
  return Math.max(0, Math.round((end - row.startTs) / 1000));
}

/** Unit of a category's values. */
export function categoryUnit(category: string): string {
  if (category.startsWith('temp')) return '°C';
  if (category.startsWith('hum')) return '%RH';
  return '';
}

/** Does the category carry a measured value (data exception) or not (connection, power)? */
export const isDataCategory = (category: string) => category.startsWith('temp') || category.startsWith('hum');

/** Window of history to show around an exception: 1 h before its start to 1 h after its end (or now). */
export function historyWindow(row: { startTs: number; endTs?: number | null; ongoing: boolean }, now = Date.now()): [number, number] {
  const pad = 60 * 60 * 1000;
  const end = row.ongoing || !row.endTs ? now : Math.min(now, row.endTs + pad);
  return [row.startTs - pad, end];
}
