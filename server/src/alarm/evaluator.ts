import type { Queryable } from '../platform/db/client.js';
import type { ExceptionEvent } from '../platform/events.js';
import {
  isOut, outSql, plan, rulesFor, segment, worse,
  type Existing, type Field, type Point, type Prefix, type Rule, type Run, type Suffix,
} from './segments.js';
import { customerLocale, renderAlarm } from './templates.js';
import type { SampleMode } from '@coldwatch/contract';
import { aggregateOf, evaluateCarrier } from './carrier.js';

/**
 * Evaluation of one sensor's alarm_queue row, in one transaction: read the window, fix the
 * sensor's data exceptions to match the readings (segments.ts), write the notices of new
 * exceptions, and delete the queue row only if nobody widened it meanwhile. Everything or
 * nothing commits, so a crash at any point leaves the queue row for the next run, and a run
 * over the same readings finds its exceptions already in place (idempotent).
 */

/** Advisory lock namespace: "one evaluator per sensor" across replicas, without locking alarm_queue rows the ingest writer upserts. */
const LOCK_NS = 0x616c;

interface QueueRow {
  sensor_id: number;
  min_ts: Date;
  max_ts: Date;
  version: number;
}

export interface SensorCtx {
  id: number;
  customer_id: number;
  gateway_id: number;
  dev_no: string;
  carrier_id: number | null;
  carrier_name: string | null;
  alarm_on: boolean | null;
  sample_mode: SampleMode | null;
  temp_min: number | null;
  temp_max: number | null;
  hum_min: number | null;
  hum_max: number | null;
  customer_name: string;
  customer_status: number;
  time_zone: string;
  notify_email: boolean;
}

export type Opened = { id: number; rule: Rule; run: Run };

export interface ExRow {
  id: number;
  start_ts: Date;
  last_ts: Date | null;
  end_ts: Date | null;
  ongoing: boolean;
  first_value: number | null;
  peak_value: number | null;
}

export interface EvalOutcome {
  /** Exceptions opened, changed or closed: told to the bus after commit. */
  events: ExceptionEvent[];
  /** Notice rows written (the notifier is woken when > 0). */
  notices: number;
  /** Exceptions opened by this evaluation (for the alarm latency of /metrics). */
  opened: number;
  /** False when the queue row was widened meanwhile and stays for another run. */
  dequeued: boolean;
}

export const ms = (d: Date | string | number) => new Date(d).getTime();
export const iso = (t: number) => new Date(t);
const same = (a: number | null, b: number | null) => (a === null || b === null ? a === b : Math.fround(a) === Math.fround(b));

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
  return out;
}

