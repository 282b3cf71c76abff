/**
 * The device monitor with BENCH_CARRIERS monitoring points (10,000), in Chromium
 * (docs/performance.md "Device monitor"): the demo customer grown to that many carriers, each
 * with a sensor that has reported, opened by the demo customer's administrator. With
 * BENCH_POINTS (e.g. 100000) instead: the scale set of `npm run seed:scale` (made here when
 * missing; BENCH_POINTS sensors on BENCH_POINTS / 2 carriers, bench/scale/network.ts) in the
 * PostgreSQL database of DATABASE_URL, opened by the platform administrator (every customer).
 * Then
 *   - first paint: from navigating to /databoard/deviceMonitor (signed in, cold page) to the first
 *     carrier card on screen, BENCH_RUNS times;
 *   - new value: a reading for a sensor of the first card (the demo's hand-driven Test Fridge, or
 *     the scale set's first sensor) sent over HTTP ingest as its gateway;
 *     from its commit (the ingest answer) to the value shown on the board, BENCH_RUNS times;
 *   - the console's memory (RSS) with the board open.
 * Baseline in the same run: the same navigation to /home (a light page).
 *
 * Needs the built web app (`npm run build`) and Debian's Chromium (CHROMIUM_PATH). The console
 * runs in this process. Last line:
 * `monitor_first_paint_ms_p50=… monitor_first_paint_ms_max=… new_value_ms_p50=… new_value_ms_max=… home_ms_p50=… rss_mb=…`.
 * With BENCH_POINTS the line adds `first_card_after_home_ms_max` (each run's board minus the
 * /home run before it: the issue's "within 0.5 s of /home's first paint") and the API's own times.
 * The map's calls (docs/scaling.md "The board at 100,000 points"): the whole monitor list the map read before against
 * the server's clusters (mapClusters: its first call, the extent at a province's zoom, a city), time and bytes, with the load.
 * BENCH_SCREENSHOTS=<dir>: the board and the map as measured, at 1440 and 390 px, and home with the map widget, into that folder.
 * Env: DATABASE_URL (else PGlite in memory; required with BENCH_POINTS), BENCH_CARRIERS, BENCH_POINTS, BENCH_RUNS (5).
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { prepareDb } from '../../server/src/platform/db/prepare.js';
import { seedDemo, DEMO_CUSTOMER, FEED_GATEWAY } from '../../server/src/demo/seed.js';
import { createSession, SESSION_COOKIE } from '../../server/src/platform/auth/session.js';
import { loadConfig } from '../../server/src/config.js';
import { buildApp } from '../../server/src/app.js';
import { Bus } from '../../server/src/platform/events.js';
import { IngestService } from '../../server/src/ingest/service.js';
import type { AppDeps } from '../../server/src/deps.js';
import { openBenchDb } from '../ingest/db.js';
import { PLATFORM_CODE } from '../../server/src/platform/seed/root.js';
import { scaleGateway } from '../scale/network.js';

const CARRIERS = Number(process.env.BENCH_CARRIERS ?? 10_000);
const POINTS = process.env.BENCH_POINTS ? Number(process.env.BENCH_POINTS) : undefined;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
if (POINTS !== undefined && !process.env.DATABASE_URL) {
  console.error('bench:monitor with BENCH_POINTS needs DATABASE_URL (PostgreSQL): the scale set is seeded there once and kept.');
  process.exit(1);
}
if (POINTS !== undefined) {
  // The seed is idempotent: a set of this size already there is left alone.
  execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../scale/seed.ts', import.meta.url)), String(POINTS)], { stdio: 'inherit' });
}
if (!existsSync(fileURLToPath(new URL('../../web/dist/index.html', import.meta.url)))) {
  console.error('bench:monitor needs the built web app: run `npm run build` first.');
  process.exit(1);
}

const bench = await openBenchDb();
const { db } = bench;
await prepareDb(db);
/** Who opens the board, and the sensor whose new values are timed (on the first card). */
let viewer: { userId: number; customerId: number };
let feed: { sn: string; secret: string; dev: string };
if (POINTS === undefined) {
  await seedDemo(db);
  const [demo] = await db.query<{ id: number }>('SELECT id FROM customer WHERE code = $1', [DEMO_CUSTOMER.code]);
  const [admin] = await db.query<{ id: number }>('SELECT id FROM app_user WHERE account = $1', [DEMO_CUSTOMER.account]);
  await growDemo(demo.id);
  viewer = { userId: admin.id, customerId: demo.id };
  feed = { sn: FEED_GATEWAY.sn, secret: FEED_GATEWAY.secret, dev: FEED_GATEWAY.dev };
  console.log(`${bench.label}: demo customer with ${CARRIERS.toLocaleString('en-US')} monitoring points`);
} else {
  const [root] = await db.query<{ id: number; customer_id: number }>(`SELECT u.id, u.customer_id FROM app_user u JOIN customer c ON c.id = u.customer_id WHERE u.account = 'admin' AND c.code = $1`, [PLATFORM_CODE]);
  viewer = { userId: root.id, customerId: root.customer_id };
  const gw = scaleGateway(0);
  feed = { sn: gw.sn, secret: gw.password, dev: gw.sensors[0].dev };
  const [{ carriers, sensors }] = await db.query<{ carriers: number; sensors: number }>('SELECT (SELECT count(*) FROM carrier)::int AS carriers, (SELECT count(*) FROM sensor)::int AS sensors');
  console.log(`${bench.label}: the platform administrator over ${sensors.toLocaleString('en-US')} sensors on ${carriers.toLocaleString('en-US')} carriers`);
}

