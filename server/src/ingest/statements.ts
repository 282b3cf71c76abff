import { ROLLUP_BUCKET_MS } from './rollup.js';
import type { Queryable } from '../platform/db/client.js';
import type { DeviceReading } from './protocol.js';
import type { SensorInfo } from './directory.js';
import { copyBinary, type BinaryType } from '../platform/db/copy.js';
import { BACKFILL_BEHIND, clearOfZone, outOfZone } from '../alarm/quiet.js';
import { boundByRules } from '../alarm/excluded.js';
import { sensorOfflineAfterS } from '../alarm/offline.js';
import { CARRIER_ALARM } from '../alarm/trigger.js';

/**
 * The statements of one ingest batch (ingest/writer.ts runs them in one transaction, in this
 * order): the readings, the sensors' latest values, the alarm hand-over, the rollup marks, the
 * gateways' last contact and the reject log.
 */

/** A reading to store, with the sensor it belongs to. */
export interface Stored {
  sensor: SensorInfo;
  r: DeviceReading;
}

/** A rejected reading or message, for the reject log. */
export interface Reject {
  sn: string;
  /** The gateway's customer; null for an unknown gateway. */
  customerId?: number | null;
  dev: string | null;
  reason: string;
  detail: string;
}

/** Key order (sensor, time): duplicates become neighbours, and two batches lock their rows in the same order. */
export const byKey = (a: Stored, b: Stored) => a.sensor.id - b.sensor.id || a.r.ts - b.r.ts;
export const keyOf = (sensorId: number, ts: number) => `${sensorId}:${ts}`;

const iso = (ms: number) => new Date(ms).toISOString();

/** The 5-minute buckets the committed readings fall in, for the rollup job (ingest/rollup.ts); late ones included. */
export async function queueRollups(q: Queryable, items: Stored[]) {
  const keys = new Map<string, [number, number]>();
  for (const it of items) {
    const bucket = Math.floor(it.r.ts / ROLLUP_BUCKET_MS) * ROLLUP_BUCKET_MS;
    keys.set(`${it.sensor.id}:${bucket}`, [it.sensor.id, bucket]);
  }
  const rows = [...keys.values()].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  await q.query(
    `INSERT INTO rollup_pending (sensor_id, bucket)
     SELECT s, to_timestamp(b / 1000.0) FROM unnest($1::int[], $2::float8[]) AS v(s, b) ON CONFLICT DO NOTHING`,
    [rows.map((r) => r[0]), rows.map((r) => r[1])],
  );
}

export const READING_COLUMNS = 'reading (sensor_id, ts, customer_id, temp, hum, volt, rssi, lqi, gas, door)';

const INSERT_READINGS = `INSERT INTO ${READING_COLUMNS}
     SELECT s, to_timestamp(t / 1000.0), c, te, hu, vo, rs, lq, ga, do_
       FROM unnest($1::int[], $2::float8[], $3::int[], $4::real[], $5::real[], $6::real[], $7::real[], $8::real[], $9::real[], $10::smallint[])
              AS v(s, t, c, te, hu, vo, rs, lq, ga, do_)`;

/** The binary types of READING_COLUMNS, in order. */
export const READING_TYPES: readonly BinaryType[] = ['int4', 'timestamptz', 'int4', 'float4', 'float4', 'float4', 'float4', 'float4', 'float4', 'int2'];

/** The batch in COPY's binary format, in the columns of READING_COLUMNS. */
function copyRows(items: Stored[]): Buffer {
  return copyBinary(READING_TYPES, items.length, (i, c) => {
    const { sensor, r } = items[i];
    switch (c) {
      case 0:
        return sensor.id;
      case 1:
        return r.ts;
      case 2:
        return sensor.customerId;
      case 3:
        return r.temp;
      case 4:
        return r.hum;
      case 5:
        return r.volt;
      case 6:
        return r.rssi;
      case 7:
        return r.lqi;
      case 8:
        return r.gas;
      default:
        return r.door;
    }
  });
}

