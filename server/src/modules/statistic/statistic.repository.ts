import { carrierSeries, MKT_DH_DEFAULT, sensorMeasuresHumidity, type MeasureFigures, type SampleMode, type SensorType, type StatisticFigures, type StatisticPeriod, type StatisticResult } from '@coldwatch/contract';
import type { Db, Queryable } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import type { Scope } from '../../platform/auth/scope.js';
import { excludedSpans, isExcluded, type ExcludedSpan } from '../../alarm/excluded.js';
import { emptyAcc, figures, MeasureWalk, mergeAcc, overlapMs, tileZone, Timeline, type Acc, type SpanFacts, type Zone } from './figures.js';
import { periodCuts } from './periods.js';
import { FIVE_MIN, HOUR, planRange, reject, type Plan } from './plan.js';
import { excursions, latestBefore, pendingBuckets, rawReadings, rollupRows, statSensors, type Excursion, type RawReading, type RollupRow, type StatSensor } from './readings.js';

/*
 * Statistics of carriers over a range (issue 29, docs/statistics.md). A carrier judged on one
 * sensor reads the rollups where a bucket answers exactly and the raw readings elsewhere
 * (plan.ts); a carrier judged on several (its sample mode's series, as its alarms are) or with
 * its own ΔH/R reads the raw readings. Both give the same figures: statistic.rollup.test.ts.
 * Everything is read in one REPEATABLE READ transaction, so a rollup pass finishing meanwhile
 * cannot make a bucket count twice or not at all.
 */

type Measure = 'temp' | 'hum';
const MEASURES: Measure[] = ['temp', 'hum'];

export interface StatisticOptions {
  period?: StatisticPeriod;
  /** False: raw readings only (the test's reference path). */
  rollups?: boolean;
  /** The present (tests pin it): a range is cut there, nothing weighs in the future. */
  now?: number;
}

interface Carrier {
  id: number;
  name: string;
  customerId: number;
  tz: string;
  mode: SampleMode;
  mktDh: number;
  zone: { tempMin: number | null; tempMax: number | null; humMin: number | null; humMax: number | null };
}

/** The carriers of these ids the caller may see, in the order asked (the others are left out: a foreign carrier is a missing one). */
async function carriersInScope(q: Queryable, scope: Scope, ids: readonly number[]): Promise<Carrier[]> {
  const rows = await scoped(q, scope)
    .selectFrom('carrier as c')
    .innerJoin('customer as cu', 'cu.id', 'c.customer_id')
    .select(['c.id', 'c.name', 'c.customer_id', 'cu.time_zone', 'c.sample_mode', 'c.mkt_dh', 'c.temp_min', 'c.temp_max', 'c.hum_min', 'c.hum_max'])
    .where('c.id', 'in', [...ids])
    .where((eb) => sceneLimit(eb, scope, 'carrier', 'c'))
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    return [
      {
        id: r.id,
        name: r.name,
        customerId: r.customer_id,
        tz: r.time_zone,
        mode: r.sample_mode as SampleMode,
        mktDh: r.mkt_dh,
        zone: { tempMin: r.temp_min, tempMax: r.temp_max, humMin: r.hum_min, humMax: r.hum_max },
      },
    ];
  });
}

