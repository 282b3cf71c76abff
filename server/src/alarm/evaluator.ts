import type { Queryable } from '../platform/db/client.js';
import { clearSql, outSql, rulesFor, segment, type Field, type Point, type Rule } from './segments.js';
import { readAhead, stateBefore, type Reach, type Stored } from './around.js';
import { aggregateOf, evaluateCarrier } from './carrier.js';
import { CARRIER_ALARM } from './trigger.js';
import { boundByRules, Exclusion } from './excluded.js';
import { apply, closeOngoing, iso, ms, writeNotices, type EvalOutcome, type ExRow, type Opened, type SensorCtx, type Target } from './exceptions.js';

export type { EvalOutcome } from './exceptions.js';

/**
 * Evaluation of one sensor's alarm_queue row, in one transaction: read the window, fix the
 * sensor's data exceptions to match the readings (segments.ts), write the notices of new
 * exceptions, and delete the queue row only if nobody widened it meanwhile. Everything or
 * nothing commits, so a crash at any point leaves the queue row for the next run, and a run
 * over the same readings finds its exceptions already in place (idempotent).
 */

/**
 * The sensor's readings and exceptions of its current customer only ($1 is the sensor): a lent
 * sensor (docs/devices.md "Lending") has readings and exceptions of two customers, and one's
 * excursion must never extend, merge with or take a value from the other's. One key lookup of
 * the sensor per statement (an InitPlan), on rows the (sensor_id, ts) index already narrows.
 */
const OWN = 'sensor_id = $1 AND customer_id = (SELECT customer_id FROM sensor WHERE id = $1)';

/** Advisory lock namespace: "one evaluator per sensor" across replicas, without locking alarm_queue rows the ingest writer upserts. */
const LOCK_NS = 0x616c;

interface QueueRow {
  sensor_id: number;
  min_ts: Date;
  max_ts: Date;
  version: number;
}

/**
 * Evaluates the queued window of one sensor. Returns undefined when another evaluator holds
 * the sensor or the row is gone; the caller runs this inside db.tx.
 */
export async function evaluateSensor(
  q: Queryable,
  sensorId: number,
  /** Test seam: runs right before the dequeue, where a concurrent ingest batch may widen the row. */
  hooks: { beforeDequeue?: (q: Queryable) => Promise<void> } = {},
): Promise<EvalOutcome | undefined> {
  const [lock] = await q.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1, $2) AS ok', [LOCK_NS, sensorId]);
  if (!lock.ok) return undefined;
  // Read after taking the lock: the freshest window and version.
  const [row] = await q.query<QueueRow>('SELECT sensor_id, min_ts, max_ts, version FROM alarm_queue WHERE sensor_id = $1', [sensorId]);
  if (!row) return undefined;

  const [ctx] = await q.query<SensorCtx>(
    `SELECT s.id, s.customer_id, s.gateway_id, s.dev_no, s.carrier_id, c.name AS carrier_name, c.alarm_on, c.sample_mode,
            c.temp_min, c.temp_max, c.hum_min, c.hum_max, c.temp_margin, c.hum_margin, c.alarm_delay_s,
            cu.name AS customer_name, cu.status AS customer_status, cu.time_zone, cu.notify_email,
            c.id IS NOT NULL AND ${boundByRules('c.id')} AS excl_rules
       FROM sensor s LEFT JOIN ${CARRIER_ALARM} c ON c.id = s.carrier_id JOIN customer cu ON cu.id = s.customer_id
      WHERE s.id = $1`,
    [sensorId],
  );
  const out: EvalOutcome = { events: [], notices: 0, opened: 0, dequeued: false };
  // A sensor without a carrier, a carrier with its alarm switched off (spec §2 alarm switch),
  // a cancelled customer (§4): nothing to evaluate, the window is consumed as it is.
  if (ctx && ctx.carrier_id !== null && ctx.alarm_on && ctx.customer_status === 1) {
    // A carrier whose value is an aggregate of its sensors (spec §3 sample modes) is judged on
    // that value (carrier.ts); otherwise each sensor's readings are.
    const members = await aggregateOf(q, ctx.carrier_id, ctx.sample_mode);
    if (members) {
      if (!(await evaluateCarrier(q, ctx, members, ms(row.min_ts), ms(row.max_ts), out))) return undefined;
    } else {
      await closeOngoing(q, ctx, { carrierId: ctx.carrier_id }, ms(row.min_ts), out);
      await evaluateWindow(q, ctx, ms(row.min_ts), ms(row.max_ts), out);
    }
  }
  await hooks.beforeDequeue?.(q);
  // Only the version we evaluated: a batch that widened the row meanwhile keeps it queued.
  const del = await q.query('DELETE FROM alarm_queue WHERE sensor_id = $1 AND version = $2 RETURNING sensor_id', [sensorId, row.version]);
  out.dequeued = del.length > 0;
  // The out-of-range readings that made it hot are evaluated; it stays hot only if later ones were.
  if (!out.dequeued) await q.query('UPDATE alarm_queue SET hot_version = NULL WHERE sensor_id = $1 AND hot_version <= $2', [sensorId, row.version]);
  return out;
}