/**
 * Inserts the batch and answers the keys it stored ('all', or those of the set; the others were
 * duplicates). Usually every row is new: a plain COPY in the binary format (about twice as fast
 * as INSERT … SELECT FROM unnest, which is a third cheaper than ON CONFLICT; docs/performance.md),
 * inside a savepoint. A redelivered reading makes it fail on the key; then the batch goes in
 * again with ON CONFLICT DO NOTHING, whose RETURNING list names the new ones.
 */
export async function insertReadings(q: Queryable, items: Stored[]): Promise<'all' | Set<string>> {
  // In key order (write() sorted them), so that two batches committing at once meet on duplicate keys in the same order.
  await q.exec('SAVEPOINT readings');
  try {
    await q.copyIn(READING_COLUMNS, copyRows(items));
    await q.exec('RELEASE SAVEPOINT readings');
    return 'all';
  } catch (err) {
    if ((err as { code?: string }).code !== '23505') throw err;
    await q.exec('ROLLBACK TO SAVEPOINT readings');
  }
  const col = <T>(f: (it: Stored) => T) => items.map(f);
  // Epoch ms as float8: parsed far faster than timestamp text; to_timestamp keeps whole ms exactly.
  const stored = await q.query<{ sensor_id: number; t: number }>(
    `${INSERT_READINGS} ON CONFLICT DO NOTHING RETURNING sensor_id, (extract(epoch FROM ts) * 1000)::bigint AS t`,
    [col((i) => i.sensor.id), col((i) => i.r.ts), col((i) => i.sensor.customerId), col((i) => i.r.temp), col((i) => i.r.hum), col((i) => i.r.volt), col((i) => i.r.rssi), col((i) => i.r.lqi), col((i) => i.r.gas), col((i) => i.r.door)],
  );
  return new Set(stored.map((r) => keyOf(r.sensor_id, Number(r.t))));
}

/** A sensor whose latest values a batch moved: its status before and after, and the latest reading before the batch. */
export interface Updated {
  id: number;
  old_status: number;
  status: number;
  old_ts: Date | null;
  old_temp: number | null;
  old_hum: number | null;
}

/**
 * Latest values move only forward in time (a back-filled reading never replaces a newer
 * one); a sensor counts as running again only if that reading is recent.
 */
export async function updateSensors(q: Queryable, newest: Stored[]) {
  newest.sort((a, b) => a.sensor.id - b.sensor.id);
  const col = <T>(f: (it: Stored) => T) => newest.map(f);
  return q.query<Updated>(
    `UPDATE sensor s SET last_ts = v.ts, last_temp = v.temp, last_hum = v.hum, last_volt = v.volt, last_rssi = v.rssi,
            last_lqi = v.lqi, last_gas = v.gas, last_door = v.door,
            status = CASE WHEN s.status = 2 THEN 2
                          WHEN s.status = 1 THEN 1
                          -- Only a sensor marked offline pays for its monitor task's lookup here.
                          WHEN v.ts > now() - ${sensorOfflineAfterS('s')} * interval '1 second' THEN 1
                          ELSE s.status END
       FROM unnest($1::int[], $2::timestamptz[], $3::real[], $4::real[], $5::real[], $6::real[], $7::real[], $8::real[], $9::smallint[])
              AS v(id, ts, temp, hum, volt, rssi, lqi, gas, door),
            (SELECT id, status AS old_status, last_ts AS old_ts, last_temp AS old_temp, last_hum AS old_hum
               FROM sensor WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE) o
      WHERE s.id = v.id AND o.id = v.id AND (s.last_ts IS NULL OR s.last_ts < v.ts)
      RETURNING s.id, o.old_status, s.status, o.old_ts, o.old_temp, o.old_hum`,
    [
      col((i) => i.sensor.id),
      col((i) => iso(i.r.ts)),
      col((i) => i.r.temp),
      col((i) => i.r.hum),
      col((i) => i.r.volt),
      col((i) => i.r.rssi),
      col((i) => i.r.lqi),
      col((i) => i.r.gas),
      col((i) => i.r.door),
    ],
  );
}

/** Per sensor, the span and the extremes of the readings a batch committed. */
export interface Span {
  customerId: number;
  min: number;
  max: number;
  tLo: number | null;
  tHi: number | null;
  hLo: number | null;
  hHi: number | null;
}

const lo = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));
const hi = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

