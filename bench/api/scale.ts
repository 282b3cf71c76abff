/**
 * `BENCH_SCALE=1000,100000 npm run bench:api`: the same list pages of one customer at each
 * size, side by side (issue 33: p99 at 100,000 rows within 3× of the same page at 1,000).
 * For each size a customer of its own is made by SQL in a fresh database on DATABASE_URL's
 * server: N sensors, N gateways (4G sensors are their own gateways), N monitoring points in a
 * scene tree of 20 wards, N closed exceptions (one in a hundred ongoing), and ten readings per
 * sensor, so that a list that touched readings would grow with them. Every route is driven at
 * BENCH_RATE (100) requests/s for BENCH_SECONDS (10) after 2 s of warm-up, as that customer's
 * administrator, by the open-loop load of load.ts; the console runs in this process (buildApp).
 * BENCH_ONLY: the routes whose name starts so. BENCH_KEEP=1: the database stays (its URL printed).
 * Last line: `scale=… worst_ratio=… worst_route=… over_3x=…`.
 */
import { loadavg } from 'node:os';
import { freshDb } from '../../server/test/db.js';
import type { Db } from '../../server/src/platform/db/client.js';
import { createCustomerWithAdmin } from '../../server/src/platform/seed/root.js';
import { createSession, SESSION_COOKIE } from '../../server/src/platform/auth/session.js';
import { loadConfig } from '../../server/src/config.js';
import { buildApp } from '../../server/src/app.js';
import { Bus } from '../../server/src/platform/events.js';
import { driveLoad, type LoadResult } from './drive.js';