async function evaluateWindow(q: Queryable, ctx: SensorCtx, minTs: number, maxTs: number, out: EvalOutcome) {
  const rules = rulesFor(ctx);
  if (rules.length === 0) return;
  // Readings inside an excluded span (invalid rules, excluded.ts) are invisible to the machine,
  // like a reading without the field: they neither open, extend nor end a run. Only a carrier
  // bound by a rule pays for it.
  const excl = ctx.excl_rules && ctx.carrier_id !== null ? new Exclusion(q, ctx.carrier_id) : null;
  const raw = await q.query<{ ts: Date; temp: number | null; hum: number | null }>(
    `SELECT ts, temp, hum FROM reading WHERE ${OWN} AND ts >= $2 AND ts <= $3 ORDER BY ts`,
    [ctx.id, iso(minTs), iso(maxTs)],
  );
  const rows = excl ? (await excl.keep(raw.map((r) => ({ ...r, ts: ms(r.ts) })))).map((r) => ({ ...r, ts: iso(r.ts) })) : raw;
  const opened: Opened[] = [];
  for (const field of ['temp', 'hum'] as Field[]) {
    const fieldRules = rules.filter((r) => r.field === field);
    const points: Point[] = rows.filter((r) => r[field] !== null).map((r) => ({ ts: ms(r.ts), v: r[field] as number }));
    // Readings without this field are invisible to its categories: a window without any
    // cannot change them (and a thermometer never scans for humidity).
    if (fieldRules.length === 0 || points.length === 0) continue;
    // Both rules of the field (high, low) share what is loaded around the window.
    const before = new Readings(q, ctx.id, field, minTs, 'before', excl);
    const after = new Readings(q, ctx.id, field, maxTs, 'after', excl);
    await Promise.all([before.more(), after.more()]);
    for (const rule of fieldRules) {
      const ahead = await readAhead(rule, after);
      const state = await stateBefore(rule, before, (r, p) => stored(q, ctx.id, r, p, excl));
      const runs = segment(rule, state, [...points, ...ahead]);
      const spanLo = state.kind === 'idle' ? minTs : state.run.start;
      const spanHi = ahead.length ? ahead[ahead.length - 1].ts : maxTs;
      const existing = await q.query<ExRow>(
        `SELECT id, start_ts, last_ts, end_ts, ongoing, first_value, peak_value FROM exception_record
          WHERE ${OWN} AND type = 'data' AND category = $2 AND start_ts <= $3
            AND (ongoing OR coalesce(last_ts, start_ts) >= $4)
          ORDER BY start_ts FOR UPDATE`,
        [ctx.id, rule.category, iso(spanHi), iso(spanLo)],
      );
      await apply(q, ctx, sensorTarget(q, ctx, excl), rule, runs, existing, out, opened);
    }
  }
  out.opened = opened.length;
  if (opened.length) out.notices += await writeNotices(q, ctx, ctx.dev_no, opened);
}

const sensorTarget = (q: Queryable, ctx: SensorCtx, excl: Exclusion | null): Target => ({
  sensorId: ctx.id,
  gatewayId: ctx.gateway_id,
  async endAfter(rule, t) {
    // The first clear reading after t that is not excluded (a page at a time past excluded ones).
    const page = excl ? 64 : 1;
    for (let from = t; ; ) {
      const rows = await q.query<{ ts: Date }>(
        `SELECT ts FROM reading WHERE ${OWN} AND ts > $2 AND ${rule.field} IS NOT NULL AND ${clearSql(rule, 3)} ORDER BY ts LIMIT $4`,
        [ctx.id, iso(from), rule.clear, page],
      );
      const pts = rows.map((r) => ({ ts: ms(r.ts) }));
      const kept = excl ? await excl.keep(pts) : pts;
      if (kept.length) return kept[0].ts;
      if (rows.length < page) return null;
      from = pts[pts.length - 1].ts;
    }
  },
});

