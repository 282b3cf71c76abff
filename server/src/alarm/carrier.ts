import { carrierSeries, SAMPLE_MODE_MIN, type Sample, type SampleMode } from '@coldwatch/contract';
import type { Queryable } from '../platform/db/client.js';
import { sensorOfflineAfterS } from './offline.js';
import { isClear, isOut, rulesFor, segment, type Field, type Point } from './segments.js';
import { readAhead, stateBefore, type Lookup, type Reach, type Stored } from './around.js';
import { Exclusion } from './excluded.js';
import { apply, closeOngoing, iso, ms, writeNotices, type EvalOutcome, type ExRow, type Opened, type SensorCtx, type Target } from './exceptions.js';

/**
 * Alarms on a carrier's value (spec §3 sample modes): when a carrier takes the maximum, the
 * minimum, the average or the balanced average of its sensors, that one value is what leaves
 * the zone or not, so its exceptions belong to the carrier (sensor_id NULL), not to any sensor.
 * Two fridges' probes at 9 °C and 5 °C average 7 °C: no alarm in avg mode, where judging each
 * sensor would have alarmed on the first.
 *
 * The value's series is `carrierSeries` of the contract (the board's value at every moment): a
 * point whenever one of the sensors reports, the mode over each sensor's latest reading that is
 * not stale (silent no longer than its monitor task allows, alarm/offline.ts: when presence would
 * call it offline). The runs
 * (with the carrier's delay and margins), what surrounds a window and the matching to stored
 * exceptions and the writes are the sensor path's (segments.ts, around.ts, exceptions.ts apply),
 * so the same guarantees hold: one transaction, idempotent, order of arrival irrelevant within
 * the look-around below.
 *
 * A queue row is still one sensor's window; the carrier is evaluated over that window under
 * an advisory lock of its own, so two sensors of one carrier are never judged at once.
 */

/** Advisory lock namespace of carriers (evaluator.ts uses 0x616c for sensors). */
const LOCK_CARRIER = 0x616d;
/** How far a back-filled window looks before and after itself for the run it touches. */
const LOOK_MS = 24 * 3600_000;

export interface Members {
  carrierId: number;
  mode: SampleMode;
  sensors: { id: number; devNo: string; staleMs: number }[];
}

/** The carrier's running sensors when its value is an aggregate (a mode other than latest with enough of them), else null. */
export async function aggregateOf(q: Queryable, carrierId: number, mode: SampleMode | null): Promise<Members | null> {
  if (!mode || mode === 'latest') return null;
  // A sensor's value is stale when presence would call it offline (alarm/offline.ts, its monitor task).
  const rows = await q.query<{ id: number; dev_no: string; offline_s: number }>(
    `SELECT id, dev_no, ${sensorOfflineAfterS('sensor')} AS offline_s FROM sensor WHERE carrier_id = $1 AND status <> 2 ORDER BY id`,
    [carrierId],
  );
  if (rows.length < SAMPLE_MODE_MIN[mode]) return null;
  return { carrierId, mode, sensors: rows.map((r) => ({ id: r.id, devNo: r.dev_no, staleMs: Number(r.offline_s) * 1000 })) };
}

/**
 * Evaluates the carrier of `ctx` over [minTs, maxTs]. False when another evaluator holds the
 * carrier (the queue row stays for the next pass).
 */
