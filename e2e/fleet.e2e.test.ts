import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import type { Browser, Page } from 'playwright-core';
import { launch, shot } from './support/browser.js';
import { startConsole, type RunningConsole } from './support/console.js';
import { FEED, publishFrom } from './support/mqtt.js';

/**
 * Issue 10's checks as a fleet manager walks them in the browser: lend a sensor to another
 * customer and look at both customers' views (the owner's gateway hearing it is refused, the
 * borrower's files it), revoke it; switch a relay and see the gateway receive the output on
 * `down/output` and the page show it confirmed after the gateway's ack.
 */
let console_: RunningConsole;
let browser: Browser;
const pages: Page[] = [];

async function signedIn(account: string, password: string): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  await ctx.addCookies([{ name: 'lang', value: 'en-US', url: console_.url }]);
  const page = await ctx.newPage();
  pages.push(page);
  await page.goto(`${console_.url}/login`);
  await page.getByPlaceholder('Account').fill(account);
  await page.getByPlaceholder('Password').fill(password);
  await page.locator('button[type=submit]').click();
  await page.waitForURL(/\/home/);
  return page;
}

async function call(page: Page, method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown) {
  const res = await page.request.fetch(`${console_.url}${path}`, { method, data });
  const body = (await res.json()) as { state: { code: number; msg: string }; result: any };
  if (body.state.code !== 200000) throw new Error(`${method} ${path}: ${JSON.stringify(body.state)}`);
  return body.result;
}

/** Picks an option of an antd select by its text. */
async function choose(page: Page, fieldId: string, text: string | RegExp) {
  await page.locator(`#${fieldId}`).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first().click();
}

let admin: Page;
let demo: Page;
let river: Page;
let riverGateway: { id: number; sn: string; secret: string };

beforeAll(async () => {
  console_ = await startConsole({ SIMULATOR: '0' });
  browser = await launch();
  admin = await signedIn('admin', 'admin123');
  const customer = await call(admin, 'POST', '/service/customer/add', {
    name: 'Riverside Pharmacy', code: 'RIVER01', orgType: '02', type: 'customer', account: 'river', password: 'river_123', phone: '13977700001', email: 'river@example.org',
  });
  riverGateway = await call(admin, 'POST', '/service/gateway/add', { sn: 'A4C138F00999', name: 'Pharmacy gateway', customerId: customer.id });
  demo = await signedIn('demo', 'demo123');
  river = await signedIn('river', 'river_123');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await console_?.stop();
});

