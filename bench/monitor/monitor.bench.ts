/**
 * The device monitor with BENCH_CARRIERS monitoring points (10,000), in Chromium
 * (docs/performance.md "Device monitor"): the demo customer grown to that many carriers, each
 * with a sensor that has reported; then
 *   - first paint: from navigating to /databoard/deviceMonitor (signed in, cold page) to the first
 *     carrier card on screen, BENCH_RUNS times;
 *   - new value: a reading for the demo's hand-driven sensor (Test Fridge) sent over HTTP ingest;
 *     from its commit (the ingest answer) to the value shown on the board, BENCH_RUNS times;
 *   - the console's memory (RSS) with the board open.
 * Baseline in the same run: the same navigation to /home (a light page).
 *
 * Needs the built web app (`npm run build`) and Debian's Chromium (CHROMIUM_PATH). The console
 * runs in this process. Last line:
 * `monitor_first_paint_ms_p50=… monitor_first_paint_ms_max=… new_value_ms_p50=… new_value_ms_max=… home_ms_p50=… rss_mb=…`.
 * Env: DATABASE_URL (else PGlite in memory), BENCH_CARRIERS, BENCH_RUNS (5).
 */
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

const CARRIERS = Number(process.env.BENCH_CARRIERS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
if (!existsSync(fileURLToPath(new URL('../../web/dist/index.html', import.meta.url)))) {
  console.error('bench:monitor needs the built web app: run `npm run build` first.');
  process.exit(1);
}

const bench = await openBenchDb();
const { db } = bench;
await prepareDb(db);
await seedDemo(db);
const [demo] = await db.query<{ id: number }>('SELECT id FROM customer WHERE code = $1', [DEMO_CUSTOMER.code]);
const [admin] = await db.query<{ id: number }>('SELECT id FROM app_user WHERE account = $1', [DEMO_CUSTOMER.account]);
const [{ n: have }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM carrier WHERE customer_id = $1', [demo.id]);
if (have < CARRIERS) {
  // Bench carriers on the demo's first scene, a sensor each (on bench gateways of 50), reported a minute ago.
  const [scene] = await db.query<{ id: number }>('SELECT min(id) AS id FROM scene WHERE customer_id = $1', [demo.id]);
  const add = CARRIERS - have;
  await db.query(
    `INSERT INTO carrier (customer_id, scene_id, name, type, temp_min, temp_max) SELECT $1, $2, 'Bench fridge ' || g, 2, 2, 8 FROM generate_series(1, $3) g`,
    [demo.id, scene.id, add],
  );
  await db.query(
    `INSERT INTO gateway (customer_id, sn, name, secret_hash, status, last_seen_at)
     SELECT $1, 'BM' || lpad(g::text, 10, '0'), 'Bench gateway ' || g, 'x', 1, now() FROM generate_series(1, $2) g`,
    [demo.id, Math.ceil(add / 50)],
  );
  await db.query(
    `INSERT INTO sensor (customer_id, dev_no, type, gateway_id, carrier_id, status, last_ts, last_temp)
     SELECT $1, 'BM' || lpad(c.n::text, 8, '0'), 'zigbee_t', gw.id, c.id, 1, now() - interval '1 minute', 4 + (c.n % 30) / 10.0
       FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM carrier WHERE customer_id = $1 AND name LIKE 'Bench fridge %') c
       JOIN gateway gw ON gw.sn = 'BM' || lpad(((c.n - 1) / 50 + 1)::text, 10, '0')`,
    [demo.id],
  );
  await db.query('ANALYZE carrier; ANALYZE sensor');
}
console.log(`${bench.label}: demo customer with ${CARRIERS.toLocaleString('en-US')} monitoring points`);

const config = { ...loadConfig({ ...process.env, VITEST: '1', DEMO: '1', LOG_LEVEL: 'silent' }), loginRateLimit: 100_000 };
const deps: AppDeps = { config, db, bus: new Bus() };
deps.ingest = new IngestService(deps);
const app = await buildApp(deps);
await app.listen({ port: 0, host: '127.0.0.1' });
const addr = app.server.address();
const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
const token = await createSession(db, admin.id, demo.id);

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
await context.addCookies([{ name: SESSION_COOKIE, value: token, url: base }]);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

async function firstPaint(path: string, selector: string) {
  const page = await context.newPage();
  const t = Date.now();
  await page.goto(base + path);
  await page.waitForSelector(selector, { timeout: 60_000 });
  const ms = Date.now() - t;
  await page.close();
  return ms;
}

const home: number[] = [];
const paint: number[] = [];
for (let i = 0; i < RUNS; i++) {
  home.push(await firstPaint('/home', '.cw-content'));
  paint.push(await firstPaint('/databoard/deviceMonitor', '.cw-mon-card'));
}

// New values: the board open, a reading for Test Fridge's sensor, timed from commit to screen.
const page = await context.newPage();
await page.goto(`${base}/databoard/deviceMonitor`);
await page.waitForSelector('.cw-mon-live.is-connected', { timeout: 60_000 });
const fridge = page.locator('.cw-mon-card', { hasText: FEED_GATEWAY.carrier });
await fridge.first().waitFor();
const shown: number[] = [];
for (let i = 0; i < RUNS * 2; i++) {
  const temp = 3 + ((i * 7) % 40) / 10 + 0.01; // a value the card has not shown yet
  const text = temp.toFixed(1);
  const r = await fetch(`${base}/ingest/v1/${FEED_GATEWAY.sn}/data`, {
    method: 'POST',
    headers: { authorization: `Bearer ${FEED_GATEWAY.secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ readings: [{ dev: FEED_GATEWAY.dev, ts: Date.now(), temp }] }),
  });
  const committed = Date.now();
  if (!r.ok) throw new Error(`ingest answered ${r.status}`);
  await page.waitForFunction(([name, v]) => [...document.querySelectorAll('.cw-mon-card')].some((c) => c.textContent?.includes(name) && c.textContent.includes(v)), [FEED_GATEWAY.carrier, text] as const, { timeout: 30_000, polling: 'raf' });
  shown.push(Date.now() - committed);
  await new Promise((res) => setTimeout(res, 300));
}
const rssMb = Math.round(process.memoryUsage().rss / 1048576);
console.log(`first paint ms, home: ${home.join(', ')}; monitor: ${paint.join(', ')}; new value ms: ${shown.join(', ')}`);
await browser.close();
await app.close();
await deps.ingest.writer.drain();
await bench.close();
console.log(
  `monitor_first_paint_ms_p50=${pct(paint, 0.5)} monitor_first_paint_ms_max=${Math.max(...paint)} new_value_ms_p50=${pct(shown, 0.5)} new_value_ms_max=${Math.max(...shown)} home_ms_p50=${pct(home, 0.5)} rss_mb=${rssMb}`,
);
