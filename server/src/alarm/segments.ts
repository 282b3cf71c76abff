/**
 * The pure part of alarm evaluation: which readings are out of a zone, and how they group
 * into excursions ("runs"). No database here, so the orderings of back-filled readings can
 * be reasoned about (and tested) on plain arrays.
 *
 * Definition the whole evaluator keeps to: for one sensor and one category, an exception is
 * a maximal run of consecutive out-of-range readings (readings without a value for the
 * measured field are invisible to it). It starts at the first out-of-range reading, its peak
 * is the worst value in the run, and it ends at the first in-range reading after it (end_ts;
 * duration = end - start). A run with no in-range reading after it is ongoing. Because this
 * depends only on the set of readings, not on the order they arrived in, a back-filled
 * reading lands where it belongs: an excursion entirely in the past becomes a closed
 * exception, an out-of-range reading just before a run extends it backwards, an in-range
 * reading before a run leaves it alone.
 */

export type Field = 'temp' | 'hum';
export type DataCategory = 'temp_high' | 'temp_low' | 'hum_high' | 'hum_low';

export interface Rule {
  category: DataCategory;
  field: Field;
  /** +1: out when above `limit` (peak = max); -1: out when below `limit` (peak = min). */
  dir: 1 | -1;
  limit: number;
  /** The zone written on the exception record. */
  limitMin: number;
  limitMax: number;
}

export interface Zone {
  temp_min: number | null;
  temp_max: number | null;
  hum_min: number | null;
  hum_max: number | null;
}

/** The categories a carrier's zone defines; a measure without both bounds has no alarm. */
export function rulesFor(zone: Zone): Rule[] {
  const out: Rule[] = [];
  if (zone.temp_min !== null && zone.temp_max !== null) {
    const z = { limitMin: Number(zone.temp_min), limitMax: Number(zone.temp_max) };
    out.push({ category: 'temp_high', field: 'temp', dir: 1, limit: z.limitMax, ...z });
    out.push({ category: 'temp_low', field: 'temp', dir: -1, limit: z.limitMin, ...z });
  }
  if (zone.hum_min !== null && zone.hum_max !== null) {
    const z = { limitMin: Number(zone.hum_min), limitMax: Number(zone.hum_max) };
    out.push({ category: 'hum_high', field: 'hum', dir: 1, limit: z.limitMax, ...z });
    out.push({ category: 'hum_low', field: 'hum', dir: -1, limit: z.limitMin, ...z });
  }
  return out;
}

/**
 * Readings are stored as `real` (float4): compare in float4 on both sides so that a value
 * equal to the limit (8.1 against a limit of 8.10) is in range here and in SQL (`$n::real`).
 */
export const isOut = (rule: Rule, v: number) =>
  rule.dir > 0 ? Math.fround(v) > Math.fround(rule.limit) : Math.fround(v) < Math.fround(rule.limit);

export const worse = (rule: Rule, a: number, b: number) => (rule.dir > 0 ? Math.max(a, b) : Math.min(a, b));

/** SQL condition "this reading is out" for a rule; the limit is the parameter `$n`. */
export const outSql = (rule: Rule, n: number) => `${rule.field} ${rule.dir > 0 ? '>' : '<'} $${n}::real`;

export interface Point {
  ts: number;
  v: number;
}

/** A run of out-of-range readings, in ms. `end` is the first in-range reading after it; null = ongoing. */
export interface Run {
  start: number;
  first: number;
  peak: number;
  last: number;
  end: number | null;
}

/** The run that reaches the window from before: all readings between it and the window are out of range. */
export type Prefix = Omit<Run, 'end'> | null;

/** What follows the window: nothing yet, an in-range reading, or a run of out-of-range readings. */
export type Suffix = { kind: 'none' } | { kind: 'in'; ts: number } | ({ kind: 'out' } & Run);

/**
 * Runs over prefix + window + suffix, in time order. The window holds every reading of the
 * field in [min_ts, max_ts], old and new alike; prefix and suffix summarise the readings
 * right before and after it, so that a run crossing the window edge is counted whole.
 */
export function segment(rule: Rule, prefix: Prefix, window: Point[], suffix: Suffix): Run[] {
  const runs: Run[] = [];
  let cur: Omit<Run, 'end'> | null = prefix ? { ...prefix } : null;
  for (const p of window) {
    if (isOut(rule, p.v)) {
      if (cur) {
        cur.peak = worse(rule, cur.peak, p.v);
        cur.last = p.ts;
      } else cur = { start: p.ts, first: p.v, peak: p.v, last: p.ts };
    } else if (cur) {
      runs.push({ ...cur, end: p.ts });
      cur = null;
    }
  }
  if (suffix.kind === 'out') {
    if (cur) runs.push({ ...cur, peak: worse(rule, cur.peak, suffix.peak), last: suffix.last, end: suffix.end });
    else runs.push({ start: suffix.start, first: suffix.first, peak: suffix.peak, last: suffix.last, end: suffix.end });
  } else if (cur) {
    runs.push({ ...cur, end: suffix.kind === 'in' ? suffix.ts : null });
  }
  return runs;
}

/** An existing exception as the matcher sees it: the readings it covers are [start, last]. */
export interface Existing {
  id: number;
  start: number;
  last: number;
  ongoing: boolean;
}

export interface Plan {
  /** run index → existing exception id that becomes it (absent: insert a new one). */
  identity: Map<number, number>;
  /** Ongoing exceptions no run covers any more: to be closed before anything else is written. */
  close: Existing[];
}

const overlaps = (e: Existing, r: Run) => e.start <= r.last && e.last >= r.start;

/**
 * Matches recomputed runs to the exceptions already stored for the same span, keeping ids
 * (and with them handling, reason and notices) wherever a run and an exception share
 * readings. With an unchanged zone a stored exception only ever grows backwards, gains a
 * peak, closes, or splits in two (a back-filled in-range reading inside it): the first part
 * keeps the id, the rest is new. A zone change can make runs merge; then the ongoing one is
 * preferred so the one-ongoing-per-category index holds. Nothing is deleted: an exception a
 * user may have handled stays on record.
 */
export function plan(runs: Run[], existing: Existing[]): Plan {
  const used = new Set<number>();
  const identity = new Map<number, number>();
  const close = existing.filter((e) => e.ongoing && !runs.some((r) => overlaps(e, r)));
  for (const e of close) used.add(e.id);
  runs.forEach((r, i) => {
    const cands = existing.filter((e) => !used.has(e.id) && overlaps(e, r));
    const pick = (r.end === null ? cands.find((e) => e.ongoing) : undefined) ?? cands[0];
    if (pick) {
      used.add(pick.id);
      identity.set(i, pick.id);
    }
  });
  return { identity, close };
}