export function widen(spans: Map<number, Span>, it: Stored) {
  const { ts, temp, hum } = it.r;
  const s = spans.get(it.sensor.id);
  if (!s) {
    spans.set(it.sensor.id, { customerId: it.sensor.customerId, min: ts, max: ts, tLo: temp, tHi: temp, hLo: hum, hHi: hum });
    return;
  }
  s.min = Math.min(s.min, ts);
  s.max = Math.max(s.max, ts);
  s.tLo = lo(s.tLo, temp);
  s.tHi = hi(s.tHi, temp);
  s.hLo = lo(s.hLo, hum);
  s.hHi = hi(s.hHi, hum);
}

/** The previous reading gives the field a clear value (inside the zone by the margin), or the carrier has no zone for it. */
const clearBefore = (field: 'temp' | 'hum', x: string) => `(k.${field}_min IS NULL OR k.${field}_max IS NULL OR (${x} IS NOT NULL AND ${clearOfZone(field, x)}))`;
/**
 * Every value of the batch for the field (its extremes `lo`, `hi`; NULL without any) is clear; for
 * the hot mark, which only orders the evaluator's work (a window not calm is queued and judged).
 */
const clearBatch = (field: 'temp' | 'hum', lo: string, hi: string) => `(coalesce(${clearOfZone(field, lo)}, true) AND coalesce(${clearOfZone(field, hi)}, true))`;

/**
 * Widens each sensor's alarm window. `queued_at` keeps the time the window first became due:
 * the evaluator works oldest first, and a sensor that reports in every batch must not be
 * pushed to the back of the queue each time (it would never be evaluated under load).
 *
 * A window that may open an exception is marked hot with the version that brought it
 * (migration 0027): the evaluator takes it first. That is a reading outside its carrier's zone,
 * and with an alarm delay also any reading after one that is not clear, or one not clear itself:
 * a run opens once it has lasted the delay, at whichever reading shows it (alarm/segments.ts).
 *
 * A calm window is not queued at all: its readings all follow the sensor's latest one (no
 * back-fill), none is outside the zone, the latest one before them was clear (inside the zone
 * by the margin: a reading in the margin's band may belong to a run, which readings in the band
 * extend), the carrier is judged on each sensor (sample mode "latest") and no data exception of
 * the sensor or the carrier is ongoing. After a clear reading the machine is idle or ending a
 * run too short to count (one that lasted the delay is stored, ongoing, until its end is
 * confirmed), and readings not out change neither: its evaluation would find exactly what the
 * quiet check (alarm/quiet.ts) finds, nothing to do, and at a reading a minute from every sensor
 * that check was most of the evaluator's work. A window queued before it (not yet evaluated)
 * reads these readings as what follows it. The sensor row lock taken by updateSensors orders
 * two batches of one sensor, so "the latest one before them" is what the other batch committed.
 *
 * A window is marked back-filled (migration 0062) while its newest reading is behind the clock
 * and its readings arrive faster than the clock: its readings span half as much time again as
 * has passed since it was queued. A gateway's buffer after an outage does (an hour in minutes);
 * a gateway whose clock runs behind reports at the clock's pace and is released by its next
 * reading. A back-filled window is released when calm readings follow it in the buffer (they are
 * not queued, so they would not widen it): the evaluator then finds what ended the excursion.
 */
