import type { Queryable } from '../../platform/db/client.js';
import { sensorOfflineAfterS } from '../../alarm/offline.js';
import type { Tile } from './figures.js';

/*
 * The statistics' reads of readings and rollups: hand-written SQL like the history's (the hot
 * path, docs/data-layer.md). The carriers are found in the caller's scope first
 * (statistic.repository.ts); every statement here is by their ids, their sensors' ids and the
 * carrier's customer (a lent sensor has readings of two customers, docs/devices.md "Lending").
 */

const msOf = (col: string) => `(extract(epoch from ${col}) * 1000)::float8`;

export interface StatSensor {
  id: number;
  carrierId: number;
  type: string;
  /** Seconds between readings: what the offline rate expects. */
  intervalS: number;
  /** A reading older than this no longer counts in the carrier's value (alarm/offline.ts). */
  staleMs: number;
}

/** The running sensors of the carriers, as their value is computed (alarm/carrier.ts aggregateOf). */
export async function statSensors(q: Queryable, carrierIds: readonly number[]): Promise<StatSensor[]> {
  const rows = await q.query<{ id: number; carrier_id: number; type: string; sample_interval: number; offline_s: number }>(
    `SELECT id, carrier_id, type, sample_interval, ${sensorOfflineAfterS('sensor')} AS offline_s FROM sensor WHERE carrier_id = ANY($1::int[]) AND status <> 2 ORDER BY id`,
    [[...carrierIds]],
  );
  return rows.map((r) => ({ id: r.id, carrierId: r.carrier_id, type: r.type, intervalS: Math.max(1, r.sample_interval), staleMs: Number(r.offline_s) * 1000 }));
}

/** The 5-minute buckets of these sensors in [start, end) that the rollup job has yet to (re)compute. */
export async function pendingBuckets(q: Queryable, sensorIds: readonly number[], start: number, end: number): Promise<Map<number, Set<number>>> {
  const out = new Map<number, Set<number>>();
  if (!sensorIds.length) return out;
  const rows = await q.query<{ sensor_id: number; b: number }>(
    `SELECT sensor_id, ${msOf('bucket')} AS b FROM rollup_pending WHERE sensor_id = ANY($1::int[]) AND bucket >= $2 AND bucket < $3`,
    [[...sensorIds], new Date(start - 300_000), new Date(end)],
  );
  for (const r of rows) out.set(r.sensor_id, (out.get(r.sensor_id) ?? new Set()).add(r.b));
  return out;
}

/** A rollup row with each measure's sums; a measure without readings in the bucket is null. */
export interface RollupRow {
  sensorId: number;
  bucket: number;
  temp: Tile | null;
  hum: Tile | null;
}

interface RollupSql {
  sensor_id: number;
  b: number;
  temp_t0: number | null;
  temp_t1: number;
  temp_last: number;
  temp_sw: number;
  temp_sw2: number;
  temp_sk: number;
  temp_min: number;
  temp_max: number;
  temp_n: number;
  hum_t0: number | null;
  hum_t1: number;
  hum_last: number;
  hum_sw: number;
  hum_sw2: number;
  hum_min: number;
  hum_max: number;
  hum_n: number;
}

const ROLLUP_COLS = `sensor_id, ${msOf('bucket')} AS b,
  ${msOf('temp_t0')} AS temp_t0, ${msOf('temp_t1')} AS temp_t1, temp_last, temp_sw, temp_sw2, temp_sk, temp_min::float8 AS temp_min, temp_max::float8 AS temp_max, temp_n,
  ${msOf('hum_t0')} AS hum_t0, ${msOf('hum_t1')} AS hum_t1, hum_last, hum_sw, hum_sw2, hum_min::float8 AS hum_min, hum_max::float8 AS hum_max, hum_n`;

const toRow = (r: RollupSql): RollupRow => ({
  sensorId: r.sensor_id,
  bucket: r.b,
  temp: r.temp_t0 === null ? null : { t0: r.temp_t0, t1: r.temp_t1, last: r.temp_last, sw: r.temp_sw, sw2: r.temp_sw2, sk: r.temp_sk, min: r.temp_min, max: r.temp_max, n: r.temp_n },
  hum: r.hum_t0 === null ? null : { t0: r.hum_t0, t1: r.hum_t1, last: r.hum_last, sw: r.hum_sw, sw2: r.hum_sw2, sk: 0, min: r.hum_min, max: r.hum_max, n: r.hum_n },
});

