import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, shot } from './support/browser.js';
import { startConsole, type RunningConsole } from './support/console.js';

/**
 * The GSP checks of /count/guidance (docs/compliance.md) as a customer administrator meets them:
 * the demo's own state (every monitoring point short of three SMS recipients), a calibration
 * that expired, and its fix made from the finding itself, after which the finding is gone; the
 * console's first backup, missing until the platform runs it.
 */
let console_: RunningConsole;
let browser: Browser;
let page: Page;

async function call(method: 'GET' | 'PUT' | 'POST', path: string, data?: unknown, as: Page = page) {
  const res = await as.request.fetch(`${console_.url}${path}`, { method, data });
  const body = (await res.json()) as { state: { code: number; msg: string }; result: any };
  if (body.state.code !== 200000) throw new Error(`${method} ${path}: ${JSON.stringify(body.state)}`);
  return body.result;
}

/** A calendar day `days` from today in the demo's time zone (+08:00). */
const day = (days: number) => new Date(Date.now() + 8 * 3600_000 + days * 86_400_000).toISOString().slice(0, 10);

/** The checks' summary is computed on the server over every monitoring point: seconds on a busy machine. */
const SUMMARY = { timeout: 30_000 };

const card = (check: string) => page.locator(`[data-check="${check}"]`);
/** The findings of the selected check (the guidance ranking above is a table too). */
const rows = () => page.locator('.cw-compliance-findings .ant-table-tbody tr.ant-table-row');

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
    await expect.poll(() => card('interval').getAttribute('data-state'), SUMMARY).toBe('pass');
    await expect.poll(() => card('smsReach').getAttribute('data-state'), SUMMARY).toBe('fail');
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
    await expect.poll(() => card('calibration').getAttribute('data-state'), SUMMARY).toBe('fail');
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

  it('a fresh console has no backup: the demo is told the platform runs them; the platform\'s "run now" clears the finding', async () => {
    await card('backup').click();
    await expect.poll(() => card('backup').getAttribute('data-state'), SUMMARY).toBe('fail');
    await rows().getByText('No backup of the database has completed yet.').waitFor();
    await rows().getByText('Backups are run by the platform operator: ask them to check the backup job.').waitFor();
    expect(await rows().getByRole('link').count()).toBe(0);
    await shot(page, 'compliance-backup-en');

    const admin = await browser.newPage();
    await admin.goto(`${console_.url}/login`);
    await admin.getByPlaceholder('Account').fill('admin');
    await admin.getByPlaceholder('Password').fill('admin123');
    await admin.locator('button[type=submit]').click();
    await admin.waitForURL(/\/home/);
    await call('POST', '/service/scheduled/run?name=backup', undefined, admin);
    await expect
      .poll(async () => (await call('GET', '/service/share/backup/file/list?iDisplayStart=0&iDisplayLength=5', undefined, admin)).rows.map((r: { outcome: string }) => r.outcome), { timeout: 60_000 })
      .toEqual(['ok']);
    await admin.close();

    await page.getByRole('button', { name: 'Check again' }).click();
    await expect.poll(() => card('backup').getAttribute('data-state'), SUMMARY).toBe('pass');
    await page.getByText('No findings: everything this check looks at passes.').waitFor();
  }, 90_000);
});