/** The demo customer grown to CARRIERS carriers. */
async function growDemo(demoId: number) {
  const [{ n: have }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM carrier WHERE customer_id = $1', [demoId]);
  if (have >= CARRIERS) return;
  // Bench carriers on the demo's first scene, a sensor each (on bench gateways of 50), reported a minute ago.
  const [scene] = await db.query<{ id: number }>('SELECT min(id) AS id FROM scene WHERE customer_id = $1', [demoId]);
  const add = CARRIERS - have;
  await db.query(
    `INSERT INTO carrier (customer_id, scene_id, name, type, temp_min, temp_max) SELECT $1, $2, 'Bench fridge ' || g, 2, 2, 8 FROM generate_series(1, $3) g`,
    [demoId, scene.id, add],
  );
  await db.query(
    `INSERT INTO gateway (customer_id, sn, name, secret_hash, status, last_seen_at)
     SELECT $1, 'BM' || lpad(g::text, 10, '0'), 'Bench gateway ' || g, 'x', 1, now() FROM generate_series(1, $2) g`,
    [demoId, Math.ceil(add / 50)],
  );
  await db.query(
    `INSERT INTO sensor (customer_id, dev_no, type, gateway_id, carrier_id, status, last_ts, last_temp)
     SELECT $1, 'BM' || lpad(c.n::text, 8, '0'), 'zigbee_t', gw.id, c.id, 1, now() - interval '1 minute', 4 + (c.n % 30) / 10.0
       FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM carrier WHERE customer_id = $1 AND name LIKE 'Bench fridge %') c
       JOIN gateway gw ON gw.sn = 'BM' || lpad(((c.n - 1) / 50 + 1)::text, 10, '0')`,
    [demoId],
  );
  await db.query('ANALYZE carrier; ANALYZE sensor');
}

const config = { ...loadConfig({ ...process.env, VITEST: '1', DEMO: '1', LOG_LEVEL: 'silent' }), loginRateLimit: 100_000 };
const deps: AppDeps = { config, db, bus: new Bus() };
deps.ingest = new IngestService(deps);
const app = await buildApp(deps);
await app.listen({ port: 0, host: '127.0.0.1' });
const addr = app.server.address();
const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
const token = await createSession(db, viewer.userId, viewer.customerId);

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
await context.addCookies([{ name: SESSION_COOKIE, value: token, url: base }]);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

/** Where a first paint's time went, from the page's own clock: the document's first byte, the board's page call answered. */
const phases: string[] = [];
async function firstPaint(path: string, selector: string) {
  const page = await context.newPage();
  const t = Date.now();
  await page.goto(base + path);
  await page.waitForSelector(selector, { timeout: 60_000 });
  const ms = Date.now() - t;
  const at = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const call = performance.getEntriesByType('resource').find((r) => r.name.includes('/service/dm/monitorPage'));
    return { ttfb: Math.round(nav.responseStart), page: call ? Math.round(call.responseEnd) : null, now: Math.round(performance.now()) };
  });
  phases.push(`${path}: document ${at.ttfb} ms${at.page === null ? '' : `, page call answered ${at.page} ms`}, on screen ${at.now} ms`);
  await page.close();
  return ms;
}

