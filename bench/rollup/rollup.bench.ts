/**
 * Rollups and long-range history (docs/jobs.md). On one database, in one run:
 *
 * 1. N sensors × D days of readings, one a minute, are inserted and their 5-minute buckets
 *    marked (as the writer marks them).
 * 2. The rollup job's passes (`rollupAll`) are timed, beside the baseline: one
 *    `INSERT … SELECT … GROUP BY` that builds the same 5-minute rows from all readings at once.
 * 3. A 30-day history of one sensor is read both ways: the raw path's count plus per-bucket
 *    extremes over the readings, and the rollup path over `reading_1h`.
 *
 * Last line: `rollup_readings_per_s=… bulk_readings_per_s=… ratio=… history_raw_ms=… history_rollup_ms=…`.
 * Env: BENCH_SENSORS (20), BENCH_DAYS (30); DATABASE_URL for PostgreSQL, else PGlite in memory.
 */
import { rollupAll } from '../../server/src/ingest/rollup.js';
import { Partitions } from '../../server/src/ingest/partitions.js';
import { prepareDb } from '../../server/src/platform/db/prepare.js';
import { openBenchDb } from '../ingest/db.js';

const SENSORS = Number(process.env.BENCH_SENSORS ?? 20);
const DAYS = Number(process.env.BENCH_DAYS ?? 30);

const bench = await openBenchDb();
const { db } = bench;
await prepareDb(db);
const end = Math.floor(Date.now() / 3_600_000) * 3_600_000;
const start = end - DAYS * 86_400_000;
const perSensor = DAYS * 1440;
const total = SENSORS * perSensor;

// A customer and sensors to own the readings (ids only matter to the rollups).
const tag = Date.now().toString(36).toUpperCase();
const [cust] = await db.query<{ id: number }>(`INSERT INTO customer (name, code) VALUES ($1, $2) RETURNING id`, [`Bench rollup ${tag}`, `R${tag}`]);
const sensorIds = Array.from({ length: SENSORS }, (_, i) => 900_000 + i);
await new Partitions(db).ensureFor(Array.from({ length: DAYS + 1 }, (_, d) => start + d * 86_400_000));
console.log(`${bench.label}: ${SENSORS} sensors × ${DAYS} days = ${total.toLocaleString('en-US')} readings`);

const t0 = Date.now();
for (const id of sensorIds) {
  await db.query(
    `INSERT INTO reading (sensor_id, ts, customer_id, temp, hum)
     SELECT $1, to_timestamp(($2::bigint + g * 60000) / 1000.0), $3, 4 + sin(g / 90.0) * 2, 50 + cos(g / 70.0) * 5
       FROM generate_series(0, $4 - 1) g ON CONFLICT DO NOTHING`,
    [id, start, cust.id, perSensor],
  );
  await db.query(
    `INSERT INTO rollup_pending (sensor_id, bucket)
     SELECT $1, to_timestamp(($2::bigint + g * 300000) / 1000.0) FROM generate_series(0, $3 - 1) g ON CONFLICT DO NOTHING`,
    [id, start, perSensor / 5],
  );
}
console.log(`inserted in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

// 2. The job, then the baseline into a scratch table of the same shape.
let t = Date.now();
const buckets = await rollupAll(db);
const rollupMs = Date.now() - t;
await db.query('CREATE TEMP TABLE bulk_5m (LIKE reading_5m INCLUDING DEFAULTS)');
t = Date.now();
await db.query(
  `INSERT INTO bulk_5m (sensor_id, bucket, customer_id, n, first_ts, last_ts, temp_min, temp_max, temp_sum, temp_n, hum_min, hum_max, hum_sum, hum_n)
   SELECT sensor_id, to_timestamp(floor(extract(epoch from ts) / 300) * 300), min(customer_id), count(*), min(ts), max(ts),
          min(temp), max(temp), sum(temp), count(temp), min(hum), max(hum), sum(hum), count(hum)
     FROM reading WHERE sensor_id = ANY($1::int[]) GROUP BY 1, 2`,
  [sensorIds],
);
const bulkMs = Date.now() - t;
console.log(`rollup job: ${buckets.toLocaleString('en-US')} buckets in ${rollupMs} ms; one GROUP BY over everything: ${bulkMs} ms`);

// 3. Thirty days of one sensor, 1,000 points: the raw path (count + extremes per bucket) and the rollup path.
const id = sensorIds[0];
const from = new Date(end - 30 * 86_400_000);
const to = new Date(end);
const width = Math.ceil((30 * 86_400_000) / 500);
t = Date.now();
await db.query('SELECT count(*)::int FROM reading WHERE sensor_id = $1 AND ts >= $2 AND ts <= $3', [id, from, to]);
await db.query(
  `WITH r AS MATERIALIZED (SELECT ts, temp, hum, floor((extract(epoch from ts) * 1000 - $4) / $5)::int AS b FROM reading WHERE sensor_id = $1 AND ts >= $2 AND ts <= $3)
   SELECT * FROM (SELECT DISTINCT ON (b) * FROM r ORDER BY b, temp ASC, ts) a UNION SELECT * FROM (SELECT DISTINCT ON (b) * FROM r ORDER BY b, temp DESC, ts) z`,
  [id, from, to, from.getTime(), width],
);
const rawMs = Date.now() - t;
t = Date.now();
await db.query(
  `SELECT min(first_ts), max(last_ts), sum(n)::int, min(temp_min), max(temp_max), min(hum_min), max(hum_max)
     FROM reading_1h WHERE sensor_id = $1 AND bucket >= $2 AND bucket <= $3 GROUP BY floor((extract(epoch from bucket) * 1000 - $4) / $5)`,
  [id, from, to, from.getTime(), Math.max(3_600_000, Math.ceil(width / 3_600_000) * 3_600_000)],
);
const rollupReadMs = Date.now() - t;

const rollupRps = Math.round(total / (rollupMs / 1000));
const bulkRps = Math.round(total / (bulkMs / 1000));
console.log(`30-day history of one sensor: raw ${rawMs} ms, from the hourly rollups ${rollupReadMs} ms`);
console.log(
  `rollup_readings_per_s=${rollupRps} bulk_readings_per_s=${bulkRps} ratio=${(rollupRps / bulkRps).toFixed(3)} history_raw_ms=${rawMs} history_rollup_ms=${rollupReadMs}`,
);
await db.query('DELETE FROM reading WHERE sensor_id = ANY($1::int[])', [sensorIds]);
await db.query('DELETE FROM reading_5m WHERE sensor_id = ANY($1::int[])', [sensorIds]);
await db.query('DELETE FROM reading_1h WHERE sensor_id = ANY($1::int[])', [sensorIds]);
await db.query('DELETE FROM customer WHERE id = $1', [cust.id]);
await bench.close();