/**
 * Readings loaded first on each side of a window (each further load takes four times as many):
 * enough to find a settled reading for a sensor in range. Tests make it small so that the
 * stored-exception paths of around.ts are taken on short series too.
 */
export const loading = { first: 32 };

/** One field's readings on one side of the window, as around.ts asks for them: the nearest first, then more. */
class Readings implements Reach {
  points: Point[] = [];
  complete = false;
  private limit = loading.first;
  /** The farthest reading read so far, excluded or not: where the next load goes on from. */
  private cursor: number;

  constructor(
    private q: Queryable,
    private sensorId: number,
    private field: Field,
    edge: number,
    private side: 'before' | 'after',
    private excl: Exclusion | null = null,
  ) {
    this.cursor = edge;
  }

  async more() {
    if (this.complete) return;
    const before = this.side === 'before';
    const rows = await this.q.query<{ ts: Date; v: number }>(
      `SELECT ts, ${this.field} AS v FROM reading WHERE ${OWN} AND ts ${before ? '<' : '>'} $2 AND ${this.field} IS NOT NULL
        ORDER BY ts ${before ? 'DESC' : 'ASC'} LIMIT $3`,
      [this.sensorId, iso(this.cursor), this.limit],
    );
    const read = rows.map((r) => ({ ts: ms(r.ts), v: r.v }));
    if (read.length) this.cursor = read[read.length - 1].ts;
    const got = this.excl ? await this.excl.keep(read) : read;
    this.points = before ? [...got.reverse(), ...this.points] : [...this.points, ...got];
    this.complete = rows.length < this.limit;
    this.limit *= 4;
  }

  async reach(t: number) {
    const oldest = this.cursor;
    if (this.complete || oldest <= t) return;
    const rows = await this.q.query<{ ts: Date; v: number }>(
      `SELECT ts, ${this.field} AS v FROM reading WHERE ${OWN} AND ts >= $2 AND ts < $3 AND ${this.field} IS NOT NULL ORDER BY ts`,
      [this.sensorId, iso(t), iso(oldest)],
    );
    const read = rows.map((r) => ({ ts: ms(r.ts), v: r.v }));
    this.cursor = t;
    this.points = [...(this.excl ? await this.excl.keep(read) : read), ...this.points];
  }
}

/**
 * The sensor's stored exceptions around the reading at p (around.ts Lookup), in one statement:
 * its latest exception of the rule starting at or before p (index exception_sensor_category),
 * and the first out reading in [p − 2d, p].
 */
async function stored(q: Queryable, sensorId: number, rule: Rule, p: number, excl: Exclusion | null) {
  const [r] = await q.query<{ start_ts: Date | null; first_value: number | null; peak_value: number | null; last_ts: Date | null; end_ts: Date | null; ongoing: boolean | null; first_out: Date | null }>(
    `SELECT e.start_ts, e.first_value, e.peak_value, e.last_ts, e.end_ts, e.ongoing,
            (SELECT min(ts) FROM reading WHERE ${OWN} AND ts >= $4 AND ts <= $3 AND ${outSql(rule, 5)}) AS first_out
       FROM (SELECT 1) one
       LEFT JOIN LATERAL (SELECT start_ts, first_value, peak_value, last_ts, end_ts, ongoing FROM exception_record
                           WHERE ${OWN} AND type = 'data' AND category = $2 AND start_ts <= $3 ORDER BY start_ts DESC LIMIT 1) e ON true`,
    [sensorId, rule.category, iso(p), iso(p - 2 * rule.delay), rule.limit],
  );
  const latest: Stored | null =
    r.start_ts && r.first_value !== null && r.peak_value !== null
      ? { start: ms(r.start_ts), first: r.first_value, peak: r.peak_value, last: ms(r.last_ts ?? r.start_ts), end: r.end_ts ? ms(r.end_ts) : null, ongoing: !!r.ongoing }
      : null;
  if (!excl || !r.first_out) return { latest, firstOut: async () => (r.first_out ? ms(r.first_out) : null) };
  // The first out reading may be excluded: the first one that is not.
  const firstOut = async () => {
    const outs = await q.query<{ ts: Date }>(`SELECT ts FROM reading WHERE ${OWN} AND ts >= $2 AND ts <= $3 AND ${outSql(rule, 4)} ORDER BY ts`, [sensorId, r.first_out, iso(p), rule.limit]);
    return (await excl.keep(outs.map((o) => ({ ts: ms(o.ts) }))))[0]?.ts ?? null;
  };
  return { latest, firstOut };
}
