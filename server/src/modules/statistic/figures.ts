import { KELVIN, MKT_DH_DEFAULT, type MeasureFigures } from '@coldwatch/contract';
import type { ExcludedSpan } from '../../alarm/excluded.js';

/*
 * The statistics' arithmetic (docs/statistics.md), pure: a measure's series is a step function,
 * each reading holding its value until the next reading (the last one until the end of the
 * range). A span's figures integrate it over the span minus the excluded time (invalid rules):
 * the weight of a reading is the part of its step inside the span that no rule excludes.
 * Readings inside an excluded span are dropped before they get here. Everything is a sum, so
 * the periods add up to the whole range, and a rollup bucket's sums stand for its readings.
 */

/** Time-weighted sums of one measure over one span (weights in seconds). */
export interface Acc {
  n: number;
  min: number | null;
  max: number | null;
  w: number;
  sw: number;
  sw2: number;
  /** Σ w·exp(−ΔH/R / T): the MKT sum at the carrier's ΔH/R. */
  sk: number;
  inZone: number;
}

export const emptyAcc = (): Acc => ({ n: 0, min: null, max: null, w: 0, sw: 0, sw2: 0, sk: 0, inZone: 0 });

export function mergeAcc(into: Acc, a: Acc) {
  into.n += a.n;
  if (a.min !== null) into.min = into.min === null ? a.min : Math.min(into.min, a.min);
  if (a.max !== null) into.max = into.max === null ? a.max : Math.max(into.max, a.max);
  into.w += a.w;
  into.sw += a.sw;
  into.sw2 += a.sw2;
  into.sk += a.sk;
  into.inZone += a.inZone;
}

/** The carrier's zone of one measure; a missing side is no limit, both missing is no zone. */
export interface Zone {
  lo: number | null;
  hi: number | null;
}
export const hasZone = (z: Zone) => z.lo !== null || z.hi !== null;
/** In the zone, limits included, compared as float4 as the alarms compare them (alarm/segments.ts). */
export const inZone = (z: Zone, v: number) => (z.lo === null || Math.fround(v) >= Math.fround(z.lo)) && (z.hi === null || Math.fround(v) <= Math.fround(z.hi));

/** The MKT term; the SQL of the rollups (ingest/rollup.ts mktTermSql) computes the same. */
export const mktTerm = (dh: number, v: number) => (v > -KELVIN ? Math.exp(-dh / (v + KELVIN)) : 0);

/** Measure of [a, b) ∩ spans (sorted, merged), in ms: a binary search, then the spans inside. */
export function overlapMs(spans: readonly ExcludedSpan[], a: number, b: number): number {
  if (!spans.length || a >= b) return 0;
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid].end <= a) lo = mid + 1;
    else hi = mid;
  }
  let total = 0;
  for (let i = lo; i < spans.length && spans[i].start < b; i++) total += Math.min(b, spans[i].end) - Math.max(a, spans[i].start);
  return total;
}

/**
 * The range cut into periods: `cuts` are their boundaries, the first the range's start and the
 * last its end (one period without `period`). Shared by every measure of a carrier.
 */
export class Timeline {
  constructor(
    readonly cuts: readonly number[],
    readonly excluded: readonly ExcludedSpan[],
  ) {}
  get start() {
    return this.cuts[0];
  }
  get end() {
    return this.cuts[this.cuts.length - 1];
  }
  get periods() {
    return this.cuts.length - 1;
  }
  /** The period holding ts (start ≤ ts < end). */
  periodOf(ts: number): number {
    let lo = 0;
    let hi = this.cuts.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.cuts[mid] <= ts) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
  /** [a, b) split by the periods, less the excluded time: (period, seconds) for each part that weighs. */
  *pieces(a: number, b: number): Generator<[number, number]> {
    for (let p = this.periodOf(a); p < this.periods && this.cuts[p] < b; p++) {
      const x = Math.max(a, this.cuts[p]);
      const y = Math.min(b, this.cuts[p + 1]);
      const ms = y - x - overlapMs(this.excluded, x, y);
      if (ms > 0) yield [p, ms / 1000];
    }
  }
}