async function evaluateWindow(q: Queryable, ctx: SensorCtx, minTs: number, maxTs: number, out: EvalOutcome) {
  const rules = rulesFor(ctx);
  if (rules.length === 0) return;
  const rows = await q.query<{ ts: Date; temp: number | null; hum: number | null }>(
    'SELECT ts, temp, hum FROM reading WHERE sensor_id = $1 AND ts >= $2 AND ts <= $3 ORDER BY ts',
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
          WHERE sensor_id = $1 AND type = 'data' AND category = $2 AND start_ts <= $3
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

/** Whose exceptions these are: one sensor's, or (sensorId null) its carrier's value. */
export interface Target {
  sensorId: number | null;
  gatewayId: number | null;
  /** The first in-range value of the rule's field after t, if any: where an orphaned ongoing exception ends. */
  endAfter(rule: Rule, t: number): Promise<number | null>;
}

const sensorTarget = (q: Queryable, ctx: SensorCtx): Target => ({
  sensorId: ctx.id,
  gatewayId: ctx.gateway_id,
  async endAfter(rule, t) {
    const [end] = await q.query<{ ts: Date }>(
      `SELECT ts FROM reading WHERE sensor_id = $1 AND ts > $2 AND ${rule.field} IS NOT NULL AND NOT (${outSql(rule, 3)}) ORDER BY ts LIMIT 1`,
      [ctx.id, iso(t), rule.limit],
    );
    return end ? ms(end.ts) : null;
  },
});

/**
 * Ongoing data exceptions that belong to the other way of judging this carrier (its mode
 * changed, or a sensor joined or left it): they end where this window begins, so that only
 * one judgement holds. `carrierId` closes the carrier's own; `sensorId` the sensor's.
 */
export async function closeOngoing(q: Queryable, ctx: SensorCtx, of: { carrierId: number } | { sensorId: number }, at: number, out: EvalOutcome) {
  const rows = await q.query<{ id: number; category: string; start_ts: Date }>(
    'carrierId' in of
      ? `UPDATE exception_record SET ongoing = false, end_ts = greatest($2, start_ts), duration_s = round(extract(epoch FROM greatest($2, start_ts) - start_ts))
          WHERE carrier_id = $1 AND sensor_id IS NULL AND type = 'data' AND ongoing RETURNING id, category, start_ts`
      : `UPDATE exception_record SET ongoing = false, end_ts = greatest($2, start_ts), duration_s = round(extract(epoch FROM greatest($2, start_ts) - start_ts))
          WHERE sensor_id = $1 AND type = 'data' AND ongoing RETURNING id, category, start_ts`,
    ['carrierId' in of ? of.carrierId : of.sensorId, iso(at)],
  );
  for (const r of rows)
    out.events.push({ customerId: ctx.customer_id, exceptionId: r.id, carrierId: ctx.carrier_id, sensorId: 'carrierId' in of ? null : of.sensorId, category: r.category, ongoing: false });
}

/** The nearest reading with a value for the field before minTs or after maxTs. */
async function neighbour(q: Queryable, sensorId: number, field: Field, t: number, side: 'before' | 'after'): Promise<Point | null> {
  const [r] = await q.query<{ ts: Date; v: number }>(
    `SELECT ts, ${field} AS v FROM reading WHERE sensor_id = $1 AND ts ${side === 'before' ? '<' : '>'} $2 AND ${field} IS NOT NULL
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
      WHERE sensor_id = $1 AND type = 'data' AND category = $2 AND last_ts = $3 ORDER BY start_ts DESC LIMIT 1`,
    [sensorId, rule.category, iso(p.ts)],
  );
  if (e && e.first_value !== null && e.peak_value !== null) {
    return { start: ms(e.start_ts), first: e.first_value, peak: worse(rule, e.peak_value, p.v), last: p.ts };
  }
  const [lo] = await q.query<{ ts: Date }>(
    `SELECT ts FROM reading WHERE sensor_id = $1 AND ts < $2 AND ${rule.field} IS NOT NULL AND NOT (${outSql(rule, 3)})
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
      WHERE sensor_id = $1 AND type = 'data' AND category = $2 AND start_ts = $3 ORDER BY id LIMIT 1`,
    [sensorId, rule.category, iso(n.ts)],
  );
  if (e && e.first_value !== null && e.peak_value !== null && e.last_ts && (e.ongoing || e.end_ts)) {
    return { kind: 'out', start: n.ts, first: e.first_value, peak: e.peak_value, last: ms(e.last_ts), end: e.ongoing ? null : ms(e.end_ts!) };
  }
  const [hi] = await q.query<{ ts: Date }>(
    `SELECT ts FROM reading WHERE sensor_id = $1 AND ts > $2 AND ${rule.field} IS NOT NULL AND NOT (${outSql(rule, 3)})
      ORDER BY ts ASC LIMIT 1`,
    [sensorId, iso(maxTs), rule.limit],
  );
  const end = hi ? ms(hi.ts) : null;
  const [agg] = await q.query<{ last: Date; peak: number }>(
    `SELECT max(ts) AS last, ${rule.dir > 0 ? 'max' : 'min'}(${rule.field}) AS peak FROM reading
      WHERE sensor_id = $1 AND ts > $2 ${end === null ? '' : 'AND ts < $3'} AND ${rule.field} IS NOT NULL`,
    end === null ? [sensorId, iso(maxTs)] : [sensorId, iso(maxTs), iso(end)],
  );
  return { kind: 'out', start: n.ts, first: n.v, peak: agg.peak, last: ms(agg.last), end };
}

/** Start, first value, peak and last reading of the out-of-range readings in (lo, before). */
async function aggregateRun(q: Queryable, sensorId: number, rule: Rule, lo: number | null, before: number): Promise<Prefix> {
  const [agg] = await q.query<{ start: Date | null; last: Date | null; peak: number | null }>(
    `SELECT min(ts) AS start, max(ts) AS last, ${rule.dir > 0 ? 'max' : 'min'}(${rule.field}) AS peak FROM reading
      WHERE sensor_id = $1 AND ts < $2 ${lo === null ? '' : 'AND ts > $3'} AND ${rule.field} IS NOT NULL`,
    lo === null ? [sensorId, iso(before)] : [sensorId, iso(before), iso(lo)],
  );
  if (!agg?.start || !agg.last || agg.peak === null) return null;
  const [first] = await q.query<{ v: number }>(`SELECT ${rule.field} AS v FROM reading WHERE sensor_id = $1 AND ts = $2`, [sensorId, agg.start]);
  return { start: ms(agg.start), first: first.v, peak: agg.peak, last: ms(agg.last) };
}

/** Writes the plan: close orphaned ongoing exceptions first (one ongoing per category), then each run in time order. */
export async function apply(q: Queryable, ctx: SensorCtx, target: Target, rule: Rule, runs: Run[], rows: ExRow[], out: EvalOutcome, opened: Opened[]) {
  const existing: Existing[] = rows.map((r) => ({ id: r.id, start: ms(r.start_ts), last: ms(r.last_ts ?? r.start_ts), ongoing: r.ongoing }));
  const p = plan(runs, existing);
  const event = (id: number, ongoing: boolean) =>
    out.events.push({ customerId: ctx.customer_id, exceptionId: id, carrierId: ctx.carrier_id, sensorId: target.sensorId, category: rule.category, ongoing });

  for (const e of p.close) {
    // Its readings no longer count as out of range (the zone changed, or the alarm was off
    // while they came back in range): it ends at the first in-range reading after them.
    const endTs = (await target.endAfter(rule, e.last)) ?? e.last;
    await q.query('UPDATE exception_record SET ongoing = false, end_ts = $2, duration_s = $3 WHERE id = $1', [e.id, iso(endTs), Math.round((endTs - e.start) / 1000)]);
    event(e.id, false);
  }

  for (const [i, run] of runs.entries()) {
    const ongoing = run.end === null;
    const duration = run.end === null ? null : Math.round((run.end - run.start) / 1000);
    const id = p.identity.get(i);
    if (id !== undefined) {
      const cur = rows.find((r) => r.id === id)!;
      const unchanged =
        ms(cur.start_ts) === run.start && cur.last_ts !== null && ms(cur.last_ts) === run.last && cur.ongoing === ongoing &&
        (cur.end_ts === null ? run.end === null : ms(cur.end_ts) === run.end) && same(cur.first_value, run.first) && same(cur.peak_value, run.peak);
      if (unchanged) continue;
      await q.query(
        `UPDATE exception_record SET start_ts = $2, last_ts = $3, end_ts = $4, ongoing = $5, duration_s = $6, first_value = $7, peak_value = $8 WHERE id = $1`,
        [id, iso(run.start), iso(run.last), run.end === null ? null : iso(run.end), ongoing, duration, run.first, run.peak],
      );
      event(id, ongoing);
    } else {
      const [ins] = await q.query<{ id: number }>(
        `INSERT INTO exception_record (customer_id, carrier_id, sensor_id, gateway_id, type, category, status, ongoing,
                                       start_ts, last_ts, end_ts, duration_s, first_value, peak_value, limit_min, limit_max)
         VALUES ($1, $2, $3, $4, 'data', $5, 0, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
        [ctx.customer_id, ctx.carrier_id, target.sensorId, target.gatewayId, rule.category, ongoing, iso(run.start), iso(run.last),
          run.end === null ? null : iso(run.end), duration, run.first, run.peak, rule.limitMin, rule.limitMax],
      );
      event(ins.id, ongoing);
      opened.push({ id: ins.id, rule, run });
    }
  }
}

/**
 * The outbox: one pending e-mail notice per new exception and carrier contact with an
 * address, in the customer's language, written in the evaluation's transaction so an
 * exception never exists without its notices (and never gets them twice).
 */
export async function writeNotices(q: Queryable, ctx: SensorCtx, devNo: string, opened: Opened[]): Promise<number> {
  if (!ctx.notify_email) return 0;
  const recipients = (
    await q.query<{ email: string }>(
      `SELECT DISTINCT ct.email FROM carrier_contact cc JOIN contact ct ON ct.id = cc.contact_id
        WHERE cc.carrier_id = $1 AND ct.customer_id = $2 AND ct.email <> '' ORDER BY ct.email`,
      [ctx.carrier_id, ctx.customer_id],
    )
  ).map((r) => r.email);
  if (recipients.length === 0) return 0;
  const locale = await customerLocale(q, ctx.customer_id);
  let n = 0;
  for (const { id, rule, run } of opened) {
    const mail = renderAlarm(
      {
        customer: ctx.customer_name, carrier: ctx.carrier_name ?? '', devNo, category: rule.category, field: rule.field,
        first: run.first, peak: run.peak, limitMin: rule.limitMin, limitMax: rule.limitMax, start: run.start, end: run.end, tz: ctx.time_zone,
      },
      locale,
    );
    await q.query(
      `INSERT INTO notice_log (customer_id, exception_id, type, channel, recipient, subject, content)
       SELECT $1, $2, 'alarm', 'email', r, $4, $5 FROM unnest($3::text[]) AS r`,
      [ctx.customer_id, id, recipients, mail.subject, mail.content],
    );
    n += recipients.length;
  }
  return n;
}