export async function queueAlarms(q: Queryable, spans: Map<number, Span>, before: Map<number, Updated>) {
  const ids = [...spans.keys()].sort((a, b) => a - b);
  const col = <T>(f: (s: Span) => T) => ids.map((id) => f(spans.get(id)!));
  const prev = (id: number) => before.get(id);
  await q.query(
    `WITH v AS (
       SELECT v.*, s.carrier_id, k.sample_mode,
              coalesce(k.alarm_on AND (${outOfZone('temp', 'v.t_hi')} OR ${outOfZone('temp', 'v.t_lo')} OR ${outOfZone('hum', 'v.h_hi')} OR ${outOfZone('hum', 'v.h_lo')}
                OR (k.alarm_delay_s > 0 AND NOT (${clearBatch('temp', 'v.p_t', 'v.p_t')} AND ${clearBatch('hum', 'v.p_h', 'v.p_h')}
                                             AND ${clearBatch('temp', 'v.t_lo', 'v.t_hi')} AND ${clearBatch('hum', 'v.h_lo', 'v.h_hi')}))), false) AS hot,
              coalesce(k.alarm_on AND k.sample_mode = 'latest' AND v.p_ts < v.lo
                AND ${clearBefore('temp', 'v.p_t')} AND ${clearBefore('hum', 'v.p_h')}
                AND NOT EXISTS (SELECT 1 FROM exception_record e WHERE e.sensor_id = v.s AND e.ongoing AND e.type = 'data')
                AND NOT EXISTS (SELECT 1 FROM exception_record e WHERE e.carrier_id = k.id AND e.sensor_id IS NULL AND e.ongoing AND e.type = 'data')
                AND NOT ${boundByRules('k.id')},
              false) AS calm
         FROM unnest($1::int[], $2::int[], $3::timestamptz[], $4::timestamptz[], $5::real[], $6::real[], $7::real[], $8::real[],
                     $9::timestamptz[], $10::real[], $11::real[])
                AS v(s, c, lo, hi, t_lo, t_hi, h_lo, h_hi, p_ts, p_t, p_h)
         LEFT JOIN sensor s ON s.id = v.s LEFT JOIN ${CARRIER_ALARM} k ON k.id = s.carrier_id
     ), released AS (
       UPDATE alarm_queue a SET backfill = false FROM v
        WHERE a.sensor_id = v.s AND a.backfill AND v.calm AND NOT v.hot AND v.hi < now() - ${BACKFILL_BEHIND}
     )
     INSERT INTO alarm_queue (sensor_id, customer_id, min_ts, max_ts, hot_version, widened_at, backfill)
     SELECT s, c, lo, hi, CASE WHEN hot THEN 1 END, now(), hi < now() - ${BACKFILL_BEHIND} FROM v WHERE hot OR NOT calm
      ORDER BY s
     ON CONFLICT (sensor_id) DO UPDATE SET min_ts = LEAST(alarm_queue.min_ts, EXCLUDED.min_ts),
       max_ts = GREATEST(alarm_queue.max_ts, EXCLUDED.max_ts), version = alarm_queue.version + 1,
       hot_version = CASE WHEN EXCLUDED.hot_version IS NULL THEN alarm_queue.hot_version ELSE alarm_queue.version + 1 END,
       widened_at = now(),
       backfill = GREATEST(alarm_queue.max_ts, EXCLUDED.max_ts) < now() - ${BACKFILL_BEHIND}
              AND GREATEST(alarm_queue.max_ts, EXCLUDED.max_ts) - LEAST(alarm_queue.min_ts, EXCLUDED.min_ts) > 1.5 * (now() - alarm_queue.queued_at)`,
    [
      ids,
      col((s) => s.customerId),
      col((s) => iso(s.min)),
      col((s) => iso(s.max)),
      col((s) => s.tLo),
      col((s) => s.tHi),
      col((s) => s.hLo),
      col((s) => s.hHi),
      ids.map((id) => prev(id)?.old_ts ?? null),
      ids.map((id) => prev(id)?.old_temp ?? null),
      ids.map((id) => prev(id)?.old_hum ?? null),
    ],
  );
}

export async function touchGateways(q: Queryable, ids: number[]) {
  return q.query<{ id: number; customer_id: number; old_status: number; status: number }>(
    `UPDATE gateway g SET last_seen_at = now(), status = CASE WHEN g.status = 2 THEN 2 ELSE 1 END
       FROM (SELECT id, status AS old_status FROM gateway WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE) o
      WHERE g.id = o.id
      RETURNING g.id, g.customer_id, o.old_status, g.status`,
    [ids],
  );
}

export async function insertRejects(q: Queryable, rejects: Reject[]) {
  await q.query(
    `INSERT INTO ingest_reject (gateway_sn, dev_no, reason, detail, customer_id) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[])`,
    [rejects.map((r) => r.sn), rejects.map((r) => r.dev), rejects.map((r) => r.reason), rejects.map((r) => r.detail.slice(0, 500)), rejects.map((r) => r.customerId ?? null)],
  );
}