export async function evaluateCarrier(q: Queryable, ctx: SensorCtx, m: Members, minTs: number, maxTs: number, out: EvalOutcome): Promise<boolean> {
  const [lock] = await q.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1, $2) AS ok', [LOCK_CARRIER, m.carrierId]);
  if (!lock.ok) return false;
  // This sensor's own exceptions from before the carrier was judged as one end here.
  await closeOngoing(q, ctx, { sensorId: ctx.id }, minTs, out);
  const rules = rulesFor(ctx);
  const opened: Opened[] = [];
  // The carrier's value at an excluded moment (invalid rules) is invisible, as on the sensor path.
  const excl = ctx.excl_rules ? new Exclusion(q, m.carrierId) : null;
  for (const field of ['temp', 'hum'] as Field[]) {
    const fieldRules = rules.filter((r) => r.field === field);
    if (!fieldRules.length) continue;
    const series = new Series(q, m, field, excl);
    const window = await series.between(minTs, maxTs);
    if (!window.length) continue;
    // The delay is the carrier's: the same for every rule.
    const before = await SeriesBefore.start(series, minTs, fieldRules[0].delay);
    const after: Reach = { points: await series.between(maxTs + 1, maxTs + LOOK_MS), complete: true, more: async () => {}, reach: async () => {} };
    for (const rule of fieldRules) {
      const ahead = await readAhead(rule, after);
      const state = await stateBefore(rule, before, carrierLookup(q, m.carrierId, series));
      const runs = segment(rule, state, [...window, ...ahead]);
      const spanLo = state.kind === 'idle' ? minTs : state.run.start;
      const spanHi = ahead.length ? ahead[ahead.length - 1].ts : maxTs;
      const existing = await q.query<ExRow>(
        `SELECT id, start_ts, last_ts, end_ts, ongoing, first_value, peak_value FROM exception_record
          WHERE carrier_id = $1 AND sensor_id IS NULL AND type = 'data' AND category = $2 AND start_ts <= $3
            AND (ongoing OR coalesce(last_ts, start_ts) >= $4)
          ORDER BY start_ts FOR UPDATE`,
        [m.carrierId, rule.category, iso(spanHi), iso(spanLo)],
      );
      const known = [...window, ...after.points];
      const target: Target = {
        sensorId: null,
        gatewayId: null,
        endAfter: async (r, t) => known.find((p) => p.ts > t && isClear(r, p.v))?.ts ?? null,
      };
      await apply(q, ctx, target, rule, runs, existing, out, opened);
    }
  }
  out.opened += opened.length;
  if (opened.length) out.notices += await writeNotices(q, ctx, m.sensors.map((s) => s.devNo).join(', '), opened);
  return true;
}

/**
 * The carrier value of one field, computed from its sensors' readings on demand. Each span is
 * read once per evaluation: the window's state before it is also the previous point, and both
 * rules of the field (high, low) look at the same day before a back-filled window.
 */
class Series {
  private readonly ids: number[];
  private readonly before = new Map<number, Promise<Map<number, Sample>>>();
  private readonly spans = new Map<string, Promise<Point[]>>();

  constructor(
    private q: Queryable,
    private m: Members,
    private field: Field,
    private excl: Exclusion | null = null,
  ) {
    this.ids = m.sensors.map((s) => s.id);
  }

  /** Each sensor's latest reading of the field before t (its current customer's: a lent sensor has two, docs/devices.md "Lending"). */
  private latestBefore(t: number): Promise<Map<number, Sample>> {
    let hit = this.before.get(t);
    if (!hit) {
      hit = this.q
        .query<{ id: number; ts: Date; v: number }>(
          `SELECT s.id, r.ts, r.v FROM unnest($1::int[]) AS s(id) JOIN sensor x ON x.id = s.id
             CROSS JOIN LATERAL (SELECT ts, ${this.field} AS v FROM reading
                                  WHERE sensor_id = s.id AND customer_id = x.customer_id AND ts < $2 AND ${this.field} IS NOT NULL ORDER BY ts DESC LIMIT 1) r`,
          [this.ids, iso(t)],
        )
        .then((rows) => new Map(rows.map((r) => [r.id, { ts: ms(r.ts), value: r.v }])));
      this.before.set(t, hit);
    }
    return hit;
  }

  /** The carrier's points in [lo, hi]. */
  between(lo: number, hi: number): Promise<Point[]> {
    const key = `${lo}:${hi}`;
    let hit = this.spans.get(key);
    if (!hit) this.spans.set(key, (hit = this.read(lo, hi)));
    return hit;
  }