export async function statistics(db: Db, scope: Scope, ids: readonly number[], start: number, end: number, o: StatisticOptions = {}): Promise<StatisticResult[]> {
  return db.tx(async (q) => {
    await q.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    const carriers = await carriersInScope(q, scope, ids);
    if (!carriers.length) return [];
    // Nothing weighs in the future: the range is cut at the present.
    const stop = Math.max(start, Math.min(end, o.now ?? Date.now()));
    const cids = carriers.map((c) => c.id);
    const [sensors, excluded, exc] = await Promise.all([statSensors(q, cids), excludedSpans(q, cids, start, stop), excursions(q, cids, start, stop)]);
    const ctx = carriers.map((c) => {
      const own = sensors.filter((s) => s.carrierId === c.id);
      const tl = new Timeline(periodCuts(start, stop, o.period, c.tz), excluded.get(c.id) ?? []);
      // One sensor at the default ΔH/R: its rollups can answer. Several: the sample mode's series, from the raw readings.
      const tiled = o.rollups !== false && own.length === 1 && c.mktDh === MKT_DH_DEFAULT;
      return { c, own, tl, tiled, plan: { hours: [], fives: [], raw: [[start, stop]] } as Plan, rows: [] as RollupRow[] };
    });
    const tiledIds = ctx.filter((x) => x.tiled).map((x) => x.own[0].id);
    const pending = await pendingBuckets(q, tiledIds, start, stop);
    for (const x of ctx) if (x.tiled) x.plan = planRange(x.tl, pending.get(x.own[0].id) ?? new Set());
    await readTiles(q, ctx);
    const raw = await rawReadings(
      q,
      ctx.flatMap((x) => x.own.flatMap((s) => x.plan.raw.map(([a, b]) => ({ sensorId: s.id, customerId: x.c.customerId, a, b })))),
    );
    const bySensor = new Map<number, RawReading[]>();
    // Appended in place: copying the list at each reading made a year's raw readings cost seconds (quadratic).
    for (const r of raw) {
      const list = bySensor.get(r.sensorId);
      if (list) list.push(r);
      else bySensor.set(r.sensorId, [r]);
    }
    const out: StatisticResult[] = [];
    for (const x of ctx) {
      const hum = x.own.some((s) => sensorMeasuresHumidity(s.type as SensorType));
      const per = new Map<Measure, { accs: Acc[]; taken: number[][] }>();
      for (const m of MEASURES) {
        if (m === 'hum' && !hum) continue;
        per.set(m, await walkMeasure(q, x, m, bySensor));
      }
      const measureAt = (m: Measure, span: [number, number], accs: Acc[], taken: number[]): MeasureFigures => {
        const acc = emptyAcc();
        for (const a of accs) mergeAcc(acc, a);
        return figures(acc, facts(x.c, x.own, x.tl.excluded, exc, m, span, taken), zoneOf(x.c, m), m === 'temp' ? x.c.mktDh : null);
      };
      const spanFigures = (span: [number, number], accs: (m: Measure) => Acc[], taken: (m: Measure) => number[]): StatisticFigures => ({
        start: span[0],
        end: span[1],
        temp: measureAt('temp', span, accs('temp'), taken('temp')),
        hum: per.has('hum') ? measureAt('hum', span, accs('hum'), taken('hum')) : null,
      });
      const all = (m: Measure) => per.get(m)?.accs ?? [];
      // Each sensor's readings over the whole range: the sum of its periods'.
      const sumTaken = (m: Measure) => x.own.map((_, i) => (per.get(m)?.taken ?? []).reduce((t, p) => t + (p[i] ?? 0), 0));
      const summary = spanFigures([x.tl.start, x.tl.end], all, sumTaken);
      const periods = o.period
        ? Array.from({ length: x.tl.periods }, (_, p) =>
            spanFigures([x.tl.cuts[p], x.tl.cuts[p + 1]], (m) => [all(m)[p]], (m) => per.get(m)?.taken[p] ?? []),
          )
        : undefined;
      out.push({
        carrierId: x.c.id,
        name: x.c.name,
        tz: x.c.tz,
        mktDh: x.c.mktDh,
        zone: x.c.zone,
        fromRollups: x.rows.length > 0,
        summary,
        ...(periods ? { periods } : {}),
      });
    }
    return out;
  });
}

type Ctx = { c: Carrier; own: StatSensor[]; tl: Timeline; tiled: boolean; plan: Plan; rows: RollupRow[] };

/** Reads the planned buckets; one whose readings straddle a zone limit goes back to the raw readings. */
async function readTiles(q: Queryable, ctx: Ctx[]) {
  const keys = (len: '1h' | '5m') =>
    ctx.filter((x) => x.tiled).flatMap((x) => (len === '1h' ? x.plan.hours : x.plan.fives).map((bucket) => ({ sensorId: x.own[0].id, customerId: x.c.customerId, bucket })));
  const [hours, fives] = await Promise.all([rollupRows(q, '1h', keys('1h')), rollupRows(q, '5m', keys('5m'))]);
  const bySensor = new Map(ctx.filter((x) => x.tiled).map((x) => [x.own[0].id, x]));
  for (const [rows, len] of [
    [hours, HOUR],
    [fives, FIVE_MIN],
  ] as const) {
    for (const r of rows) {
      const x = bySensor.get(r.sensorId)!;
      const straddles = MEASURES.some((m) => r[m] !== null && tileZone(zoneOf(x.c, m), r[m]!.min, r[m]!.max) === null);
      if (straddles) reject(x.plan, r.bucket, len);
      else x.rows.push(r);
    }
  }
  for (const x of ctx) x.rows.sort((a, b) => a.bucket - b.bucket);
}

