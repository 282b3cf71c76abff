import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, shot } from './support/browser.js';
import { startConsole, type RunningConsole } from './support/console.js';
import { FEED, publishReading } from './support/mqtt.js';
import { startSmtp } from './support/smtp.js';

/**
 * The product's core path in a real browser against the real console: log in, watch a
 * live value change as a gateway publishes over MQTT, open the history chart, see the
 * exception after an excursion (and its e-mail on a real SMTP server), switch languages.
 */
let console_: RunningConsole;
let browser: Browser;
let page: Page;
let smtp: Awaited<ReturnType<typeof startSmtp>>;

beforeAll(async () => {
  smtp = await startSmtp();
  // The simulator stays off so that the only live values on Test Fridge are the ones this test sends.
  console_ = await startConsole({ SIMULATOR: '0', SMTP_URL: smtp.url });
  browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  page = await context.newPage();
});

afterAll(async () => {
  await browser?.close();
  await console_?.stop();
  await smtp?.stop();
});

const sensorTile = () => page.locator('.cw-mon-sensor', { hasText: FEED.dev });

describe('core path', () => {
  it('logs in as the demo customer administrator and lands on home', async () => {
    await page.goto(`${console_.url}/home`);
    await page.waitForURL(/\/login/);
    await page.getByPlaceholder('账号').fill('demo');
    await page.getByPlaceholder('密码').fill('demo123');
    await page.locator('button[type=submit]').click();
    await page.waitForURL(/\/home/);
    await page.getByText('Demo Hospital').first().waitFor();
    await shot(page, 'home-zh');
  });

  it('shows a live value change on the device monitor without a reload', async () => {
    await page.goto(`${console_.url}/databoard/deviceMonitor`);
    await sensorTile().waitFor();
    const navigations: string[] = [];
    page.on('framenavigated', (f) => f === page.mainFrame() && navigations.push(f.url()));

    await publishReading(console_.mqttPort, { temp: 5.4, hum: 48 });
    await expect.poll(() => sensorTile().innerText(), { timeout: 15_000 }).toContain('5.4');
    await expect.poll(() => sensorTile().locator('.cw-mon-value').first().getAttribute('data-range')).toBe('ok');

    await publishReading(console_.mqttPort, { temp: 9.8, hum: 48 });
    await expect.poll(() => sensorTile().innerText(), { timeout: 15_000 }).toContain('9.8');
    // Above the 2–8 °C zone: the value turns to the "above max" colour.
    await expect.poll(() => sensorTile().locator('.cw-mon-value').first().getAttribute('data-range')).toBe('high');
    expect(navigations).toEqual([]);
    await shot(page, 'device-monitor-zh');
  });

  it('opens an exception record for the excursion and e-mails the contact', async () => {
    await page.goto(`${console_.url}/abnormal/dataex`);
    const row = page.locator('tr', { hasText: FEED.dev }).first();
    await expect.poll(async () => (await row.count()) > 0 && (await row.innerText()), { timeout: 20_000 }).toContain('Test Fridge');
    await shot(page, 'exceptions-zh');
    await expect.poll(() => smtp.mails.find((m) => m.to.includes('coldroom@example.com')), { timeout: 20_000 }).toBeTruthy();
    const mail = smtp.mails.find((m) => m.to.includes('coldroom@example.com'))!;
    expect(mail.subject).toContain('Test Fridge');
    expect(mail.text).toContain('9.8');
  });

  it('draws the history chart of a sensor with seven days of data', async () => {
    await page.goto(`${console_.url}/historyData?deviceNo=T1000001`);
    const canvas = page.locator('canvas').first();
    await canvas.waitFor({ timeout: 20_000 });
    const box = await canvas.boundingBox();
    expect(box!.width).toBeGreaterThan(400);
    expect(box!.height).toBeGreaterThan(200);
    await page.waitForTimeout(800); // let the chart's entry animation finish before the picture
    await shot(page, 'history-zh');
  });

  it('switches to English and back to Chinese', async () => {
    await page.goto(`${console_.url}/home`);
    await page.getByRole('button', { name: '切换语言' }).click();
    await Promise.all([page.waitForEvent('load'), page.getByRole('menuitem', { name: 'English' }).click()]);
    await page.getByRole('menuitem', { name: 'Home' }).first().waitFor();
    await page.getByText('Demo Hospital').first().waitFor();
    await shot(page, 'home-en');
    await page.goto(`${console_.url}/abnormal/dataex`);
    await page.locator('tr', { hasText: FEED.dev }).first().waitFor();
    await shot(page, 'exceptions-en');

    await page.getByRole('button', { name: 'Switch language' }).click();
    await Promise.all([page.waitForEvent('load'), page.getByRole('menuitem', { name: '简体中文' }).click()]);
    await page.getByRole('menuitem', { name: '首页' }).first().waitFor();
  });
});
