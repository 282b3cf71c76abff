/**
 * The statistics of issue 29 (docs/statistics.md, docs/performance.md): `statistics()` of the
 * console, as /service/count/statistic and /statistic/list answer it, timed over
 *   1. one year of one-minute readings of one carrier (525,600 readings), by month;
 *   2. a month of one-minute readings of 100 carriers (4,320,000 readings), the summary of each;
 * each beside the baseline of the same run: a plain `SELECT count(*)` over the same readings.
 * The readings wander across the 2–8 °C zone now and then (buckets that straddle a limit are
 * read raw), the customer's zone is +05:45 (a day starts at :15 past a UTC hour) and one invalid
 * rule excludes an hour a day on every carrier: the common case with its awkward parts.
 *
 * Last line: `year_ms_p50=… year_count_ms_p50=… month100_ms_p50=… month100_count_ms_p50=… rows=…`.
 * Env: BENCH_RUNS (10), BENCH_CARRIERS (100); DATABASE_URL for PostgreSQL, else PGlite in memory.
 */
import { prepareDb } from '../../server/src/platform/db/prepare.js';
import { Partitions } from '../../server/src/ingest/partitions.js';
import { rollupAll } from '../../server/src/ingest/rollup.js';
import { statistics } from '../../server/src/modules/statistic/statistic.repository.js';
import type { Scope } from '../../server/src/platform/auth/scope.js';
import { openBenchDb } from '../ingest/db.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const CARRIERS = Number(process.env.BENCH_CARRIERS ?? 100);
const DAY = 86_400_000;
const bench = await openBenchDb();
const { db } = bench;
await prepareDb(db);

const end = Math.floor(Date.now() / 3_600_000) * 3_600_000;
const yearStart = end - 365 * DAY;
const monthStart = end - 30 * DAY;
const tag = Date.now().toString(36).toUpperCase();
const [cust] = await db.query<{ id: number }>(`INSERT INTO customer (name, code, time_zone) VALUES ($1, $2, '+05:45') RETURNING id`, [`Bench statistic ${tag}`, `S${tag}`]);
const [scene] = await db.query<{ id: number }>(`INSERT INTO scene (customer_id, code, label) VALUES ($1, $2, 'bench') RETURNING id`, [cust.id, `S${tag}`]);
const [gw] = await db.query<{ id: number }>(`INSERT INTO gateway (customer_id, sn, name, secret_hash) VALUES ($1, $2, 'bench', 'x') RETURNING id`, [cust.id, `BS${tag}`.slice(0, 12)]);

/** A carrier with one sensor reporting every minute over [from, end). */
async function carrier(i: number, from: number): Promise<{ carrierId: number; sensorId: number }> {
  const [c] = await db.query<{ id: number }>(
    `INSERT INTO carrier (customer_id, scene_id, name, type, temp_min, temp_max) VALUES ($1, $2, $3, 2, 2, 8) RETURNING id`,
    [cust.id, scene.id, `Fridge ${i}`],
  );
  const [s] = await db.query<{ id: number }>(
    `INSERT INTO sensor (customer_id, dev_no, type, gateway_id, carrier_id, sample_interval) VALUES ($1, $2, 'zigbee_t', $3, $4, 60) RETURNING id`,
    [cust.id, `S${tag}${i}`.slice(0, 30), gw.id, c.id],
  );
  const rows = Math.round((end - from) / 60_000);
  for (let k = 0; k < rows; k += 200_000) {
    // 5 °C ± 2.5 over a day and a half, out of the zone at the crests; seconds of jitter.
    await db.query(
      `INSERT INTO reading (sensor_id, ts, customer_id, temp)
       SELECT $1, to_timestamp(($2::bigint + g::bigint * 60000 + (g % 13) * 1000) / 1000.0), $3, 5 + 3.5 * sin(g / 1400.0 + $6)
         FROM generate_series($4::int, $4::int + $5 - 1) g`,
      [s.id, from, cust.id, k, Math.min(200_000, rows - k), i],
    );
  }
  await db.query(`INSERT INTO rollup_pending (sensor_id, bucket) SELECT $1, to_timestamp(($2::bigint + g::bigint * 300000) / 1000.0) FROM generate_series(0, $3 - 1) g ON CONFLICT DO NOTHING`, [s.id, from, rows / 5]);
  return { carrierId: c.id, sensorId: s.id };
}

