import { overlapMs, type Timeline } from './figures.js';

export const FIVE_MIN = 300_000;
export const HOUR = 3_600_000;

/**
 * Which parts of a range the rollups can answer exactly, and which the raw readings must
 * (docs/statistics.md "Rollups"). A bucket answers when it lies wholly in the range and in one
 * period, no invalid rule touches it, and it is rolled up (not pending). Hours first, then
 * 5-minute buckets at the edges (a period of a +05:45 zone starts at :15), raw readings for the
 * rest. Whether its readings straddle the zone is known only once the bucket is read (reject).
 */
export interface Plan {
  hours: number[];
  fives: number[];
  /** Half-open windows, in order, adjacent ones merged. */
  raw: [number, number][];
}

export function planRange(tl: Timeline, pending: ReadonlySet<number>): Plan {
  const out: Plan = { hours: [], fives: [], raw: [] };
  const fits = (b: number, len: number) => b + len <= tl.end && !cutInside(tl.cuts, b, b + len) && overlapMs(tl.excluded, b, b + len) === 0;
  for (let t = tl.start; t < tl.end; ) {
    if (t % HOUR === 0 && fits(t, HOUR) && !anyPending(pending, t)) {
      out.hours.push(t);
      t += HOUR;
    } else if (t % FIVE_MIN === 0 && fits(t, FIVE_MIN) && !pending.has(t)) {
      out.fives.push(t);
      t += FIVE_MIN;
    } else {
      const next = Math.min(tl.end, Math.floor(t / FIVE_MIN) * FIVE_MIN + FIVE_MIN);
      addRaw(out.raw, t, next);
      t = next;
    }
  }
  return out;
}

/** A planned bucket whose readings straddle the zone goes back to the raw readings. */
export function reject(p: Plan, bucket: number, len: number) {
  p.raw.push([bucket, bucket + len]);
  p.raw.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const w of p.raw) addRaw(merged, w[0], w[1]);
  p.raw = merged;
}

function addRaw(raw: [number, number][], a: number, b: number) {
  const last = raw[raw.length - 1];
  if (last && last[1] >= a) last[1] = Math.max(last[1], b);
  else raw.push([a, b]);
}

function anyPending(pending: ReadonlySet<number>, hour: number) {
  if (!pending.size) return false;
  for (let b = hour; b < hour + HOUR; b += FIVE_MIN) if (pending.has(b)) return true;
  return false;
}

/** Whether a period boundary lies strictly inside (a, b). */
function cutInside(cuts: readonly number[], a: number, b: number) {
  let lo = 0;
  let hi = cuts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cuts[mid] <= a) lo = mid + 1;
    else hi = mid;
  }
  return lo < cuts.length && cuts[lo] < b;
}
