/**
 * The monitoring-point table and home's monitoring widgets over the scale set
 * (docs/scaling.md "The board at 100,000 points"): each call they make now (monitorTable's first
 * page in board order, sorted by a live value, by time, by state, a state filter; monitorSummary
 * for the alarm mode widget) beside the whole monitor list they each read before, measured in the
 * same run: wall time p50 and max, the console's CPU (it runs in this process: process.cpuUsage
 * around the call, the client's share included) and bytes, with os.loadavg() beside each. Then the
 * table's export of the whole view as the export job makes it (every carrier, sorted by
 * temperature, CSV). BENCH_SCREENSHOTS=<dir>: the table sorted by temperature and home with the
 * list, dashboard and alarm mode widgets, at 1440 and 390 px (needs the built web app).
 *
 * Needs the scale set: `DATABASE_URL=… npm run seed:scale -- 100000` first. Env: DATABASE_URL,
 * BENCH_RUNS (5), BENCH_ACCOUNT (admin: the platform administrator over every customer).
 */
import os from 'node:os';
import { chromium } from 'playwright-core';
import { prepareDb } from '../../server/src/platform/db/prepare.js';
import { createSession, SESSION_COOKIE } from '../../server/src/platform/auth/session.js';
import { loadConfig } from '../../server/src/config.js';
import { buildApp } from '../../server/src/app.js';
import { Bus } from '../../server/src/platform/events.js';
import type { AppDeps } from '../../server/src/deps.js';
import { runExport } from '../../server/src/jobs/export/index.js';
import type { ExportPayload } from '../../server/src/modules/download/exports.js';
import { openBenchDb } from '../ingest/db.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ACCOUNT = process.env.BENCH_ACCOUNT ?? 'admin';
if (!process.env.DATABASE_URL) {
  console.error('bench:table needs DATABASE_URL: the scale set of `npm run seed:scale` in PostgreSQL.');
  process.exit(1);
}
const bench = await openBenchDb();
const { db } = bench;
await prepareDb(db);
const [viewer] = await db.query<{ id: number; customer_id: number }>('SELECT id, customer_id FROM app_user WHERE account = $1', [ACCOUNT]);
const [{ carriers, sensors }] = await db.query<{ carriers: number; sensors: number }>('SELECT (SELECT count(*) FROM carrier)::int AS carriers, (SELECT count(*) FROM sensor)::int AS sensors');
console.log(`${bench.label}: ${ACCOUNT} over ${sensors.toLocaleString('en-US')} sensors on ${carriers.toLocaleString('en-US')} carriers`);

const config = { ...loadConfig({ ...process.env, VITEST: '1', LOG_LEVEL: 'silent' }), loginRateLimit: 100_000 };
const deps: AppDeps = { config, db, bus: new Bus() };
const app = await buildApp(deps);
await app.listen({ port: 0, host: '127.0.0.1' });
const addr = app.server.address();
const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
const token = await createSession(db, viewer.id, viewer.customer_id);
const cookie = `${SESSION_COOKIE}=${token}`;
const loadNow = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

async function timed(path: string, runs = RUNS) {
  const ms: number[] = [];
  const cpu: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await fetch(base + path, { headers: { cookie } });
    const body = await r.text();
    ms.push(Math.round(performance.now() - t0));
    const c = process.cpuUsage(c0);
    cpu.push(Math.round((c.user + c.system) / 1000));
    if (!body.includes('"code":200000')) throw new Error(`${path}: ${body.slice(0, 300)}`);
    bytes = Buffer.byteLength(body);
  }
  return `p50 ${pct(ms, 0.5).toLocaleString('en-US')} ms, max ${Math.max(...ms).toLocaleString('en-US')} ms, CPU p50 ${pct(cpu, 0.5).toLocaleString('en-US')} ms, ${bytes.toLocaleString('en-US')} bytes; load ${loadNow()}`;
}

const table = '/service/dm/monitorTable?iDisplayStart=0&iDisplayLength=15';
const calls: [string, string, number?][] = [
  ['before: monitorList (the whole list; the table and each widget read it)', '/service/dm/monitorList', Math.min(RUNS, 3)],
  ['table, first page (board order)', table],
  ['table, sorted by name', `${table}&sort=name`],
  ['table, sorted by latest temperature (desc)', `${table}&sort=temp&order=desc`],
  ['table, sorted by last time (desc), page 100', '/service/dm/monitorTable?iDisplayStart=1485&iDisplayLength=15&sort=ts&order=desc'],
  ['table, state abnormal', `${table}&state=abnormal`],
  ['widget list monitor (8 by state)', '/service/dm/monitorTable?iDisplayStart=0&iDisplayLength=8&sort=state'],
  ['widget dashboard (4 by state)', '/service/dm/monitorTable?iDisplayStart=0&iDisplayLength=4&sort=state'],
  ['widget alarm mode (monitorSummary, shared with the carrier tiles)', '/service/dm/monitorSummary'],
];
const lines: string[] = [];
for (const [label, path, runs] of calls) {
  const line = `${label}: ${await timed(path, runs)}`;
  console.log(line);
  lines.push(line);
}

