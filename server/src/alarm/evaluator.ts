import type { Queryable } from '../platform/db/client.js';
import { isOut, outSql, rulesFor, segment, worse, type Field, type Point, type Prefix, type Rule, type Suffix } from './segments.js';
import { aggregateOf, evaluateCarrier } from './carrier.js';
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
            c.temp_min, c.temp_max, c.hum_min, c.hum_max,
            cu.name AS customer_name, cu.status AS customer_status, cu.time_zone, cu.notify_email
       FROM sensor s LEFT JOIN carrier c ON c.id = s.carrier_id JOIN customer cu ON cu.id = s.customer_id
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
  const rows = await q.query<{ ts: Date; temp: number | null; hum: number | null }>(
    `SELECT ts, temp, hum FROM reading WHERE ${OWN} AND ts >= $2 AND ts <= $3 ORDER BY ts`,
    [ctx.id, iso(minTs), iso(maxTs)],
  );
  const opened: Opened[] = [];
  for (const field of ['temp', 'hum'] as Field[]) {
    const fieldRules = rules.filter((r) => r.field === field);
    const points: Point[] = rows.filter((r) => r[field] !== null).map((r) => ({ ts: ms(r.ts), v: r[field] as number }));
    // Readings without this field are invisible to its categories: a window without any
    // cannot change them (and a thermometer never scans for humidity).
    if (fieldRules.length === 0 || points.length === 0) continue;
    const before = await neighbour(q, ctx.id, field, minTs, 'before');
    const after = await neighbour(q, ctx.id, field, maxTs, 'after');
    for (const rule of fieldRules) {
      const prefix = await loadPrefix(q, ctx.id, rule, before, minTs);
      const suffix = await loadSuffix(q, ctx.id, rule, after, maxTs);
      const runs = segment(rule, prefix, points, suffix);
      const spanLo = prefix?.start ?? minTs;
      const spanHi = suffix.kind === 'out' ? suffix.last : maxTs;
      const existing = await q.query<ExRow>(
        `SELECT id, start_ts, last_ts, end_ts, ongoing, first_value, peak_value FROM exception_record
          WHERE ${OWN} AND type = 'data' AND category = $2 AND start_ts <= $3
            AND (ongoing OR coalesce(last_ts, start_ts) >= $4)
          ORDER BY start_ts FOR UPDATE`,
        [ctx.id, rule.category, iso(spanHi), iso(spanLo)],
      );
      await apply(q, ctx, sensorTarget(q, ctx), rule, runs, existing, out, opened);
    }
  }
  out.opened = opened.length;
  if (opened.length) out.notices += await writeNotices(q, ctx, ctx.dev_no, opened);
}


const sensorTarget = (q: Queryable, ctx: SensorCtx): Target => ({
  sensorId: ctx.id,
  gatewayId: ctx.gateway_id,
  async endAfter(rule, t) {
    const [end] = await q.query<{ ts: Date }>(
      `SELECT ts FROM reading WHERE ${OWN} AND ts > $2 AND ${rule.field} IS NOT NULL AND NOT (${outSql(rule, 3)}) ORDER BY ts LIMIT 1`,
      [ctx.id, iso(t), rule.limit],
    );
    return end ? ms(end.ts) : null;
  },
});


/** The nearest reading with a value for the field before minTs or after maxTs. */
async function neighbour(q: Queryable, sensorId: number, field: Field, t: number, side: 'before' | 'after'): Promise<Point | null> {
  const [r] = await q.query<{ ts: Date; v: number }>(
    `SELECT ts, ${field} AS v FROM reading WHERE ${OWN} AND ts ${side === 'before' ? '<' : '>'} $2 AND ${field} IS NOT NULL
      ORDER BY ts ${side === 'before' ? 'DESC' : 'ASC'} LIMIT 1`,
    [sensorId, iso(t)],
  );
  return r ? { ts: ms(r.ts), v: r.v } : null;
}

/**
 * The run reaching the window from before. Fast path: the exception whose last counted
 * reading is exactly the neighbour already summarises the run (the normal append during an
 * excursion costs nothing extra). Otherwise the run is recounted from the readings back to
 * the last in-range one: back-fill into an exception, or readings seen with the alarm off.
 */