/** The rollup rows of (sensor, customer, bucket) triples: hours from reading_1h, 5-minute buckets from reading_5m. */
export async function rollupRows(q: Queryable, table: '1h' | '5m', keys: { sensorId: number; customerId: number; bucket: number }[]): Promise<RollupRow[]> {
  if (!keys.length) return [];
  const rows = await q.query<RollupSql>(
    `SELECT ${ROLLUP_COLS} FROM unnest($1::int[], $2::int[], $3::timestamptz[]) AS k(s, c, b)
       JOIN ${table === '1h' ? 'reading_1h' : 'reading_5m'} f ON f.sensor_id = k.s AND f.customer_id = k.c AND f.bucket = k.b`,
    [keys.map((k) => k.sensorId), keys.map((k) => k.customerId), keys.map((k) => new Date(k.bucket))],
  );
  return rows.map(toRow);
}

export interface RawReading {
  sensorId: number;
  ts: number;
  temp: number | null;
  hum: number | null;
}

/**
 * The readings of (sensor, customer) in each window [a, b), in time order per sensor. Values as float8, as the rollups sum them.
 * Each window is read by its own index range (LATERAL, fenced by OFFSET 0 so the planner cannot
 * fold it back into a join): as a plain join, 2,900 windows of 100 carriers' month were answered by
 * sorting every partition's readings for a merge join, 18.7 s where the index ranges take 0.7-1.8 s
 * (docs/performance.md "Statistics").
 */
export async function rawReadings(q: Queryable, windows: { sensorId: number; customerId: number; a: number; b: number }[]): Promise<RawReading[]> {
  if (!windows.length) return [];
  return q.query<RawReading>(
    `SELECT r.sensor_id AS "sensorId", ${msOf('r.ts')} AS ts, r.temp::float8 AS temp, r.hum::float8 AS hum
       FROM unnest($1::int[], $2::int[], $3::timestamptz[], $4::timestamptz[]) AS w(s, c, a, b)
       CROSS JOIN LATERAL (SELECT sensor_id, ts, temp, hum FROM reading WHERE sensor_id = w.s AND customer_id = w.c AND ts >= w.a AND ts < w.b OFFSET 0) r
      ORDER BY r.sensor_id, r.ts`,
    [windows.map((w) => w.sensorId), windows.map((w) => w.customerId), windows.map((w) => new Date(w.a)), windows.map((w) => new Date(w.b))],
  );
}

/** Each sensor's latest reading of a measure before t: where a carrier's value stands when the range starts. */
export async function latestBefore(q: Queryable, field: 'temp' | 'hum', sensorIds: readonly number[], customerId: number, t: number) {
  // The column comes from the closed union above, never from input.
  return q.query<{ id: number; ts: number; v: number }>(
    `SELECT s.id, r.ts, r.v FROM unnest($1::int[]) AS s(id)
       CROSS JOIN LATERAL (SELECT ${msOf('ts')} AS ts, ${field}::float8 AS v FROM reading
                            WHERE sensor_id = s.id AND customer_id = $2 AND ts < $3 AND ${field} IS NOT NULL ORDER BY ts DESC LIMIT 1) r`,
    [[...sensorIds], customerId, new Date(t)],
  );
}

export interface Excursion {
  carrierId: number;
  measure: 'temp' | 'hum';
  start: number;
  /** Null while it goes on. */
  end: number | null;
}

/** The carriers' data exceptions (their own and their sensors') overlapping [start, end). */
export async function excursions(q: Queryable, carrierIds: readonly number[], start: number, end: number): Promise<Excursion[]> {
  if (!carrierIds.length) return [];
  const rows = await q.query<{ carrier_id: number; category: string; s: number; e: number | null }>(
    `SELECT carrier_id, category, ${msOf('start_ts')} AS s, ${msOf('end_ts')} AS e FROM exception_record
      WHERE carrier_id = ANY($1::int[]) AND type = 'data' AND start_ts < $3 AND (end_ts IS NULL OR end_ts > $2)`,
    [[...carrierIds], new Date(start), new Date(end)],
  );
  return rows
    .filter((r) => r.category.startsWith('temp') || r.category.startsWith('hum'))
    .map((r) => ({ carrierId: r.carrier_id, measure: r.category.startsWith('temp') ? 'temp' : 'hum', start: r.s, end: r.e }));
}
