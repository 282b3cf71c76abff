import { carrierSeries, SAMPLE_MODE_MIN, type Sample, type SampleMode } from '@coldwatch/contract';
import type { Queryable } from '../platform/db/client.js';
import { isOut, rulesFor, segment, worse, type Field, type Point, type Prefix, type Rule, type Suffix } from './segments.js';
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
 * not stale (3 × its sample interval + 60 s, when presence would call it offline). The runs,
 * the matching to stored exceptions and the writes are the sensor path's (segments.ts,
 * evaluator.ts apply), so the same guarantees hold: one transaction, idempotent, order of
 * arrival irrelevant within the look-around below.
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
  const rows = await q.query<{ id: number; dev_no: string; sample_interval: number }>(
    `SELECT id, dev_no, sample_interval FROM sensor WHERE carrier_id = $1 AND status <> 2 ORDER BY id`,
    [carrierId],
  );
  if (rows.length < SAMPLE_MODE_MIN[mode]) return null;
  return { carrierId, mode, sensors: rows.map((r) => ({ id: r.id, devNo: r.dev_no, staleMs: (3 * r.sample_interval + 60) * 1000 })) };
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
  for (const field of ['temp', 'hum'] as Field[]) {
    const fieldRules = rules.filter((r) => r.field === field);
    if (!fieldRules.length) continue;
    const series = new Series(q, m, field);
    const window = await series.between(minTs, maxTs);
    if (!window.length) continue;
    const prev = await series.pointBefore(minTs);
    const after = await series.between(maxTs + 1, maxTs + LOOK_MS);
    for (const rule of fieldRules) {
      const prefix = await loadPrefix(q, m.carrierId, series, rule, prev, minTs);
      const suffix = await loadSuffix(q, m.carrierId, rule, after);
      const runs = segment(rule, prefix, window, suffix);
      const spanLo = prefix?.start ?? minTs;
      const spanHi = suffix.kind === 'out' ? suffix.last : maxTs;
      const existing = await q.query<ExRow>(
        `SELECT id, start_ts, last_ts, end_ts, ongoing, first_value, peak_value FROM exception_record
          WHERE carrier_id = $1 AND sensor_id IS NULL AND type = 'data' AND category = $2 AND start_ts <= $3
            AND (ongoing OR coalesce(last_ts, start_ts) >= $4)
          ORDER BY start_ts FOR UPDATE`,
        [m.carrierId, rule.category, iso(spanHi), iso(spanLo)],
      );
      const known = [...window, ...after];
      const target: Target = {
        sensorId: null,
        gatewayId: null,
        endAfter: async (r, t) => known.find((p) => p.ts > t && !isOut(r, p.v))?.ts ?? null,
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
    return carrierSeries(
      this.m.mode,
      this.m.sensors.map((s) => ({ staleMs: s.staleMs, samples: samples.get(s.id)!, before: before.get(s.id) ?? null })),
      lo,
    ).map((p) => ({ ts: p.ts, v: p.value }));
  }

  /** The carrier's last point before t: the mode over each sensor's latest reading then. */
  async pointBefore(t: number): Promise<Point | null> {
    const before = await this.latestBefore(t);
    const last = carrierSeries(
      this.m.mode,
      this.m.sensors.map((s) => ({ staleMs: s.staleMs, samples: before.has(s.id) ? [before.get(s.id)!] : [] })),
    ).at(-1);
    return last ? { ts: last.ts, v: last.value } : null;
  }
}

/**
 * The run reaching the window from before. Fast path: the carrier's exception whose last point
 * is exactly the previous point. Otherwise (back-fill) the run is recounted over the day before.
 */
async function loadPrefix(q: Queryable, carrierId: number, series: Series, rule: Rule, prev: Point | null, minTs: number): Promise<Prefix> {
  if (!prev || !isOut(rule, prev.v)) return null;
  const [e] = await q.query<{ start_ts: Date; first_value: number | null; peak_value: number | null }>(
    `SELECT start_ts, first_value, peak_value FROM exception_record
      WHERE carrier_id = $1 AND sensor_id IS NULL AND type = 'data' AND category = $2 AND last_ts = $3 ORDER BY start_ts DESC LIMIT 1`,
    [carrierId, rule.category, iso(prev.ts)],
  );
  if (e && e.first_value !== null && e.peak_value !== null) return { start: ms(e.start_ts), first: e.first_value, peak: worse(rule, e.peak_value, prev.v), last: prev.ts };
  const points = await series.between(minTs - LOOK_MS, minTs - 1);
  let i = points.length;
  while (i > 0 && isOut(rule, points[i - 1].v)) i--;
  const run = points.slice(i);
  if (!run.length) return { start: prev.ts, first: prev.v, peak: prev.v, last: prev.ts };
  return { start: run[0].ts, first: run[0].v, peak: run.reduce((p, x) => worse(rule, p, x.v), run[0].v), last: run[run.length - 1].ts };
}

/** What follows the window: the carrier's points after it, up to the first in-range one. */
async function loadSuffix(q: Queryable, carrierId: number, rule: Rule, after: Point[]): Promise<Suffix> {
  const next = after[0];
  if (!next) return { kind: 'none' };
  if (!isOut(rule, next.v)) return { kind: 'in', ts: next.ts };
  const [e] = await q.query<{ first_value: number | null; peak_value: number | null; last_ts: Date | null; end_ts: Date | null; ongoing: boolean }>(
    `SELECT first_value, peak_value, last_ts, end_ts, ongoing FROM exception_record
      WHERE carrier_id = $1 AND sensor_id IS NULL AND type = 'data' AND category = $2 AND start_ts = $3 ORDER BY id LIMIT 1`,
    [carrierId, rule.category, iso(next.ts)],
  );
  if (e && e.first_value !== null && e.peak_value !== null && e.last_ts && (e.ongoing || e.end_ts)) {
    return { kind: 'out', start: next.ts, first: e.first_value, peak: e.peak_value, last: ms(e.last_ts), end: e.ongoing ? null : ms(e.end_ts!) };
  }
  let i = 0;
  let peak = next.v;
  while (i < after.length && isOut(rule, after[i].v)) peak = worse(rule, peak, after[i++].v);
  return { kind: 'out', start: next.ts, first: next.v, peak, last: after[i - 1].ts, end: after[i]?.ts ?? null };
}