/** A rollup bucket of one measure as the statistics read it (ingest/rollup.ts, migration 0038). */
export interface Tile {
  t0: number;
  t1: number;
  last: number;
  sw: number;
  sw2: number;
  sk: number;
  min: number;
  max: number;
  n: number;
}

/** Whether every reading of a bucket is in the zone (true), out of it (false), or some of each (null: read the raw readings). */
export function tileZone(z: Zone, min: number, max: number): boolean | null {
  if (inZone(z, min) && inZone(z, max)) return true;
  if ((z.lo !== null && Math.fround(max) < Math.fround(z.lo)) || (z.hi !== null && Math.fround(min) > Math.fround(z.hi))) return false;
  return null;
}

/**
 * One measure's walk through its series in time order: raw readings and rollup tiles (a tile
 * lies within one period, outside every excluded span, and wholly in or out of the zone, which
 * the planner sees to). Each step's weight goes to the periods it covers.
 */
export class MeasureWalk {
  readonly accs: Acc[];
  private prev: { ts: number; v: number } | null = null;

  constructor(
    private tl: Timeline,
    private zone: Zone,
    private dh: number,
  ) {
    this.accs = Array.from({ length: tl.periods }, emptyAcc);
  }

  private hold(until: number) {
    if (!this.prev) return;
    const { ts, v } = this.prev;
    const term = mktTerm(this.dh, v);
    const zoned = inZone(this.zone, v);
    for (const [p, w] of this.tl.pieces(ts, until)) {
      const a = this.accs[p];
      a.w += w;
      a.sw += w * v;
      a.sw2 += w * v * v;
      a.sk += w * term;
      if (zoned) a.inZone += w;
    }
  }

  private seen(a: Acc, min: number, max: number, n: number) {
    a.n += n;
    a.min = a.min === null ? min : Math.min(a.min, min);
    a.max = a.max === null ? max : Math.max(a.max, max);
  }

  point(ts: number, v: number) {
    this.hold(ts);
    this.seen(this.accs[this.tl.periodOf(ts)], v, v, 1);
    this.prev = { ts, v };
  }

  /** A bucket's sums (at the default ΔH/R: the planner sends none for another). */
  tile(t: Tile, allIn: boolean) {
    if (this.dh !== MKT_DH_DEFAULT) throw new Error('rollup MKT sums are at the default ΔH/R');
    this.hold(t.t0);
    const a = this.accs[this.tl.periodOf(t.t0)];
    const w = (t.t1 - t.t0) / 1000;
    a.w += w;
    a.sw += t.sw;
    a.sw2 += t.sw2;
    a.sk += t.sk;
    if (allIn) a.inZone += w;
    this.seen(a, t.min, t.max, t.n);
    this.prev = { ts: t.t1, v: t.last };
  }

  finish() {
    this.hold(this.tl.end);
    this.prev = null;
  }
}

/** What a span's figures need besides its sums. */
export interface SpanFacts {
  /** Seconds of the span under invalid rules. */
  excludedS: number;
  /** Readings the sensors should have taken in the span's time that no rule excludes. */
  expected: number;
  /** Readings they took there (each sensor counted up to its expected number). */
  taken: number;
  excursions: number;
  excursionS: number;
}

/** The figures of one span; nulls where nothing weighs (never a division by zero). */
export function figures(a: Acc, facts: SpanFacts, zone: Zone, mktDh: number | null): MeasureFigures {
  const weighed = a.w > 0;
  const avg = weighed ? a.sw / a.w : null;
  const stdDev = avg !== null ? Math.sqrt(Math.max(0, a.sw2 / a.w - avg * avg)) : null;
  const mkt = mktDh !== null && weighed && a.sk > 0 ? mktDh / -Math.log(a.sk / a.w) - KELVIN : null;
  const zoned = hasZone(zone) && weighed;
  return {
    min: a.min,
    max: a.max,
    avg,
    stdDev,
    mkt,
    passRate: zoned ? a.inZone / a.w : null,
    timeInZoneS: zoned ? a.inZone : null,
    offlineRate: facts.expected > 0 ? Math.min(1, Math.max(0, 1 - facts.taken / facts.expected)) : null,
    excursions: facts.excursions,
    excursionS: facts.excursionS,
    readings: a.n,
    excludedS: facts.excludedS,
  };
}