  private async read(lo: number, hi: number): Promise<Point[]> {
    const rows = await this.q.query<{ sensor_id: number; ts: Date; v: number }>(
      `SELECT r.sensor_id, r.ts, r.${this.field} AS v FROM reading r JOIN sensor x ON x.id = r.sensor_id AND x.customer_id = r.customer_id
        WHERE r.sensor_id = ANY($1::int[]) AND r.ts >= $2 AND r.ts <= $3 AND r.${this.field} IS NOT NULL ORDER BY r.ts`,
      [this.ids, iso(lo), iso(hi)],
    );
    if (!rows.length) return [];
    const before = await this.latestBefore(lo);
    const samples = new Map<number, Sample[]>(this.ids.map((id) => [id, []]));
    for (const r of rows) samples.get(r.sensor_id)!.push({ ts: ms(r.ts), value: r.v });
    const points = carrierSeries(
      this.m.mode,
      this.m.sensors.map((s) => ({ staleMs: s.staleMs, samples: samples.get(s.id)!, before: before.get(s.id) ?? null })),
      lo,
    ).map((p) => ({ ts: p.ts, v: p.value }));
    return this.excl ? this.excl.keep(points) : points;
  }

  /** The carrier's last point before t: the mode over each sensor's latest reading then. */
  async pointBefore(t: number): Promise<Point | null> {
    const before = await this.latestBefore(t);
    const last = carrierSeries(
      this.m.mode,
      this.m.sensors.map((s) => ({ staleMs: s.staleMs, samples: before.has(s.id) ? [before.get(s.id)!] : [] })),
    ).at(-1);
    if (!last) return null;
    const point = { ts: last.ts, v: last.value };
    if (!this.excl || (await this.excl.keep([point])).length) return point;
    // Excluded: the last point that is not, within the look-around.
    return (await this.between(t - LOOK_MS, t - 1)).at(-1) ?? null;
  }
}

/**
 * The carrier's points before a window, as around.ts asks for them: first only the last one
 * (the mode over each sensor's latest reading), which decides for a carrier in range; then the
 * points of twice the delay (at least 10 minutes) before the window, then of the day before (the
 * look-around: a back-filled window is judged on at most the day around it).
 */
class SeriesBefore implements Reach {
  points: Point[] = [];
  complete = false;
  private span = 0;

  private constructor(
    private series: Series,
    private minTs: number,
    private delay: number,
    private prev: Point | null,
  ) {
    this.points = prev ? [prev] : [];
    this.complete = !prev;
  }

  static async start(series: Series, minTs: number, delay: number) {
    return new SeriesBefore(series, minTs, delay, await series.pointBefore(minTs));
  }

  private async load(span: number) {
    this.span = Math.min(span, LOOK_MS);
    const pts = await this.series.between(this.minTs - this.span, this.minTs - 1);
    this.points = pts.length ? pts : this.prev ? [this.prev] : [];
    this.complete = this.span >= LOOK_MS;
  }

  async more() {
    if (!this.complete) await this.load(this.span === 0 ? Math.max(2 * this.delay, 600_000) : LOOK_MS);
  }

  async reach(t: number) {
    if (!this.complete && this.minTs - t > this.span) await this.load(this.minTs - t);
  }
}

/** The carrier's stored exceptions (around.ts Lookup): its latest of the rule starting at or before p; out points from the series. */
const carrierLookup =
  (q: Queryable, carrierId: number, series: Series): Lookup =>
  async (rule, p) => {
    const [e] = await q.query<{ start_ts: Date; first_value: number | null; peak_value: number | null; last_ts: Date | null; end_ts: Date | null; ongoing: boolean }>(
      `SELECT start_ts, first_value, peak_value, last_ts, end_ts, ongoing FROM exception_record
        WHERE carrier_id = $1 AND sensor_id IS NULL AND type = 'data' AND category = $2 AND start_ts <= $3 ORDER BY start_ts DESC LIMIT 1`,
      [carrierId, rule.category, iso(p)],
    );
    const latest: Stored | null =
      e && e.first_value !== null && e.peak_value !== null
        ? { start: ms(e.start_ts), first: e.first_value, peak: e.peak_value, last: ms(e.last_ts ?? e.start_ts), end: e.end_ts ? ms(e.end_ts) : null, ongoing: e.ongoing }
        : null;
    const firstOut = async () => (await series.between(p - 2 * rule.delay, p)).find((x) => isOut(rule, x.v))?.ts ?? null;
    return { latest, firstOut };
  };