const SIZES = process.env.BENCH_SCALE!.split(',').map(Number);
const RATE = Number(process.env.BENCH_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
if (!process.env.DATABASE_URL) throw new Error('BENCH_SCALE needs DATABASE_URL (PostgreSQL)');

/** One customer of `n` of everything; answers its administrator and a few ids the filters name. */
async function grow(db: Db, n: number) {
  const code = `SC${n}`;
  const { customerId, userId } = await createCustomerWithAdmin(db, { name: `Scale ${n}`, code, account: `scale${n}`, password: 'scale-bench' });
  const [root] = await db.query<{ id: number }>(`INSERT INTO scene (customer_id, code, label) VALUES ($1, $2, 'Hospital') RETURNING id`, [customerId, code]);
  await db.query(`INSERT INTO scene (customer_id, parent_id, code, label) SELECT $1, $2, $3 || '-' || w, 'Ward ' || w FROM generate_series(1, 20) w`, [customerId, root.id, code]);
  await db.query(
    `INSERT INTO gateway (customer_id, sn, name, secret_hash, status, last_seen_at)
     SELECT $1, $2 || lpad(to_hex(g), 8, '0'), 'Gateway ' || g, 'x', CASE WHEN g % 10 = 0 THEN 0 ELSE 1 END, now() - (g % 600) * interval '1 second'
       FROM generate_series(0, $3::int - 1) g`,
    [customerId, code, n],
  );
  await db.query(
    `INSERT INTO carrier (customer_id, scene_id, name, type, alarm_on, temp_min, temp_max)
     SELECT $1, w.id, 'Fridge ' || g, 2, g % 7 <> 0, 2, 8
       FROM generate_series(0, $2::int - 1) g JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM scene WHERE parent_id = $3) w ON w.k = g % 20`,
    [customerId, n, root.id],
  );
  await db.query(
    `WITH gw AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM gateway WHERE customer_id = $1),
          ca AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM carrier WHERE customer_id = $1)
     INSERT INTO sensor (customer_id, dev_no, type, gateway_id, carrier_id, status, last_ts, last_temp, last_hum, sample_interval)
     SELECT $1, $2 || lpad(ca.k::text, 8, '0'), '4g_th', gw.id, ca.id, CASE WHEN ca.k % 10 = 0 THEN 0 ELSE 1 END, now(), 4 + (ca.k % 40) / 10.0, 50, 60
       FROM ca JOIN gw USING (k)`,
    [customerId, code],
  );
  await db.query(
    `INSERT INTO reading (sensor_id, ts, customer_id, temp, hum)
     SELECT s.id, date_trunc('minute', now()) - m * interval '1 minute', $1, 4 + m / 10.0, 50 FROM sensor s, generate_series(1, 10) m WHERE s.customer_id = $1`,
    [customerId],
  );
  await db.query(
    `INSERT INTO exception_record (customer_id, sensor_id, carrier_id, type, category, status, ongoing, start_ts, end_ts, duration_s, first_value, peak_value, limit_min, limit_max)
     SELECT $1, s.id, s.carrier_id, 'data', CASE WHEN k % 3 = 0 THEN 'temp_low' ELSE 'temp_high' END, k % 3, k % 100 = 0,
            now() - make_interval(mins => k * 3), CASE WHEN k % 100 = 0 THEN NULL ELSE now() - make_interval(mins => k * 3 - 10) END, 600, 8.5, 9.1, 2, 8
       FROM (SELECT id, carrier_id, (row_number() OVER (ORDER BY id) - 1)::int AS k FROM sensor WHERE customer_id = $1) s`,
    [customerId],
  );
  const mid = Math.floor(n / 2);
  const [ids] = await db.query<{ scene: number; carrier: number; dev: string; sn: string }>(
    `SELECT (SELECT id FROM scene WHERE parent_id = $2 ORDER BY id LIMIT 1) AS scene,
            (SELECT id FROM carrier WHERE customer_id = $1 ORDER BY id OFFSET $3 LIMIT 1) AS carrier,
            (SELECT dev_no FROM sensor WHERE customer_id = $1 ORDER BY id OFFSET $3 LIMIT 1) AS dev,
            (SELECT sn FROM gateway WHERE customer_id = $1 ORDER BY id OFFSET $3 LIMIT 1) AS sn`,
    [customerId, root.id, mid],
  );
  return { customerId, userId, mid, ...ids };
}

const { db, drop, url } = await freshDb(process.env.DATABASE_URL);
const customers = [];
for (const n of SIZES) {
  const t = performance.now();
  customers.push({ n, ...(await grow(db, n)) });
  console.log(`customer of ${n.toLocaleString('en-US')} sensors, gateways, monitoring points and exceptions, ${(n * 10).toLocaleString('en-US')} readings: made in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
// What autovacuum keeps true of a database in use (this machine's PostgreSQL runs with it off).
await db.exec('VACUUM ANALYZE');

const config = { ...loadConfig({ ...process.env, VITEST: '1', DEMO: '0', LOG_LEVEL: 'silent' }), loginRateLimit: 100_000 };
const app = await buildApp({ config, db, bus: new Bus() });
await app.listen({ port: 0, host: '127.0.0.1' });
const addr = app.server.address();
const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;

type C = (typeof customers)[number];
const page = 'iDisplayStart=0&iDisplayLength=20';
const routes: [string, (c: C) => string][] = [
  ['sensor/page', () => `/service/sensor/page?${page}`],
  ['sensor/page status=offline', () => `/service/sensor/page?${page}&status=0`],
  ['sensor/page devNo=', (c) => `/service/sensor/page?${page}&devNo=${c.dev}`],
  ['sensor/page sort=lastTs desc', () => `/service/sensor/page?${page}&sort=lastTs&order=desc`],
  ['gateway/page', () => `/service/gateway/page?${page}`],
  ['gateway/page status=offline', () => `/service/gateway/page?${page}&status=0`],
  ['gateway/page sn=', (c) => `/service/gateway/page?${page}&sn=${c.sn}`],
  ['carrier/page', () => `/service/carrier/page?${page}`],
  ['carrier/page sceneId=', (c) => `/service/carrier/page?${page}&sceneId=${c.scene}`],
  ['carrier/page name=', (c) => `/service/carrier/page?${page}&name=${encodeURIComponent(`Fridge ${c.mid}`)}`],
  ['exception/page', () => `/service/exception/page?${page}`],
  ['exception/page ongoing', () => `/service/exception/page?${page}&ongoing=true`],
  ['exception/page carrierId=', (c) => `/service/exception/page?${page}&carrierId=${c.carrier}`],
  ['exception/page devNo=', (c) => `/service/exception/page?${page}&devNo=${c.dev}`],
];
const only = process.env.BENCH_ONLY;

console.log(`load average ${load()}; ${RATE} requests/s for ${SECONDS} s per route and size`);
console.log(`route | ${SIZES.map((n) => `p50 / p99 ms at ${n.toLocaleString('en-US')}`).join(' | ')} | p99 ratio | non-2xx`);
let worst = { ratio: 0, route: '' };
let over = 0;
for (const [name, path] of routes.filter(([n]) => !only || n.startsWith(only))) {
  const results: LoadResult[] = [];
  for (const c of customers) {
    const headers = { cookie: `${SESSION_COOKIE}=${await createSession(db, c.userId, c.customerId)}`, 'accept-encoding': 'br, gzip' };
    await driveLoad(base + path(c), RATE, 2, headers);
    results.push(await driveLoad(base + path(c), RATE, SECONDS, headers));
  }
  // A p99 under 5 ms is the machine's noise, not the query's: the ratio counts from there.
  const ratio = Math.max(results[results.length - 1].p99, 5) / Math.max(results[0].p99, 5);
  if (ratio > worst.ratio) worst = { ratio, route: name };
  if (ratio > 3) over++;
  console.log(`${name} | ${results.map((r) => `${r.p50} / ${r.p99}`).join(' | ')} | ${ratio.toFixed(2)}${ratio > 3 ? ' OVER 3×' : ''} | ${results.map((r) => r.bad).join(', ')} (load ${load()})`);
}
await app.close();
// BENCH_KEEP=1 keeps the database, for EXPLAIN of a page that grew (drop it by hand after).
if (process.env.BENCH_KEEP) console.log(`kept ${url}`);
else await drop();
console.log(`scale=${SIZES.join(',')} worst_ratio=${worst.ratio.toFixed(2)} worst_route="${worst.route}" over_3x=${over}`);