let t = Date.now();
await new Partitions(db).ensureFor(Array.from({ length: 16 }, (_, i) => yearStart + i * 28 * DAY).concat(end));
const year = await carrier(0, yearStart);
const month: { carrierId: number; sensorId: number }[] = [];
for (let i = 1; i <= CARRIERS; i++) month.push(await carrier(i, monthStart));
const rows = 365 * 1440 + CARRIERS * 30 * 1440;
console.log(`${bench.label}: ${rows.toLocaleString('en-US')} readings (one carrier a year, ${CARRIERS} carriers a month) inserted in ${((Date.now() - t) / 1000).toFixed(1)} s`);
// An hour a day excluded on every carrier (a defrost at 03:00 local): every day has an hour read raw.
const ids = [year.carrierId, ...month.map((m) => m.carrierId)];
const [rule] = await db.query<{ id: number }>(`INSERT INTO invalid_rule (customer_id, name, kind, weekdays, windows, carrier_ids) VALUES ($1, 'Defrost', 'schedule', '{1,2,3,4,5,6,7}', '[[180,240]]', $2) RETURNING id`, [cust.id, ids]);
await db.query(`INSERT INTO invalid_rule_version (customer_id, rule_id, kind, weekdays, windows, tz, carrier_ids, valid_from) VALUES ($1, $2, 'schedule', '{1,2,3,4,5,6,7}', '[[180,240]]', '+05:45', $3, $4)`, [cust.id, rule.id, ids, new Date(yearStart - DAY)]);
t = Date.now();
await rollupAll(db);
console.log(`rolled up in ${((Date.now() - t) / 1000).toFixed(1)} s`);

const scope: Scope = { userId: 1, account: 'bench', name: 'bench', customerId: cust.id, homeCustomerId: cust.id, userType: 3, isAdmin: true, customerIds: null, sceneIds: null, funcs: new Set() };
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
async function timed<T>(f: () => Promise<T>): Promise<[number[], T]> {
  const times: number[] = [];
  let last: T;
  for (let i = 0; i < RUNS; i++) {
    const s = performance.now();
    last = await f();
    times.push(performance.now() - s);
  }
  return [times, last!];
}

const [yearMs, yearAnswer] = await timed(() => statistics(db, scope, [year.carrierId], yearStart, end, { period: 'month' }));
const [yearCount] = await timed(() => db.query('SELECT count(*)::int FROM reading WHERE sensor_id = $1 AND ts >= $2 AND ts < $3', [year.sensorId, new Date(yearStart), new Date(end)]));
const y = yearAnswer[0].summary.temp;
console.log(`year: ${y.readings.toLocaleString('en-US')} readings, ${yearAnswer[0].periods!.length} months, avg ${y.avg!.toFixed(3)} °C, MKT ${y.mkt!.toFixed(3)} °C, pass rate ${(y.passRate! * 100).toFixed(2)} %, excluded ${y.excludedS / 3600} h`);

const sensorIds = month.map((m) => m.sensorId);
const [monthMs, monthAnswer] = await timed(() => statistics(db, scope, month.map((m) => m.carrierId), monthStart, end));
const [monthCount] = await timed(() => db.query('SELECT count(*)::int FROM reading WHERE sensor_id = ANY($1::int[]) AND ts >= $2 AND ts < $3', [sensorIds, new Date(monthStart), new Date(end)]));
console.log(`month of ${monthAnswer.length} carriers: ${monthAnswer.reduce((n, r) => n + r.summary.temp.readings, 0).toLocaleString('en-US')} readings`);

console.log(
  `year_ms_p50=${pct(yearMs, 50).toFixed(1)} year_count_ms_p50=${pct(yearCount, 50).toFixed(1)} month${CARRIERS}_ms_p50=${pct(monthMs, 50).toFixed(1)} month${CARRIERS}_count_ms_p50=${pct(monthCount, 50).toFixed(1)} rows=${rows}`,
);
await db.query('DELETE FROM reading WHERE customer_id = $1', [cust.id]);
await db.query('DELETE FROM customer WHERE id = $1', [cust.id]);
await bench.close();
