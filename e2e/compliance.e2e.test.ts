import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, shot } from './support/browser.js';
import { startConsole, type RunningConsole } from './support/console.js';

/**
 * The GSP checks of /count/guidance (docs/compliance.md) as a customer administrator meets them:
 * the demo's own state (every monitoring point short of three SMS recipients), a calibration
 * that expired, and its fix made from the finding itself, after which the finding is gone.
 */
let console_: RunningConsole;
let browser: Browser;
let page: Page;

async function call(method: 'GET' | 'PUT', path: string, data?: unknown) {
  const res = await page.request.fetch(`${console_.url}${path}`, { method, data });
  const body = (await res.json()) as { state: { code: number; msg: string }; result: any };
  if (body.state.code !== 200000) throw new Error(`${method} ${path}: ${JSON.stringify(body.state)}`);
  return body.result;
}

/** A calendar day `days` from today in the demo's time zone (+08:00). */
const day = (days: number) => new Date(Date.now() + 8 * 3600_000 + days * 86_400_000).toISOString().slice(0, 10);

const card = (check: string) => page.locator(`[data-check="${check}"]`);
const rows = () => page.locator('.ant-table-tbody tr.ant-table-row');

beforeAll(async () => {
  console_ = await startConsole({ SIMULATOR: '0' });
  browser = await launch();
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  await ctx.addCookies([{ name: 'lang', value: 'en-US', url: console_.url }]);
  page = await ctx.newPage();
  await page.goto(`${console_.url}/login`);
  await page.getByPlaceholder('Account').fill('demo');
  await page.getByPlaceholder('Password').fill('demo123');
  await page.locator('button[type=submit]').click();
  await page.waitForURL(/\/home/);
});

afterAll(async () => {
  await browser?.close();
  await console_?.stop();
});

describe('GSP checks in the browser', () => {
  it('opens from the menu and shows the demo as it stands: intervals pass, no monitoring point reaches three people by SMS', async () => {
    await page.locator('.ant-menu').getByText('Statistics').click();
    await page.locator('.ant-menu').getByText('Guidance analysis').click();
    await page.waitForURL(/\/count\/guidance$/);
    await expect.poll(() => card('interval').getAttribute('data-state')).toBe('pass');
    await expect.poll(() => card('smsReach').getAttribute('data-state')).toBe('fail');
    await card('smsReach').click();
    const fridge = rows().filter({ hasText: 'Pharmacy Fridge 1' });
    await fridge.getByText('Alarms reach 0 of the 3 people needed by SMS.').waitFor();
    await expect(fridge.getByText('SMS is not among the monitoring point\'s alarm methods.').count()).resolves.toBe(1);
    expect(await fridge.getByRole('link', { name: 'Pharmacy Fridge 1' }).getAttribute('href')).toMatch(/^\/carrierDetailPage\?id=\d+$/);
  });

  it('lists an expired calibration, and the fix made from the finding clears it', async () => {
    const [sensor] = (await call('GET', '/service/sensor/page?iDisplayStart=0&iDisplayLength=15&devNo=T1000004')).rows;
    await call('PUT', '/service/sensor/update', {
      id: sensor.id, devNo: sensor.devNo, type: sensor.type, gatewayId: sensor.gatewayId, carrierId: sensor.carrierId, sampleInterval: sensor.sampleInterval,
      description: sensor.description, tz: sensor.tz, calibExpiry: day(-3), calibNotice: null,
    });
    await page.getByRole('button', { name: 'Check again' }).click();
    await expect.poll(() => card('calibration').getAttribute('data-state')).toBe('fail');
    await card('calibration').click();
    const row = rows().filter({ hasText: 'T1000004' });
    await row.getByText(`Calibration expired on ${day(-3)}, 3 days ago.`).waitFor();
    await shot(page, 'compliance-calibration-en');

    await row.getByRole('button', { name: 'Edit sensor' }).click();
    const input = page.locator('#sensorForm_calibExpiry');
    await input.click();
    await input.fill(day(365));
    await input.press('Enter');
    await page.locator('.ant-modal-wrap:visible .ant-modal-footer .ant-btn-primary').click();
    await expect.poll(() => card('calibration').getAttribute('data-state'), { timeout: 15_000 }).toBe('pass');
    await page.getByText('No findings: everything this check looks at passes.').waitFor();
    expect(await rows().count()).toBe(0);
  });
});
