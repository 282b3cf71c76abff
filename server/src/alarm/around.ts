import { IDLE, evolve, firstSettled, isClear, isOut, lastSettled, qualifies, worse, type Point, type Rule, type State } from './segments.js';

/**
 * What surrounds a window: the machine's state before it and the readings after it that its
 * readings can still change (segments.ts). Shared by the sensor path (evaluator.ts, readings in
 * SQL) and the carrier-value path (carrier.ts, a series computed from its sensors), which each
 * supply their readings as a Reach and their stored exceptions as a Lookup.
 *
 * Before the window the state is certain after the latest SETTLED reading (a clear reading
 * c ≤ t − d with nothing out in [c, t]), so it is recounted from there when the readings
 * loaded first contain one (the common case: a sensor in range). Otherwise the stored
 * exceptions summarise the excursion (the normal append during a long excursion, or its
 * pending end), and only when they cannot (back-fill into an exception, readings seen with the
 * alarm off) are more readings loaded back to a settled one. After the window, the readings up
 * to the first one settled on its own: beyond it nothing depends on the window.
 */

/** Readings of one field on one side of a window, loaded as far as they are asked for. */
export interface Reach {
  /** Time order. Before a window: the latest ones before it; after: the first ones after it. */
  readonly points: Point[];
  /** Nothing more on that side (or beyond the look-around). */
  readonly complete: boolean;
  /** Loads more, farther from the window. */
  more(): Promise<void>;
  /** Before a window: loads every reading from `t` on (at most as far as the look-around goes). */
  reach(t: number): Promise<void>;
}

/** A stored exception of the rule, as the machine needs it (ms). */
export interface Stored {
  start: number;
  first: number;
  peak: number;
  last: number;
  end: number | null;
  ongoing: boolean;
}

/**
 * The stored exceptions around the last reading p before a window: the rule's latest exception
 * starting at or before p, and the first out reading in [p − 2d, p] (asked only when no
 * exception decides; the sensor path reads both in one statement).
 */
export type Lookup = (rule: Rule, p: number) => Promise<{ latest: Stored | null; firstOut: () => Promise<number | null> }>;

/** The exact state from the loaded readings alone, when they reach a settled reading or the start of the data. */
function fromReadings(rule: Rule, before: Reach): State | null {
  const i = lastSettled(rule, before.points);
  if (i >= 0) return evolve(rule, IDLE, before.points.slice(i + 1)).state;
  return before.complete ? evolve(rule, IDLE, before.points).state : null;
}

/**
 * The state from the stored exceptions, or null when they do not decide it. `p` is the last
 * reading before the window and the readings before it were evaluated, so the exceptions
 * reflect them: a run going on at p that has lasted the delay is stored, and one that has not
 * began less than 2d before p (an ending run ends less than d after its clear reading).
 */
async function fromStored(rule: Rule, before: Reach, lookup: Lookup, p: Point): Promise<State | null> {
  const { latest: e, firstOut } = await lookup(rule, p.ts);
  if (e && (e.ongoing || e.last >= p.ts || (e.end !== null && e.end > p.ts - rule.delay))) {
    const run = { start: e.start, first: e.first, peak: e.peak, last: e.last };
    // The excursion goes on at p: the live append during an excursion.
    if (e.last === p.ts && !isClear(rule, p.v)) return { kind: 'run', run: { ...run, peak: worse(rule, e.peak, p.v) } };
    // Its end is pending: the reading after its last one was clear, nothing since was out, and the delay has not passed.
    if (e.ongoing && e.last < p.ts) {
      await before.reach(e.last);
      const since = before.points.filter((x) => x.ts > e.last);
      const c = since[0];
      if (c && isClear(rule, c.v) && !since.some((x) => isOut(rule, x.v)) && p.ts < c.ts + rule.delay) return { kind: 'ending', run, c: c.ts };
    }
    // Readings back-filled into it: recounted.
    return null;
  }
  // No stored excursion at p: at most a run shorter than the delay, begun within 2d.
  const o = await firstOut();
  if (o === null) return IDLE;
  await before.reach(o);
  const s = evolve(rule, IDLE, before.points.filter((x) => x.ts >= o)).state;
  // One that has lasted the delay should have been stored: the readings were not evaluated (alarm off), recount.
  return qualifies(rule, s) ? null : s;
}

/** The machine's state right before the window. */
export async function stateBefore(rule: Rule, before: Reach, lookup: Lookup): Promise<State> {
  let asked = false;
  for (;;) {
    const exact = fromReadings(rule, before);
    if (exact) return exact;
    if (!asked && before.points.length) {
      asked = true;
      const stored = await fromStored(rule, before, lookup, before.points[before.points.length - 1]);
      if (stored) return stored;
    }
    await before.more();
  }
}

/** The readings after the window that its readings can change: up to the first one settled on its own. */
export async function readAhead(rule: Rule, after: Reach): Promise<Point[]> {
  for (;;) {
    const j = firstSettled(rule, after.points);
    if (j >= 0) return after.points.slice(0, j + 1);
    if (after.complete) return after.points;
    await after.more();
  }
}
