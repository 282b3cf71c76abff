/**
 * One year of one-minute readings of one sensor (525,600 rows), charted (docs/performance.md).
 * The history call of the console (`history()`, maxPoints 2,000) is timed BENCH_RUNS times over
 * the whole year — answered from the hourly rollups — beside the baseline of the raw path the
 * console used before the rollups: count plus per-bucket extremes over every reading.
 *
 * Last line: `history_ms_p50=… history_ms_p99=… raw_ms_p50=… rows=…`.
 * Env: BENCH_DAYS (365), BENCH_RUNS (20); DATABASE_URL for PostgreSQL, else PGlite in memory.
 */
import { prepareDb } from '../../server/src/platform/db/prepare.js';
import { Partitions } from '../../server/src/ingest/partitions.js';
import { rollupAll } from '../../server/src/ingest/rollup.js';
import { history } from '../../server/src/modules/history/history.repository.js';
import type { Scope } from '../../server/src/platform/auth/scope.js';
import { openBenchDb } from '../ingest/db.js';

const DAYS = Number(process.env.BENCH_DAYS ?? 365);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const bench = await openBenchDb();
const { db } = bench;
await prepareDb(db);

const end = Math.floor(Date.now() / 60_000) * 60_000 - 60_000;
const start = end - DAYS * 86_400_000;
const rows = DAYS * 1440;
const tag = Date.now().toString(36).toUpperCase();
const [cust] = await db.query<{ id: number }>(`INSERT INTO customer (name, code) VALUES ($1, $2) RETURNING id`, [`Bench history ${tag}`, `H${tag}`]);
const [gw] = await db.query<{ id: number }>(`INSERT INTO gateway (customer_id, sn, name, secret_hash) VALUES ($1, $2, 'bench', 'x') RETURNING id`, [cust.id, `BH${tag}`.slice(0, 12)]);
const devNo = `H${tag}`.slice(0, 30);
const [sensor] = await db.query<{ id: number }>(`INSERT INTO sensor (customer_id, dev_no, type, gateway_id) VALUES ($1, $2, 'zigbee_th', $3) RETURNING id`, [cust.id, devNo, gw.id]);
console.log(`${bench.label}: ${rows.toLocaleString('en-US')} readings of one sensor over ${DAYS} days`);

let t = Date.now();
await new Partitions(db).ensureFor(Array.from({ length: Math.ceil(DAYS / 28) + 2 }, (_, i) => start + i * 28 * 86_400_000).concat(end));
const CHUNK = 100_000;
for (let i = 0; i < rows; i += CHUNK) {
  const n = Math.min(CHUNK, rows - i);
  await db.query(
    `INSERT INTO reading (sensor_id, ts, customer_id, temp, hum)
     SELECT $1, to_timestamp(($2::bigint + g::bigint * 60000) / 1000.0), $3, 4 + sin(g / 97.0) * 2 + CASE WHEN g % 40000 = 7 THEN 9 ELSE 0 END, 50
       FROM generate_series($4::int, $4::int + $5 - 1) g`,
    [sensor.id, start, cust.id, i, n],
  );
}
await db.query(`INSERT INTO rollup_pending (sensor_id, bucket) SELECT $1, to_timestamp(($2::bigint + g::bigint * 300000) / 1000.0) FROM generate_series(0, $3 - 1) g ON CONFLICT DO NOTHING`, [sensor.id, start, rows / 5]);
console.log(`inserted in ${((Date.now() - t) / 1000).toFixed(1)} s`);
t = Date.now();
await rollupAll(db);
console.log(`rolled up in ${((Date.now() - t) / 1000).toFixed(1)} s`);

const scope: Scope = { userId: 1, account: 'bench', name: 'bench', customerId: cust.id, homeCustomerId: cust.id, userType: 3, isAdmin: true, customerIds: null, sceneIds: null, funcs: new Set() };
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

const times: number[] = [];
let answer: Awaited<ReturnType<typeof history>>;
for (let i = 0; i < RUNS; i++) {
  const s = performance.now();
  answer = await history(db, scope, { deviceNo: devNo, start, end, maxPoints: 2000 });
  times.push(performance.now() - s);
}
console.log(`console history: source ${answer!.source}, ${answer!.points.length} points, total ${answer!.total.toLocaleString('en-US')}, max ${Math.max(...answer!.points.map((p) => p.temp ?? -Infinity))} °C`);

// Baseline: the raw path over every reading (as before the rollups, docs/jobs.md).
const raw: number[] = [];
const width = Math.ceil((end - start + 1) / 1000);
for (let i = 0; i < Math.min(RUNS, 5); i++) {
  const s = performance.now();
  await db.query('SELECT count(*)::int FROM reading WHERE sensor_id = $1 AND ts >= $2 AND ts <= $3', [sensor.id, new Date(start), new Date(end)]);
  await db.query(
    `WITH r AS MATERIALIZED (SELECT ts, temp, floor((extract(epoch from ts) * 1000 - $4) / $5)::int AS b FROM reading WHERE sensor_id = $1 AND ts >= $2 AND ts <= $3)
     SELECT * FROM (SELECT DISTINCT ON (b) * FROM r ORDER BY b, temp ASC, ts) a UNION SELECT * FROM (SELECT DISTINCT ON (b) * FROM r ORDER BY b, temp DESC, ts) z`,
    [sensor.id, new Date(start), new Date(end), start, width],
  );
  raw.push(performance.now() - s);
}
console.log(`history_ms_p50=${pct(times, 50).toFixed(1)} history_ms_p99=${pct(times, 99).toFixed(1)} raw_ms_p50=${pct(raw, 50).toFixed(1)} rows=${rows}`);
await db.query('DELETE FROM customer WHERE id = $1', [cust.id]);
await bench.close();