describe('the device fleet in the browser', () => {
  it('lends a sensor to another customer: each side sees its part, the readings follow, revoke brings it home', async () => {
    await admin.goto(`${console_.url}/device/sensor`);
    const row = admin.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: FEED.dev });
    await row.locator('td.ant-table-selection-column').click();
    await admin.getByRole('button', { name: /^Lend/ }).click();
    await choose(admin, 'lendForm_borrowerId', 'Riverside Pharmacy');
    await choose(admin, 'lendForm_gatewayId', riverGateway.sn);
    await admin.locator('#lendForm_note').fill('Vaccination campaign');
    await admin.locator('.ant-modal-wrap:visible .ant-modal-footer .ant-btn-primary').click();
    await admin.getByText('1 sensor lent').waitFor();

    await admin.goto(`${console_.url}/sys/deviceTransfer`);
    await admin.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: FEED.dev }).filter({ hasText: 'Riverside Pharmacy' }).waitFor();
    await shot(admin, 'fleet-transfer-en');

    // The owner's gateway still hears it: refused. The borrower's gateway files it under the borrower.
    await publishFrom(console_.mqttPort, FEED, { temp: 6.6, hum: 50 });
    await publishFrom(console_.mqttPort, { sn: riverGateway.sn, secret: riverGateway.secret, dev: FEED.dev }, { temp: 4.2, hum: 51 });

    await river.goto(`${console_.url}/device/sensor`);
    const borrowed = river.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: FEED.dev });
    await borrowed.getByText('Borrowed').waitFor();
    await expect.poll(async () => borrowed.textContent(), { timeout: 10_000 }).toContain('4.2 °C');
    await shot(river, 'fleet-borrowed-en');

    await demo.goto(`${console_.url}/device/sensor`);
    await demo.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
    expect(await demo.locator('.ant-table-tbody').textContent()).not.toContain(FEED.dev);
    await demo.getByRole('button', { name: 'Lent out' }).click();
    await demo.locator('.ant-modal-wrap:visible .ant-table-tbody tr.ant-table-row').filter({ hasText: FEED.dev }).filter({ hasText: 'Riverside Pharmacy' }).waitFor();
    // The owner's history never shows the borrower's reading, nor the refused one.
    await demo.keyboard.press('Escape');

    await admin.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: FEED.dev }).getByRole('button', { name: 'Revoke' }).click();
    await admin.locator('.ant-modal-confirm .ant-btn-dangerous').click();
    await admin.getByText('Loan revoked: the sensors are back with their owner').waitFor();
    await demo.goto(`${console_.url}/device/sensor`);
    await demo.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: FEED.dev }).waitFor();
    const history = await call(demo, 'GET', `/service/share/history?deviceNo=${FEED.dev}&start=${Date.now() - 600_000}&end=${Date.now() + 60_000}&maxPoints=100`);
    expect(history.points.map((p: { temp: number }) => p.temp)).not.toContain(4.2);
    expect(history.points.map((p: { temp: number }) => p.temp)).not.toContain(6.6);
  });

  it('switches a relay: the gateway receives the output on down/output, and its ack shows it confirmed', async () => {
    const gateways = await call(demo, 'GET', `/service/gateway/page?iDisplayStart=0&iDisplayLength=50&sn=${FEED.sn}`);
    await call(demo, 'POST', '/service/relay/add', { devNo: 'R0000001', name: 'Cold room fan', gatewayId: gateways.rows[0].id });

    // The hand-driven gateway listens on its down topics, as a real one does.
    const gw = await mqtt.connectAsync(`mqtt://127.0.0.1:${console_.mqttPort}`, { clientId: FEED.sn, username: FEED.sn, password: FEED.secret, reconnectPeriod: 0 });
    const received: { cmdId: string; dev: string; on: boolean }[] = [];
    gw.on('message', (topic, payload) => {
      if (topic === `cc/${FEED.sn}/down/output`) received.push(JSON.parse(payload.toString()));
    });
    await gw.subscribeAsync(`cc/${FEED.sn}/down/#`, { qos: 1 });
    try {
      await demo.goto(`${console_.url}/device/relay`);
      const row = demo.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: 'R0000001' });
      await row.getByRole('button', { name: 'Switch' }).click();
      await demo.locator('.ant-modal-wrap:visible').getByText('Manual', { exact: true }).click();
      await demo.locator('.ant-modal-wrap:visible .ant-modal-footer .ant-btn-primary').click();
      await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1);
      expect(received[0]).toMatchObject({ dev: 'R0000001', on: true });
      await row.getByText('Sending…').waitFor();

      await gw.publishAsync(`cc/${FEED.sn}/up/ack`, JSON.stringify({ cmdId: received[0].cmdId, result: 'ok' }), { qos: 1 });
      await demo.goto(`${console_.url}/RelayDetail?id=${(await call(demo, 'GET', '/service/relay/page?iDisplayStart=0&iDisplayLength=5&devNo=R0000001')).rows[0].id}`);
      await demo.getByText('User switching').waitFor();
      await expect.poll(async () => (await call(demo, 'GET', '/service/relay/page?iDisplayStart=0&iDisplayLength=5&devNo=R0000001')).rows[0].output, { timeout: 10_000 }).toBe(true);
      await shot(demo, 'fleet-relay-en');
    } finally {
      await gw.endAsync();
    }
  });
});