const home: number[] = [];
const paint: number[] = [];
for (let i = 0; i < RUNS; i++) {
  home.push(await firstPaint('/home', '.cw-content'));
  paint.push(await firstPaint('/databoard/deviceMonitor', '.cw-mon-card'));
}

// The API alone, as the board calls it: its first page and the counts over every carrier.
const api = async (path: string) => {
  const t0 = performance.now();
  const r = await fetch(base + path, { headers: { cookie: `${SESSION_COOKIE}=${token}` } });
  const body = await r.text();
  return { ms: performance.now() - t0, bytes: Buffer.byteLength(body), body };
};
const loadNow = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const pageApi: number[] = [];
const countsApi: number[] = [];
let pageBytes = 0;
for (let i = 0; i < RUNS; i++) {
  const p = await api('/service/dm/monitorPage?iDisplayStart=0&iDisplayLength=50');
  pageApi.push(Math.round(p.ms));
  pageBytes = p.bytes;
  countsApi.push(Math.round((await api('/service/dm/monitorCounts')).ms));
}
const abnormalApi = Math.round((await api('/service/dm/monitorPage?iDisplayStart=0&iDisplayLength=50&state=abnormal')).ms);

// The map (docs/scaling.md "The board at 100,000 points"): the whole monitor list it read before,
// against the server's clusters: its first call (the extent), the whole extent at a province's zoom, and one city.
const timed = async (path: string, runs = RUNS) => {
  const ms: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const r = await api(path);
    ms.push(Math.round(r.ms));
    bytes = r.bytes;
  }
  return { p50: pct(ms, 0.5), bytes };
};
const first = JSON.parse((await api('/service/dm/mapClusters')).body).result as { extent: { west: number; south: number; east: number; north: number } | null };
const e = first.extent ?? { west: 100, south: 20, east: 130, north: 45 };
const mapQueries: [string, string][] = [
  ['mapClusters, no viewport (the extent)', '/service/dm/mapClusters'],
  ['mapClusters, the extent at zoom 7', `/service/dm/mapClusters?west=${e.west - 0.5}&south=${e.south - 0.5}&east=${e.east + 0.5}&north=${e.north + 0.5}&zoom=7`],
  ['mapClusters, 0.2° around the first scene at zoom 12', `/service/dm/mapClusters?west=${e.west - 0.1}&south=${e.south - 0.1}&east=${e.west + 0.1}&north=${e.south + 0.1}&zoom=12`],
];
const mapTimes: string[] = [];
const listOnce = await timed('/service/dm/monitorList', Math.min(RUNS, 3));
mapTimes.push(`monitorList (the whole list, as the map read it before): p50 ${listOnce.p50} ms, ${listOnce.bytes.toLocaleString('en-US')} bytes; load ${loadNow()}`);
for (const [label, path] of mapQueries) {
  const r = await timed(path);
  mapTimes.push(`${label}: p50 ${r.p50} ms, ${r.bytes.toLocaleString('en-US')} bytes; load ${loadNow()}`);
}

