/**
 * Detail data over one year of one-minute readings of one carrier's sensor (525,600 rows,
 * docs/performance.md "Detail data"): the console's page call (`detailPage`, 15 rows, the
 * count included) timed at the first page, the middle page and the last page, as a sensor and
 * as the carrier's value, beside two baselines measured in the same run: a plain
 * `SELECT count(*)` over the same readings, and the naive page (`ORDER BY ts DESC OFFSET … LIMIT
 * 15` on `sensor_id = ANY(…)`) at the middle.
 *
 * Last line: `first_ms=… middle_ms=… last_ms=… carrier_middle_ms=… count_ms=… naive_middle_ms=… rows=…` (p50 each).
 * Env: BENCH_DAYS (365), BENCH_RUNS (9); DATABASE_URL for PostgreSQL, else PGlite in memory.
 */
import { prepareDb } from '../../server/src/platform/db/prepare.js';
import { Partitions } from '../../server/src/ingest/partitions.js';
import { detailPage } from '../../server/src/modules/detaildata/detaildata.service.js';
import type { Scope } from '../../server/src/platform/auth/scope.js';
import { openBenchDb } from '../ingest/db.js';

const DAYS = Number(process.env.BENCH_DAYS ?? 365);
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const bench = await openBenchDb();
const { db } = bench;
await prepareDb(db);

const end = Math.floor(Date.now() / 60_000) * 60_000 - 60_000;
const start = end - DAYS * 86_400_000;
const rows = DAYS * 1440;
const tag = Date.now().toString(36).toUpperCase();
const [cust] = await db.query<{ id: number }>(`INSERT INTO customer (name, code) VALUES ($1, $2) RETURNING id`, [`Bench detail ${tag}`, `D${tag}`]);
const [scene] = await db.query<{ id: number }>(`INSERT INTO scene (customer_id, label, code) VALUES ($1, 'Bench', $2) RETURNING id`, [cust.id, `D${tag}`]);
const [carrier] = await db.query<{ id: number }>(`INSERT INTO carrier (customer_id, scene_id, name, type) VALUES ($1, $2, 'Bench fridge', 2) RETURNING id`, [cust.id, scene.id]);
const [gw] = await db.query<{ id: number }>(`INSERT INTO gateway (customer_id, sn, name, secret_hash) VALUES ($1, $2, 'bench', 'x') RETURNING id`, [cust.id, `BD${tag}`.slice(0, 12)]);
const devNo = `D${tag}`.slice(0, 30);
const [sensor] = await db.query<{ id: number }>(`INSERT INTO sensor (customer_id, dev_no, type, gateway_id, carrier_id, status) VALUES ($1, $2, 'zigbee_th', $3, $4, 1) RETURNING id`, [cust.id, devNo, gw.id, carrier.id]);
console.log(`${bench.label}: ${rows.toLocaleString('en-US')} readings of one sensor over ${DAYS} days`);

const t = Date.now();
await new Partitions(db).ensureFor(Array.from({ length: Math.ceil(DAYS / 28) + 2 }, (_, i) => start + i * 28 * 86_400_000).concat(end));
const CHUNK = 100_000;
for (let i = 0; i < rows; i += CHUNK) {
  const n = Math.min(CHUNK, rows - i);
  await db.query(
    `INSERT INTO reading (sensor_id, ts, customer_id, temp, hum)
     SELECT $1, to_timestamp(($2::bigint + g::bigint * 60000) / 1000.0), $3, 4 + sin(g / 97.0) * 2, 50 FROM generate_series($4::int, $4::int + $5 - 1) g`,
    [sensor.id, start, cust.id, i, n],
  );
}
await db.query('ANALYZE reading');
console.log(`inserted in ${((Date.now() - t) / 1000).toFixed(1)} s`);

const scope: Scope = { userId: 1, account: 'bench', name: 'bench', customerId: cust.id, homeCustomerId: cust.id, userType: 3, isAdmin: true, customerIds: null, sceneIds: null, funcs: new Set() };
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function time(fn: () => Promise<unknown>): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const s = performance.now();
    await fn();
    xs.push(performance.now() - s);
  }
  return p50(xs);
}
const page = (offset: number, by: 'sensor' | 'carrier' = 'sensor') =>
  detailPage(db, scope, { ...(by === 'sensor' ? { devNos: [devNo] } : { carrierIds: [carrier.id] }), start, end, offset, length: 15 });

const middle = Math.floor(rows / 2);
const check = await page(middle);
if (check.total !== rows || check.rows.length !== 15) throw new Error(`unexpected page: total ${check.total}, ${check.rows.length} rows`);
const first = await time(() => page(0));
const mid = await time(() => page(middle));
const last = await time(() => page(rows - 15));
const carrierMid = await time(() => page(middle, 'carrier'));
const count = await time(() => db.query('SELECT count(*)::int FROM reading WHERE sensor_id = $1 AND ts >= $2 AND ts <= $3', [sensor.id, new Date(start), new Date(end)]));
const naive = await time(() =>
  db.query('SELECT ts, temp, hum FROM reading WHERE sensor_id = ANY($1::int[]) AND ts >= $2 AND ts <= $3 ORDER BY ts DESC, sensor_id OFFSET $4 LIMIT 15', [[sensor.id], new Date(start), new Date(end), middle]),
);
console.log(`first_ms=${first.toFixed(1)} middle_ms=${mid.toFixed(1)} last_ms=${last.toFixed(1)} carrier_middle_ms=${carrierMid.toFixed(1)} count_ms=${count.toFixed(1)} naive_middle_ms=${naive.toFixed(1)} rows=${rows}`);
await db.query('DELETE FROM reading WHERE sensor_id = $1', [sensor.id]);
await db.query('DELETE FROM customer WHERE id = $1', [cust.id]);
await bench.close();
