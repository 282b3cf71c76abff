/**
 * The pure part of alarm evaluation: how a series of readings becomes exceptions. No database
 * here, so every transition, and the orderings of back-filled readings, can be reasoned about
 * (and tested) on plain arrays. docs/alarms.md "What an exception is" is the same definition in
 * prose.
 *
 * For one sensor (or carrier value) and one rule (temp_high, temp_low, hum_high, hum_low), with
 * a hysteresis margin m ≥ 0 and a delay d ≥ 0, each reading is
 *   - out: beyond the limit (as ever);
 *   - clear: inside the limit by at least the margin (high: v ≤ limit − m, low: v ≥ limit + m);
 *   - in the band otherwise: it keeps whatever state it finds (a Schmitt trigger), which is what
 *     stops a value hovering on the limit from opening an exception at every crossing.
 * A machine runs over the readings in time order:
 *   idle --out--> run (start, first, peak, last);
 *   run: a non-clear reading extends it (peak = worst, last = it); a clear reading c → ending(c);
 *   ending(c): a reading at ts ≥ c + d confirms the end at c (with d = 0 the clear reading itself
 *     does); an out reading before c + d merges back into the run (a crossing inside one
 *     excursion never opens another); an out reading at ts ≥ c + d closes the run at c and
 *     starts a new one.
 * A run is an exception only once it lasted the delay: (end, else the pending end c, else last)
 * − start ≥ d. Its record keeps the first out reading as start (what an inspector needs), first
 * and peak values, last (its last reading in run state) and end (null while unconfirmed:
 * ongoing). All of it depends on the SET of readings only, never on the order they arrived in.
 */

export type Field = 'temp' | 'hum';
export type DataCategory = 'temp_high' | 'temp_low' | 'hum_high' | 'hum_low';

export interface Rule {
  category: DataCategory;
  field: Field;
  /** +1: out when above `limit` (peak = max); -1: out when below `limit` (peak = min). */
  dir: 1 | -1;
  limit: number;
  /** Clear at or inside this value: the limit moved inward by the margin in force. */
  clear: number;
  /** The alarm delay, ms. */
  delay: number;
  /** The zone written on the exception record. */
  limitMin: number;
  limitMax: number;
}

/** A carrier's zone and alarm settings, as columns (migration 0034 adds margins and delay; absent means 0). */
export interface Zone {
  temp_min: number | null;
  temp_max: number | null;
  hum_min: number | null;
  hum_max: number | null;
  temp_margin?: number | null;
  hum_margin?: number | null;
  alarm_delay_s?: number | null;
}

/**
 * The margin in force: at most half the zone's width, so that a value exists that is clear of
 * both limits at once (a margin wider than that would keep one rule's run going forever).
 * `marginSql` is the same rule for the statements that judge windows in SQL (quiet.ts,
 * ingest/statements.ts); keep the two together.
 */
export const effectiveMargin = (min: number, max: number, margin: number) => Math.max(0, Math.min(margin, (max - min) / 2));
/** SQL of `effectiveMargin` over the carrier columns of alias `k` (numeric, so exact). */
export const marginSql = (field: Field, k = 'k') => `greatest(0, least(${k}.${field}_margin, (${k}.${field}_max - ${k}.${field}_min) / 2))`;

/** The categories a carrier's zone defines; a measure without both bounds has no alarm. */
export function rulesFor(zone: Zone): Rule[] {
  const out: Rule[] = [];
  const delay = Math.max(0, Number(zone.alarm_delay_s ?? 0)) * 1000;
  for (const field of ['temp', 'hum'] as const) {
    const lo = zone[`${field}_min`];
    const hi = zone[`${field}_max`];
    if (lo === null || hi === null) continue;
    const z = { limitMin: Number(lo), limitMax: Number(hi) };
    const m = effectiveMargin(z.limitMin, z.limitMax, Number(zone[`${field}_margin`] ?? 0));
    out.push({ category: `${field}_high`, field, dir: 1, limit: z.limitMax, clear: z.limitMax - m, delay, ...z });
    out.push({ category: `${field}_low`, field, dir: -1, limit: z.limitMin, clear: z.limitMin + m, delay, ...z });
  }
  return out;
}

/**
 * Readings are stored as `real` (float4): compare in float4 on both sides so that a value
 * equal to the limit (8.1 against a limit of 8.10) is in range here and in SQL (`$n::real`).
 */
export const isOut = (rule: Rule, v: number) =>
  rule.dir > 0 ? Math.fround(v) > Math.fround(rule.limit) : Math.fround(v) < Math.fround(rule.limit);
/** Inside by at least the margin (float4 too); with margin 0, exactly "not out". */
export const isClear = (rule: Rule, v: number) =>
  rule.dir > 0 ? Math.fround(v) <= Math.fround(rule.clear) : Math.fround(v) >= Math.fround(rule.clear);

export const worse = (rule: Rule, a: number, b: number) => (rule.dir > 0 ? Math.max(a, b) : Math.min(a, b));

