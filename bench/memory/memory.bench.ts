/**
 * The console's memory with BENCH_DEVICES sensors (10,000) reporting every minute
 * (docs/performance.md "Memory"): BENCH_DEVICES / 50 gateways of 50 sensors, each gateway on
 * its own carrier with a 2–8 °C zone, simulated by the project's simulator over MQTT against the
 * compiled console (`server/dist/main.js`, as production runs it) with its embedded broker; the
 * console's resident set (RSS, /proc) is sampled every 5 s for BENCH_MINUTES (3). Baseline in the
 * same run: the RSS of the same console idle, before the gateways connect.
 *
 * With BENCH_POINTS (e.g. 100000): the scale set of `npm run seed:scale` instead (made when
 * missing; its gateways of 100 sensors, bench/scale/network.ts), every sensor reporting once a
 * minute, and the device monitor open as the platform administrator in BENCH_BROWSERS (2)
 * Chromium contexts for the whole run (issue 33: RSS under 400 MB for 10 minutes; set
 * BENCH_MINUTES=10).
 *
 * The console's heap limit is the one `npm run serve` gives it (HEAP_MB, scripts/start.mjs
 * heapFlags): `HEAP_MB=0` runs it with node's default. BENCH_NODE_FLAGS: more flags for the
 * console's node (`--trace-gc` to see the live heap after each collection beside its RSS).
 *
 * BENCH_PROFILE_S (e.g. 60): the console runs with its inspector open (inspector.ts); each sample
 * also prints its heap (used, reserved, V8's limit), and from the first minute on, for that many
 * seconds, every allocation is counted (collected ones too): the total and the top places print.
 *
 * Needs `npm run build` (the compiled server) and DATABASE_URL (PostgreSQL: the console runs in
 * its own process and the bench enrols the gateways beside it). Last line:
 * `rss_idle_mb=… rss_max_mb=… rss_end_mb=… readings=… devices=…` (with BENCH_POINTS also the
 * browsers and the load average).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { chromium, type Browser } from 'playwright-core';
import { startSimulation, type SimGateway } from '@coldwatch/simulator';
import { createSession, SESSION_COOKIE } from '../../server/src/platform/auth/session.js';
import { PLATFORM_CODE } from '../../server/src/platform/seed/root.js';
import { DEMO_ROOT_PASSWORD } from '../../server/src/demo/seed.js';
import { scaleGateways } from '../scale/network.js';
import { openDb } from '../../server/src/platform/db/client.js';
import { prepareDb } from '../../server/src/platform/db/prepare.js';
import { enrol, freePort } from '../../server/src/ingest/test-fixtures.js';
import { heapFlags } from '../../scripts/start.mjs';
import { connectInspector, heapFigures, startAllocations, stopAllocations, type Inspector } from './inspector.js';

const POINTS = process.env.BENCH_POINTS ? Number(process.env.BENCH_POINTS) : undefined;
const DEVICES = POINTS ?? Number(process.env.BENCH_DEVICES ?? 10_000);
const BROWSERS = Number(process.env.BENCH_BROWSERS ?? 2);
const MINUTES = Number(process.env.BENCH_MINUTES ?? 3);
const url = process.env.DATABASE_URL;
const main = fileURLToPath(new URL('../../server/dist/main.js', import.meta.url));
if (!url || !existsSync(main)) {
  console.error('bench:memory needs DATABASE_URL (PostgreSQL) and the compiled server (`npm run build`).');
  process.exit(1);
}

if (POINTS !== undefined) execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../scale/seed.ts', import.meta.url)), String(POINTS)], { stdio: 'inherit' });
const db = await openDb({ databaseUrl: url });
await prepareDb(db);
const gateways: SimGateway[] = [];
let cust: { id: number } | undefined;
if (POINTS === undefined) {
  const tag = Date.now().toString(36).toUpperCase();
  [cust] = await db.query<{ id: number }>(`INSERT INTO customer (name, code) VALUES ($1, $2) RETURNING id`, [`Bench memory ${tag}`, `M${tag}`]);
  for (let i = 0; i < DEVICES / 50; i++) {
    const g = await enrol(db, cust.id, 50);
    gateways.push({ sn: g.sn, secret: g.secret, sensors: g.sensors.map((s) => ({ dev: s.dev, kind: 'th' as const, setpoint: 5, excursionRate: 0 })) });
  }
  await db.query(`UPDATE carrier SET temp_min = 2, temp_max = 8 WHERE customer_id = $1`, [cust.id]);
} else {
  // The scale set's gateways as they are (credentials from their numbers), every sensor at its carrier's set point.
  for (const g of scaleGateways(POINTS))
    gateways.push({ sn: g.sn, secret: g.password, sensors: g.sensors.map((s) => ({ dev: s.dev, kind: s.humidity ? ('th' as const) : ('t' as const), setpoint: s.profile.temp, humidity: s.profile.hum, excursionRate: 0 })) });
}
console.log(`${DEVICES.toLocaleString('en-US')} sensors on ${gateways.length} gateways enrolled`);
const since = new Date();

const [http, mqttPort] = [await freePort(), await freePort()];
// BENCH_NODE_FLAGS: flags for the console's node (e.g. --trace-gc, whose lines then come out here).
const nodeFlags = [...heapFlags(process.env), ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean)];
const PROFILE_S = Number(process.env.BENCH_PROFILE_S ?? 0);
const inspectPort = PROFILE_S ? await freePort() : 0;
if (PROFILE_S) nodeFlags.push(`--inspect=127.0.0.1:${inspectPort}`);
console.log(`the console's node flags: ${nodeFlags.join(' ') || '(none)'}`);
const child = spawn(process.execPath, [...nodeFlags, main], {
  env: { ...process.env, PORT: String(http), MQTT_PORT: String(mqttPort), DATABASE_URL: url, DEMO: POINTS === undefined ? '1' : '0', ROOT_PASSWORD: DEMO_ROOT_PASSWORD, SIMULATOR: '0', LOG_LEVEL: 'warn' },
  stdio: ['ignore', process.env.BENCH_NODE_FLAGS || PROFILE_S ? 'inherit' : 'ignore', 'inherit'],
});
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
for (let i = 0; ; i++) {
  if (i > 600) throw new Error('the console did not start');
  if (await fetch(`http://127.0.0.1:${http}/healthz`).then((r) => r.ok, () => false)) break;
  await new Promise((r) => setTimeout(r, 100));
}
await new Promise((r) => setTimeout(r, 5000));
const idle = rss();

// The board open as the platform administrator, one signed-in context each, for the whole run.
let browser: Browser | undefined;
if (POINTS !== undefined && BROWSERS > 0) {
  const [root] = await db.query<{ id: number; customer_id: number }>(`SELECT u.id, u.customer_id FROM app_user u JOIN customer c ON c.id = u.customer_id WHERE u.account = 'admin' AND c.code = $1`, [PLATFORM_CODE]);
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  for (let i = 0; i < BROWSERS; i++) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addCookies([{ name: SESSION_COOKIE, value: await createSession(db, root.id, root.customer_id), url: `http://127.0.0.1:${http}` }]);
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${http}/databoard/deviceMonitor`);
    await page.waitForSelector('.cw-mon-card', { timeout: 120_000 });
  }
  console.log(`the device monitor open in ${BROWSERS} browser contexts: rss ${rss().toFixed(0)} MB`);
}

const sim = startSimulation({ url: `mqtt://127.0.0.1:${mqttPort}`, gateways, intervalMs: 60_000, heartbeatMs: 60_000, gapEveryMs: 0 });
const samples: number[] = [];
const heaps: number[] = [];
const until = Date.now() + MINUTES * 60_000;
const insp: Inspector | undefined = PROFILE_S ? await connectInspector(inspectPort) : undefined;
let profiling: 'before' | 'on' | 'done' = 'before';
let profiledUntil = 0;
while (Date.now() < until) {
  await new Promise((r) => setTimeout(r, 5000));
  samples.push(rss());
  const s = Math.round((MINUTES * 60_000 - (until - Date.now())) / 1000);
  const heap = insp ? await heapFigures(insp) : undefined;
  if (heap) heaps.push(heap.used);
  const heapText = heap ? `, heap ${heap.used.toFixed(0)} of ${heap.total.toFixed(0)} MB (limit ${heap.limit.toFixed(0)}), buffers ${heap.external.toFixed(0)} MB` : '';
  console.log(`${s} s: rss ${samples.at(-1)!.toFixed(0)} MB${heapText}, readings published ${sim.stats.readings.toLocaleString('en-US')}`);
  if (insp && profiling === 'before' && s >= 60) {
    await startAllocations(insp);
    [profiling, profiledUntil] = ['on', Date.now() + PROFILE_S * 1000];
  } else if (insp && profiling === 'on' && Date.now() >= profiledUntil) {
    const { totalMb, sites, ours } = await stopAllocations(insp);
    profiling = 'done';
    console.log(`allocated over ${PROFILE_S} s: ${totalMb.toFixed(0)} MB; the top places:`);
    for (const x of sites) console.log(`  ${x.mb.toFixed(1).padStart(7)} MB  ${x.site}`);
    console.log(`the same by the console's function nearest on the stack:`);
    for (const x of ours) console.log(`  ${x.mb.toFixed(1).padStart(7)} MB  ${x.site}`);
  }
}
insp?.close();
await sim.stop();
const load = loadavg().map((x) => x.toFixed(2)).join(' ');
// What the boards asked for over the run (the console's own request counts, /metrics answers loopback).
const metrics = await fetch(`http://127.0.0.1:${http}/metrics`).then((r) => r.text(), () => '');
for (const m of metrics.matchAll(/^coldwatch_http_request_seconds_count\{([^}]*route="\/service\/dm\/[^}]*)\} (\d+)/gm)) console.log(`requests ${m[1]}: ${m[2]}`);
await browser?.close();
child.kill('SIGTERM');
// A console whose inspector was open may wait at exit for the debugger to go: not past the drain's 20 s.
const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
await new Promise((r) => child.once('exit', r));
clearTimeout(killer);
const [{ n: stored }] = cust
  ? await db.query<{ n: number }>('SELECT count(*)::int AS n FROM reading WHERE customer_id = $1', [cust.id])
  : await db.query<{ n: number }>('SELECT count(*)::int AS n FROM reading WHERE received_at >= $1', [since]);
if (cust) await db.query('DELETE FROM customer WHERE id = $1', [cust.id]);
await db.close();
console.log(`load average ${load}`);
console.log(
  `rss_idle_mb=${idle.toFixed(0)} rss_max_mb=${Math.max(...samples).toFixed(0)} rss_end_mb=${samples.at(-1)!.toFixed(0)} readings=${stored} devices=${DEVICES}` +
    (POINTS === undefined ? '' : ` browsers=${BROWSERS} minutes=${MINUTES}`) +
    (heaps.length ? ` heap_max_mb=${Math.max(...heaps).toFixed(0)}` : ''),
);