// The export of the whole view, made as the export job makes it.
const asked = await fetch(`${base}/service/exportTask/monitorPoints`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ sort: 'temp', order: 'desc', format: 'csv' }) });
const { result } = (await asked.json()) as { result: { id: number } };
const [job] = await db.query<{ payload: ExportPayload }>(`SELECT payload FROM job WHERE name = 'export' AND (payload->>'recordId')::int = $1`, [result.id]);
const c0 = process.cpuUsage();
const t0 = performance.now();
await runExport(db, job.payload);
const exportMs = Math.round(performance.now() - t0);
const c = process.cpuUsage(c0);
const [rec] = await db.query<{ rows: number; size: string; status: string }>('SELECT rows, size::text, status FROM download_record WHERE id = $1', [result.id]);
const exportLine = `export of the whole view (sorted by temperature, CSV, as the job makes it): ${exportMs.toLocaleString('en-US')} ms, CPU ${Math.round((c.user + c.system) / 1000).toLocaleString('en-US')} ms, ${rec.status}, ${Number(rec.rows).toLocaleString('en-US')} rows, ${Number(rec.size).toLocaleString('en-US')} bytes; load ${loadNow()}`;
console.log(exportLine);
await db.query('DELETE FROM download_record WHERE id = $1', [result.id]);

const shots = process.env.BENCH_SCREENSHOTS;
if (shots) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  const context = await browser.newContext({ locale: 'en-US' });
  await context.addCookies([{ name: SESSION_COOKIE, value: token, url: base }, { name: 'lang', value: 'en-US', url: base }]);
  const tag = `${Math.round(sensors / 1000)}k`;
  const put = await fetch(`${base}/service/mine/homeSetting`, {
    method: 'PUT',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ style: 'classic', widgets: ['listMonitor', 'dashboard', 'alarmMode', 'carrierStatus'], sensors: [] }),
  });
  if (!put.ok) throw new Error(`home settings answered ${put.status}`);
  for (const [width, height] of [[1440, 900], [390, 844]]) {
    const page = await context.newPage();
    await page.setViewportSize({ width, height });
    await page.goto(`${base}/databoard/monitoringPoint`);
    await page.waitForSelector('.ant-table-row', { timeout: 60_000 });
    await page.getByRole('columnheader', { name: /temperature/i }).first().click();
    await page.getByRole('columnheader', { name: /temperature/i }).first().click();
    await page.waitForFunction(() => document.querySelector('.ant-table-column-sort .ant-table-column-sorter-down.active') !== null, undefined, { timeout: 60_000 });
    await page.mouse.move(0, 0);
    await page.waitForFunction(() => document.querySelector('.ant-table-wrapper .ant-spin-spinning') === null, undefined, { timeout: 60_000 });
    await page.waitForTimeout(1000);
    await page.screenshot({ path: `${shots}/monitoring-point-${tag}-${width}.png` });
    await page.goto(`${base}/home`);
    await page.waitForSelector('[data-testid="widget-list-monitor"] .ant-table-row', { timeout: 60_000 });
    await page.locator('.ant-tour-close').click({ timeout: 3000 }).catch(() => undefined);
    await page.waitForSelector('[data-testid="widget-dashboard"] canvas', { timeout: 60_000 });
    await page.waitForTimeout(2500);
    await page.screenshot({ path: `${shots}/home-widgets-${tag}-${width}.png` });
    // The home scrolls inside its frame: each widget on its own.
    for (const id of ['widget-list-monitor', 'widget-dashboard', 'widget-alarm-mode']) await page.getByTestId(id).screenshot({ path: `${shots}/home-${id.slice(7)}-${tag}-${width}.png` });
    await page.close();
  }
  await browser.close();
}

console.log(`\nThe table and home's widgets at ${sensors.toLocaleString('en-US')} sensors (${RUNS} runs each):\n  ${lines.join('\n  ')}\n  ${exportLine}`);
await app.close();
await bench.close();