/** SQL condition "this reading is out" for a rule; the limit is the parameter `$n`. */
export const outSql = (rule: Rule, n: number) => `${rule.field} ${rule.dir > 0 ? '>' : '<'} $${n}::real`;
/** SQL condition "this reading is clear" for a rule; `rule.clear` is the parameter `$n`. */
export const clearSql = (rule: Rule, n: number) => `${rule.field} ${rule.dir > 0 ? '<=' : '>='} $${n}::real`;

export interface Point {
  ts: number;
  v: number;
}

/** An excursion so far: first out reading, its value, the worst value, the last reading in run state (ms). */
export interface Open {
  start: number;
  first: number;
  peak: number;
  last: number;
}

/** An exception as the readings define it. `end` is the confirmed end (the clear reading); null = ongoing. */
export interface Run extends Open {
  end: number | null;
}

/** The machine's state after some readings: what the window's evaluation starts from. */
export type State = { kind: 'idle' } | { kind: 'run'; run: Open } | { kind: 'ending'; run: Open; c: number };
export const IDLE: State = { kind: 'idle' };

/** Whether the run of a state has lasted the delay (it is, or would be, an exception). */
export function qualifies(rule: Rule, s: State): boolean {
  if (s.kind === 'idle') return false;
  return (s.kind === 'ending' ? s.c : s.run.last) - s.run.start >= rule.delay;
}

/**
 * Runs the machine from `state` over `points` (time order). `runs` are the exceptions of the
 * runs it saw end or still open at the end (a run open at the start included), those shorter
 * than the delay left out; `state` is where it stands after the last point.
 */
export function evolve(rule: Rule, state: State, points: Point[]): { runs: Run[]; state: State } {
  const runs: Run[] = [];
  const close = (run: Open, end: number) => {
    if (end - run.start >= rule.delay) runs.push({ ...run, end });
  };
  let s: State = state.kind === 'idle' ? IDLE : { ...state, run: { ...state.run } };
  for (const p of points) {
    const out = isOut(rule, p.v);
    if (s.kind === 'ending' && p.ts >= s.c + rule.delay) {
      close(s.run, s.c);
      s = IDLE;
    }
    if (s.kind === 'idle') {
      if (out) s = { kind: 'run', run: { start: p.ts, first: p.v, peak: p.v, last: p.ts } };
    } else if (s.kind === 'ending') {
      if (out) s = { kind: 'run', run: { ...s.run, peak: worse(rule, s.run.peak, p.v), last: p.ts } };
    } else if (isClear(rule, p.v)) {
      if (rule.delay === 0) {
        close(s.run, p.ts);
        s = IDLE;
      } else s = { kind: 'ending', run: s.run, c: p.ts };
    } else {
      s = { kind: 'run', run: { ...s.run, peak: worse(rule, s.run.peak, p.v), last: p.ts } };
    }
  }
  if (qualifies(rule, s) && s.kind !== 'idle') runs.push({ ...s.run, end: null });
  return { runs, state: s };
}

/**
 * Exceptions over the window and what follows it, starting from the state before the window.
 * The window holds every reading of the field in [min_ts, max_ts], old and new alike; the
 * state before it and the readings after it (up to a settled one) are what the evaluator
 * loads around it, so a run crossing the window's edges is counted whole.
 */
export const segment = (rule: Rule, before: State, points: Point[]): Run[] => evolve(rule, before, points).runs;

/**
 * Settled readings. A reading t is settled when a clear reading c ≤ t − d precedes it with no
 * out reading in [c, t]: whatever came before, the machine is idle after t (any run had ended
 * at or before c, and t confirmed it). The evaluator recounts from the latest settled reading
 * before a window and reads ahead to the first settled one after it; both are judged here on
 * the readings given alone, so they hold whatever lies outside them.
 */
function settled(rule: Rule, points: Point[]): boolean[] {
  let clearSince: number | null = null;
  return points.map((p) => {
    if (isOut(rule, p.v)) {
      clearSince = null;
      return false;
    }
    if (clearSince === null && isClear(rule, p.v)) clearSince = p.ts;
    return clearSince !== null && clearSince <= p.ts - rule.delay;
  });
}

/** Index of the latest settled reading of `points` (time order), judged on them alone; -1 if none. */
export const lastSettled = (rule: Rule, points: Point[]) => settled(rule, points).lastIndexOf(true);
/** Index of the earliest settled reading of `points` (time order), judged on them alone; -1 if none. */
export const firstSettled = (rule: Rule, points: Point[]) => settled(rule, points).indexOf(true);

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
 * readings. With an unchanged zone a stored exception grows backwards, gains a peak, ends,
 * or splits in two (back-filled readings inside it): the first part keeps the id, the rest is
 * new. A zone change can make runs merge; then the ongoing one is preferred so the
 * one-ongoing-per-category index holds. Nothing is deleted: an exception a user may have
 * handled stays on record, even when back-filled readings show it lasted less than the delay.
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
