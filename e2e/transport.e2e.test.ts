import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launch } from './support/browser.js';
import { startConsole, type RunningConsole } from './support/console.js';
import { signInOn } from './support/signIn.js';

/**
 * Transport in Chromium (issue 31, docs/transport.md): the clinic is made a place on /transHistory;
 * the demo's Vaccine Van 01 leaves the Fleet yard (the demo's place) and reaches the clinic
 * (heartbeats with GPS and readings over the HTTP ingest API, the van's gateway secret reset
 * through the API): the places start and end its trip by themselves; /transHistory lists it with
 * its route and playback; its transport code opens the receiver's page on a 390 px phone without
 * a login; an altered code is refused.
 */
const docs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docs/screenshots');
const VAN = { sn: 'DE3000000004', dev: 'T1000010' };
// Along the demo's VAN_ROUTE (server/src/demo/route.ts): in the yard, out, across the river, in the clinic.
const ROUTE = [
  [31.2252, 121.4801], [31.2253, 121.4802], [31.2281, 121.4838], [31.2305, 121.4874], [31.2334, 121.4925], [31.2376, 121.4992],
  [31.2397, 121.5068], [31.2362, 121.5156], [31.2318, 121.5261], [31.2265, 121.5372], [31.2214, 121.5445],
];
let console_: RunningConsole;
let browser: Browser;
let page: Page;
let codeUrl: string;

async function call(p: Page, method: 'GET' | 'POST', url: string) {
  const res = await p.request.fetch(`${console_.url}${url}`, { method });
  const body = (await res.json()) as { state: { code: number; msg: string }; result: any };
  if (body.state.code !== 200000) throw new Error(`${method} ${url}: ${JSON.stringify(body.state)}`);
  return body.result;
}

beforeAll(async () => {
  console_ = await startConsole({ SIMULATOR: '0' });
  browser = await launch();
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  await ctx.addCookies([{ name: 'lang', value: 'en-US', url: console_.url }]);
  page = await signInOn(ctx, console_.url, ['Account', 'Password']);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await console_?.stop();
});

describe('transport', () => {
  it('makes the clinic a place on /transHistory', async () => {
    await page.goto(`${console_.url}/transHistory`);
    const places = page.getByTestId('places');
    await places.locator('.ant-table-row', { hasText: 'Fleet yard' }).waitFor();
    await places.getByRole('button', { name: 'Add place' }).click();
    const dialog = page.locator('.ant-modal-wrap:visible');
    await dialog.getByLabel('Name').fill('Pudong clinic');
    await dialog.getByLabel('Latitude').fill('31.2214');
    await dialog.getByLabel('Longitude').fill('121.5445');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await places.locator('.ant-table-row', { hasText: 'Pudong clinic' }).waitFor();
    expect(await places.locator('.ant-table-row', { hasText: 'Pudong clinic' }).innerText()).toContain('300 m');
  }, 120_000);

  it('the van leaves the yard and reaches the clinic: the places start and end its trip', async () => {
    const gw = (await call(page, 'GET', `/service/gateway/page?iDisplayStart=0&iDisplayLength=5&sn=${VAN.sn}`)).rows[0];
    const { secret } = await call(page, 'POST', `/service/gateway/resetSecret?id=${gw.id}`);
    const send = async (kind: 'heartbeat' | 'data', body: unknown) => {
      const res = await fetch(`${console_.url}/ingest/v1/${VAN.sn}/${kind}`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status, await res.text()).toBe(200);
    };
    const start = Date.now() - ROUTE.length * 120_000;
    for (const [i, [lat, lng]] of ROUTE.entries()) {
      const ts = start + i * 120_000;
      await send('data', { readings: [{ dev: VAN.dev, ts, temp: 4.5 + (i % 3) * 0.4, hum: 55 }] });
      await send('heartbeat', { ts, gps: { lat, lng } });
    }
    const trips = (await call(page, 'GET', '/service/trip/page?iDisplayStart=0&iDisplayLength=5')).rows as { origin: string; destination: string; status: number; auto: boolean; positions: number }[];
    expect(trips[0]).toMatchObject({ origin: 'Fleet yard', destination: 'Pudong clinic', status: 1, auto: true });
    expect(trips[0].positions).toBeGreaterThanOrEqual(9);
  }, 120_000);

  it('/transHistory lists the trip; its route plays back; its transport code is handed out', async () => {
    await page.goto(`${console_.url}/transHistory`);
    const row = page.locator('.ant-table-row', { hasText: 'Fleet yard → Pudong clinic' }).first();
    await row.waitFor();
    expect(await row.innerText()).toContain('auto');
    await row.getByText('Route and playback').click();
    await page.getByTestId('trip-view').waitFor();
    await page.locator('.leaflet-container').first().waitFor();
    await expect.poll(() => page.locator('[data-testid="places"] .ant-table-row').count()).toBe(2);
    await page.screenshot({ path: path.join(docs, 'trans-history-auto-en-US.png'), fullPage: true });
    await row.getByText('Transport code').click();
    codeUrl = (await page.getByTestId('trip-code-url').innerText()).trim();
    expect(codeUrl).toMatch(/\/traceDetail\?code=/);
  }, 120_000);

  it('the receiver opens the code on a phone without a login; an altered code is refused', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'zh-CN', isMobile: true });
    const p = await phone.newPage();
    await p.goto(codeUrl);
    await p.getByText('Vaccine Van 01').first().waitFor();
    expect(await p.locator('body').innerText()).toContain('Pudong clinic');
    await p.screenshot({ path: path.join(docs, 'trace-detail-auto-zh-CN-mobile.png'), fullPage: true });
    await p.goto(codeUrl.replace(/code=(\d+)/, (_, n) => `code=${Number(n) + 1}`));
    await expect.poll(async () => p.locator('body').innerText(), { timeout: 15_000 }).toMatch(/无效|not valid/);
    await phone.close();
  }, 120_000);
});