// New values: the board open, a reading for a sensor of its first card, timed from commit to screen.
const page = await context.newPage();
await page.goto(`${base}/databoard/deviceMonitor`);
await page.waitForSelector('.cw-mon-live.is-connected', { timeout: 60_000 });
const card = page.locator('.cw-mon-card', { hasText: feed.dev });
await card.first().waitFor();
const shown: number[] = [];
for (let i = 0; i < RUNS * 2; i++) {
  const temp = 3 + ((i * 7) % 40) / 10 + 0.01; // a value the card has not shown yet
  const text = temp.toFixed(1);
  const r = await fetch(`${base}/ingest/v1/${feed.sn}/data`, {
    method: 'POST',
    headers: { authorization: `Bearer ${feed.secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ readings: [{ dev: feed.dev, ts: Date.now(), temp }] }),
  });
  const committed = Date.now();
  if (!r.ok) throw new Error(`ingest answered ${r.status}`);
  await page.waitForFunction(([dev, v]) => [...document.querySelectorAll('.cw-mon-card')].some((c) => c.textContent?.includes(dev) && c.textContent.includes(v)), [feed.dev, text] as const, { timeout: 30_000, polling: 'raf' });
  shown.push(Date.now() - committed);
  await new Promise((res) => setTimeout(res, 300));
}
const rssMb = Math.round(process.memoryUsage().rss / 1048576);
const shots = process.env.BENCH_SCREENSHOTS;
if (shots) {
  const tag = POINTS === undefined ? `${CARRIERS / 1000}k-carriers` : `${POINTS / 1000}k`;
  for (const [width, height] of [[1440, 900], [390, 844]]) {
    const view = await context.newPage();
    await view.setViewportSize({ width, height });
    await view.goto(`${base}/databoard/deviceMonitor`);
    await view.waitForSelector('.cw-mon-card');
    await view.waitForSelector('.cw-mon-pager');
    await view.waitForTimeout(1500);
    await view.screenshot({ path: `${shots}/device-monitor-${tag}-${width}.png`, fullPage: width < 800 });
    await view.goto(`${base}/databoard/monitorMap`);
    await view.waitForSelector('.cw-map-cluster, .cw-map-marker', { timeout: 60_000 });
    await view.waitForTimeout(1500);
    await view.screenshot({ path: `${shots}/monitor-map-${tag}-${width}.png`, fullPage: width < 800 });
    await view.close();
  }
  // Home with the map widget (the viewer's home settings; the first paints above were measured on its default home).
  const put = await fetch(`${base}/service/mine/homeSetting`, {
    method: 'PUT',
    headers: { cookie: `${SESSION_COOKIE}=${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ style: 'classic', widgets: ['mapMonitor', 'carrierStatus'], sensors: [] }),
  });
  if (!put.ok) throw new Error(`home settings answered ${put.status}`);
  const home = await context.newPage();
  await home.setViewportSize({ width: 1440, height: 900 });
  await home.goto(`${base}/home`);
  await home.waitForSelector('[data-testid="widget-map"] .cw-map-cluster, [data-testid="widget-map"] .cw-map-marker', { timeout: 60_000 });
  // The guided tour opens on a first home: closed for this picture.
  await home.locator('.ant-tour-close').click({ timeout: 3000 }).catch(() => undefined);
  await home.waitForTimeout(1500);
  await home.screenshot({ path: `${shots}/home-${tag}-1440.png` });
  await home.locator('[data-testid="widget-map"]').screenshot({ path: `${shots}/home-map-widget-${tag}.png` });
  await home.close();
}
console.log(`first paint ms, home: ${home.join(', ')}; monitor: ${paint.join(', ')}; new value ms: ${shown.join(', ')}`);
console.log(`Each first paint by the page's clock:\n  ${phases.join('\n  ')}`);
console.log(`The map's calls:\n  ${mapTimes.join('\n  ')}`);
console.log(`API ms, monitorPage (50 cards, ${pageBytes.toLocaleString('en-US')} bytes): ${pageApi.join(', ')}; monitorCounts: ${countsApi.join(', ')}; abnormal page: ${abnormalApi}`);
const loadavg = loadNow();
await browser.close();
await app.close();
await deps.ingest.writer.drain();
await bench.close();
const after = paint.map((ms, i) => ms - home[i]);
console.log(`load average ${loadavg}`);
console.log(
  `monitor_first_paint_ms_p50=${pct(paint, 0.5)} monitor_first_paint_ms_max=${Math.max(...paint)} new_value_ms_p50=${pct(shown, 0.5)} new_value_ms_max=${Math.max(...shown)} home_ms_p50=${pct(home, 0.5)} rss_mb=${rssMb}` +
    (POINTS === undefined ? '' : ` points=${POINTS} first_card_after_home_ms_max=${Math.max(...after)} page_api_ms_p50=${pct(pageApi, 0.5)} counts_api_ms_p50=${pct(countsApi, 0.5)}`),
);