async function loadPrefix(q: Queryable, sensorId: number, rule: Rule, p: Point | null, minTs: number): Promise<Prefix> {
  if (!p || !isOut(rule, p.v)) return null;
  const [e] = await q.query<{ start_ts: Date; first_value: number | null; peak_value: number | null }>(
    `SELECT start_ts, first_value, peak_value FROM exception_record
      WHERE ${OWN} AND type = 'data' AND category = $2 AND last_ts = $3 ORDER BY start_ts DESC LIMIT 1`,
    [sensorId, rule.category, iso(p.ts)],
  );
  if (e && e.first_value !== null && e.peak_value !== null) {
    return { start: ms(e.start_ts), first: e.first_value, peak: worse(rule, e.peak_value, p.v), last: p.ts };
  }
  const [lo] = await q.query<{ ts: Date }>(
    `SELECT ts FROM reading WHERE ${OWN} AND ts < $2 AND ${rule.field} IS NOT NULL AND NOT (${outSql(rule, 3)})
      ORDER BY ts DESC LIMIT 1`,
    [sensorId, iso(minTs), rule.limit],
  );
  return aggregateRun(q, sensorId, rule, lo ? ms(lo.ts) : null, minTs);
}

/**
 * What follows the window. An out-of-range neighbour starts a run that may have to merge with
 * the window's last run (or be split off from an exception the window cut in two). Fast
 * path: an exception starting exactly there already summarises it.
 */
async function loadSuffix(q: Queryable, sensorId: number, rule: Rule, n: Point | null, maxTs: number): Promise<Suffix> {
  if (!n) return { kind: 'none' };
  if (!isOut(rule, n.v)) return { kind: 'in', ts: n.ts };
  const [e] = await q.query<{ first_value: number | null; peak_value: number | null; last_ts: Date | null; end_ts: Date | null; ongoing: boolean }>(
    `SELECT first_value, peak_value, last_ts, end_ts, ongoing FROM exception_record
      WHERE ${OWN} AND type = 'data' AND category = $2 AND start_ts = $3 ORDER BY id LIMIT 1`,
    [sensorId, rule.category, iso(n.ts)],
  );
  if (e && e.first_value !== null && e.peak_value !== null && e.last_ts && (e.ongoing || e.end_ts)) {
    return { kind: 'out', start: n.ts, first: e.first_value, peak: e.peak_value, last: ms(e.last_ts), end: e.ongoing ? null : ms(e.end_ts!) };
  }
  const [hi] = await q.query<{ ts: Date }>(
    `SELECT ts FROM reading WHERE ${OWN} AND ts > $2 AND ${rule.field} IS NOT NULL AND NOT (${outSql(rule, 3)})
      ORDER BY ts ASC LIMIT 1`,
    [sensorId, iso(maxTs), rule.limit],
  );
  const end = hi ? ms(hi.ts) : null;
  const [agg] = await q.query<{ last: Date; peak: number }>(
    `SELECT max(ts) AS last, ${rule.dir > 0 ? 'max' : 'min'}(${rule.field}) AS peak FROM reading
      WHERE ${OWN} AND ts > $2 ${end === null ? '' : 'AND ts < $3'} AND ${rule.field} IS NOT NULL`,
    end === null ? [sensorId, iso(maxTs)] : [sensorId, iso(maxTs), iso(end)],
  );
  return { kind: 'out', start: n.ts, first: n.v, peak: agg.peak, last: ms(agg.last), end };
}

/** Start, first value, peak and last reading of the out-of-range readings in (lo, before). */
async function aggregateRun(q: Queryable, sensorId: number, rule: Rule, lo: number | null, before: number): Promise<Prefix> {
  const [agg] = await q.query<{ start: Date | null; last: Date | null; peak: number | null }>(
    `SELECT min(ts) AS start, max(ts) AS last, ${rule.dir > 0 ? 'max' : 'min'}(${rule.field}) AS peak FROM reading
      WHERE ${OWN} AND ts < $2 ${lo === null ? '' : 'AND ts > $3'} AND ${rule.field} IS NOT NULL`,
    lo === null ? [sensorId, iso(before)] : [sensorId, iso(before), iso(lo)],
  );
  if (!agg?.start || !agg.last || agg.peak === null) return null;
  const [first] = await q.query<{ v: number }>(`SELECT ${rule.field} AS v FROM reading WHERE ${OWN} AND ts = $2`, [sensorId, agg.start]);
  return { start: ms(agg.start), first: first.v, peak: agg.peak, last: ms(agg.last) };
}

