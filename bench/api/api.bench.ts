/**
 * Signed-in API under load (docs/performance.md): the demo data grown to BENCH_DEVICES sensors
 * (10,000) and BENCH_EXCEPTIONS exceptions (1,000,000), then each paged list route is driven at
 * a fixed BENCH_RATE (500 requests/s) for BENCH_SECONDS by an open-loop load (load.ts) with the demo admin's
 * session, beside the baseline of `/healthz` (no session, no query) at the same rate.
 *
 * The console runs in this process (buildApp, as main.ts does), so the bench works on PGlite as
 * on PostgreSQL; the load runs in a child process.
 * Last line: `api_p99_ms=<worst route's p99> healthz_p99_ms=… rate=… routes=…`.
 * Env: DATABASE_URL (PostgreSQL; else PGlite in memory), BENCH_DEVICES, BENCH_EXCEPTIONS,
 * BENCH_RATE, BENCH_SECONDS (10), BENCH_ONLY (a route name prefix: only that route and the baseline).
 * BENCH_SCALE=1000,100000: the list pages at those sizes side by side instead (scale.ts).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { prepareDb } from '../../server/src/platform/db/prepare.js';
import { seedDemo, DEMO_CUSTOMER } from '../../server/src/demo/seed.js';
import { createSession, SESSION_COOKIE } from '../../server/src/platform/auth/session.js';
import { loadConfig } from '../../server/src/config.js';
import { buildApp } from '../../server/src/app.js';
import { Bus } from '../../server/src/platform/events.js';
import { openBenchDb } from '../ingest/db.js';
import { postgresCpu, processCpuS } from '../cpu.js';
import { driveLoad } from './drive.js';

// BENCH_SCALE: the same pages at two sizes instead (scale.ts).
if (process.env.BENCH_SCALE) {
  await import('./scale.js');
  process.exit(0);
}

const DEVICES = Number(process.env.BENCH_DEVICES ?? 10_000);
const EXCEPTIONS = Number(process.env.BENCH_EXCEPTIONS ?? 1_000_000);
const RATE = Number(process.env.BENCH_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

const bench = await openBenchDb();
const { db } = bench;
await prepareDb(db);
await seedDemo(db);
const [demo] = await db.query<{ id: number }>('SELECT id FROM customer WHERE code = $1', [DEMO_CUSTOMER.code]);
const [admin] = await db.query<{ id: number }>('SELECT id FROM app_user WHERE account = $1', [DEMO_CUSTOMER.account]);

// Grow the demo customer to the bench's size once; a second run on the same database reuses it.
const t = Date.now();
const [{ n: sensors }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM sensor WHERE customer_id = $1', [demo.id]);
if (sensors < DEVICES) {
  const gateways = Math.ceil((DEVICES - sensors) / 50);
  await db.query(
    `INSERT INTO gateway (customer_id, sn, name, secret_hash, status, last_seen_at)
     SELECT $1, 'BA' || lpad(g::text, 10, '0'), 'Bench gateway ' || g, 'x', 1, now() FROM generate_series(1, $2) g ON CONFLICT (sn) DO NOTHING`,
    [demo.id, gateways],
  );
  await db.query(
    `INSERT INTO sensor (customer_id, dev_no, type, gateway_id, status, last_ts, last_temp, last_hum)
     SELECT $1, 'BA' || lpad(g::text, 8, '0'), 'zigbee_th', gw.id, 1, now(), 4 + (g % 40) / 10.0, 50
       FROM generate_series(1, $2) g JOIN gateway gw ON gw.sn = 'BA' || lpad(((g - 1) / 50 + 1)::text, 10, '0')
     ON CONFLICT (dev_no) DO NOTHING`,
    [demo.id, DEVICES - sensors],
  );
}
const [{ n: exceptions }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM exception_record WHERE customer_id = $1', [demo.id]);
if (exceptions < EXCEPTIONS) {
  const [{ lo, hi }] = await db.query<{ lo: number; hi: number }>('SELECT min(id) AS lo, max(id) AS hi FROM sensor WHERE customer_id = $1', [demo.id]);
  for (let done = exceptions; done < EXCEPTIONS; done += 100_000) {
    // Closed exceptions a few minutes apart over the past years, on the demo's sensors.
    await db.query(
      `INSERT INTO exception_record (customer_id, sensor_id, type, category, status, ongoing, start_ts, end_ts, duration_s, first_value, peak_value, limit_min, limit_max)
       SELECT $1, $2::int + g % ($3::int - $2::int + 1), 'data', CASE WHEN g % 3 = 0 THEN 'temp_low' ELSE 'temp_high' END, 2, false,
              now() - make_interval(mins => g * 3), now() - make_interval(mins => g * 3 - 10), 600, 8.5, 9.1, 2, 8
         FROM generate_series($4::int, $5::int) g`,
      [demo.id, lo, hi, done + 1, Math.min(EXCEPTIONS, done + 100_000)],
    );
  }
  await db.exec('ANALYZE exception_record; ANALYZE sensor; ANALYZE gateway');
}
// What autovacuum keeps true of a database in use (the visibility map that lets a count read the
// index alone, fresh statistics); this machine's PostgreSQL runs with autovacuum off.
await db.query('VACUUM ANALYZE sensor, gateway, carrier, exception_record, notice_log');
console.log(`${bench.label}: demo customer with ${DEVICES.toLocaleString('en-US')} sensors and ${EXCEPTIONS.toLocaleString('en-US')} exceptions (grown in ${((Date.now() - t) / 1000).toFixed(1)} s)`);

const config = { ...loadConfig({ ...process.env, VITEST: '1', DEMO: '1', LOG_LEVEL: 'silent' }), loginRateLimit: 100_000 };
const app = await buildApp({ config, db, bus: new Bus() });
await app.listen({ port: 0, host: '127.0.0.1' });
const addr = app.server.address();
const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
const token = await createSession(db, admin.id, demo.id);
// As a browser asks: answers over 1 KB come compressed.
const headers = { cookie: `${SESSION_COOKIE}=${token}`, 'accept-encoding': 'br, gzip' };

const page = 'iDisplayStart=0&iDisplayLength=20';
const routes: [string, string][] = [
  ['healthz (baseline)', '/healthz'],
  ['sensor/page', `/service/sensor/page?${page}`],
  ['gateway/page', `/service/gateway/page?${page}`],
  ['carrier/page', `/service/carrier/page?${page}`],
  ['exception/page', `/service/exception/page?${page}`],
  ['exception/page status=2 p100', `/service/exception/page?iDisplayStart=2000&iDisplayLength=20&status=2`],
  ['notice/page', `/service/notice/page?${page}`],
];

const drive = (path: string, seconds = SECONDS) => driveLoad(base + path, RATE, seconds, headers);

let worst = 0;
let healthz = 0;
console.log('route | requests/s | p50 ms | p99 ms | max ms | non-2xx | console event-loop delay max ms | CPU ms per request: console, PostgreSQL');
const only = process.env.BENCH_ONLY;
for (const [name, path] of routes.filter(([n]) => !only || n.startsWith(only) || n.startsWith('healthz'))) {
  // Two seconds of the same load first, not counted: the route's code is compiled, each pooled
  // connection has prepared its statements, as in a console that has been running.
  await drive(path, 2);
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  // CPU per request does not depend on how much CPU this machine had to spare meanwhile (its
  // capacity varies from run to run): the figure to compare a change by.
  const cpu0 = { node: process.cpuUsage(), pg: postgresCpu() };
  const r = await drive(path);
  const served = r.rps * SECONDS;
  const cpu = { node: (processCpuS(cpu0.node) * 1000) / served, pg: (cpu0.pg.seconds() * 1000) / served };
  loop.disable();
  if (path === '/healthz') healthz = r.p99;
  else worst = Math.max(worst, r.p99);
  console.log(`${name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.max} | ${r.bad} | ${(loop.max / 1e6).toFixed(0)} | ${cpu.node.toFixed(2)}, ${cpu.pg.toFixed(2)}`);
}
await app.close();
await bench.close();
console.log(`api_p99_ms=${worst} healthz_p99_ms=${healthz} rate=${RATE} routes=${routes.length - 1}`);