const zoneOf = (c: Carrier, m: Measure): Zone => (m === 'temp' ? { lo: c.zone.tempMin, hi: c.zone.tempMax } : { lo: c.zone.humMin, hi: c.zone.humMax });

/**
 * One measure of one carrier: its series (the sensor's readings and buckets, or the sample
 * mode's series of several) walked in time order. Answers the sums per period and, per period,
 * each sensor's readings of the measure (for the offline rate).
 */
async function walkMeasure(q: Queryable, x: Ctx, m: Measure, bySensor: Map<number, RawReading[]>): Promise<{ accs: Acc[]; taken: number[][] }> {
  const zone = zoneOf(x.c, m);
  const walk = new MeasureWalk(x.tl, zone, x.c.mktDh);
  const spans = x.tl.excluded;
  const taken = Array.from({ length: x.tl.periods }, () => x.own.map(() => 0));
  const samples = x.own.map((s) =>
    (bySensor.get(s.id) ?? []).filter((r) => r[m] !== null && !isExcluded(spans, r.ts)).map((r) => ({ ts: r.ts, value: r[m]! })),
  );
  samples.forEach((list, i) => list.forEach((p) => taken[x.tl.periodOf(p.ts)][i]++));
  if (x.own.length === 1) {
    // The sensor's readings and its buckets, merged in time order (they never overlap in time).
    const tiles = x.rows.flatMap((r) => (r[m] ? [r[m]!] : []));
    const points = samples[0];
    let i = 0;
    for (const t of tiles) {
      for (; i < points.length && points[i].ts < t.t0; i++) walk.point(points[i].ts, points[i].value);
      walk.tile(t, tileZone(zone, t.min, t.max) === true);
      taken[x.tl.periodOf(t.t0)][0] += t.n;
    }
    for (; i < points.length; i++) walk.point(points[i].ts, points[i].value);
  } else if (x.own.length > 1) {
    const before = await latestBefore(q, m, x.own.map((s) => s.id), x.c.customerId, x.tl.start);
    const series = carrierSeries(
      x.c.mode,
      x.own.map((s, i) => {
        const b = before.find((r) => r.id === s.id);
        return { staleMs: s.staleMs, samples: samples[i], before: b ? { ts: b.ts, value: b.v } : null };
      }),
      x.tl.start,
    );
    for (const p of series) if (!isExcluded(spans, p.ts)) walk.point(p.ts, p.value);
  }
  walk.finish();
  return { accs: walk.accs, taken };
}

/**
 * What a span's figures take besides the sums: its excluded time, the readings its sensors
 * should have taken (each at its sample interval, over the time no rule excludes) and took
 * (each sensor counted up to its share), and the carrier's excursions of the measure in it.
 */
function facts(c: Carrier, own: StatSensor[], spans: readonly ExcludedSpan[], exc: Excursion[], m: Measure, [a, b]: [number, number], taken: number[]): SpanFacts {
  const excludedMs = overlapMs(spans, a, b);
  const open = (b - a - excludedMs) / 1000;
  const measuring = own.map((s) => m === 'temp' || sensorMeasuresHumidity(s.type as SensorType));
  let expected = 0;
  let took = 0;
  own.forEach((s, i) => {
    if (!measuring[i]) return;
    const e = open / s.intervalS;
    expected += e;
    took += Math.min(e, taken[i] ?? 0);
  });
  let count = 0;
  let seconds = 0;
  for (const e of exc) {
    if (e.carrierId !== c.id || e.measure !== m) continue;
    const x = Math.max(a, e.start);
    const y = Math.min(b, e.end ?? b);
    const inside = y - x - overlapMs(spans, x, y);
    if (inside > 0 || (x === y && x >= a && x < b && !isExcluded(spans, x))) {
      count++;
      seconds += Math.max(0, inside) / 1000;
    }
  }
  return { excludedS: excludedMs / 1000, expected, taken: took, excursions: count, excursionS: seconds };
}
