import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch } from './support/browser.js';
import { startConsole, type RunningConsole } from './support/console.js';
import { signInOn } from './support/signIn.js';
import { FEED } from './support/mqtt.js';
import { startSmtp } from './support/smtp.js';

/**
 * Alarm triggers in Chromium (issue 28, docs/alarms.md "Triggers"): the demo customer makes a
 * trigger on /sysAlarm with SMS and a repeat every minute and binds Test Fridge to it; an
 * out-of-range reading over HTTP ingest mails and texts Test Fridge's contact (a real SMTP server
 * and an SMS webhook sink), the notice log lists both, and a minute on the repeat follows. A
 * pause and its end fill the alarm log. Screenshots of the triggers page, the notice log and the
 * alarm log in zh-CN and en-US at 1440 and 390 px into docs/screenshots/.
 */
const docs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docs/screenshots');
const PHONE = '13800000005'; // Test Fridge's contact, Cold Room Duty (server/src/demo/seed.ts)
let console_: RunningConsole;
let browser: Browser;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let sink: http.Server;
const texts: string[] = [];
let page: Page;

const signIn = (context: BrowserContext, placeholder: [string, string]) => signInOn(context, console_.url, placeholder);

async function call(p: Page, method: 'GET' | 'PUT', url: string, data?: unknown) {
  const res = await p.request.fetch(`${console_.url}${url}`, { method, data });
  const body = (await res.json()) as { state: { code: number; msg: string }; result: any };
  if (body.state.code !== 200000) throw new Error(`${method} ${url}: ${JSON.stringify(body.state)}`);
  return body.result;
}

const settle = async (p: Page) => {
  await p.locator('.ant-message-notice').waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
  await p.mouse.move(0, 0);
};

beforeAll(async () => {
  smtp = await startSmtp();
  // The SMS webhook sink: any gateway that takes a POST; it keeps each body and answers 200.
  sink = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      texts.push(body);
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
  const smsUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/sms`;
  console_ = await startConsole({ SIMULATOR: '0', SMTP_URL: smtp.url, SMS_URL: smsUrl });
  // The customer's SMS switch is the master (docs/alarms.md): the demo ships with it off, and its
  // page belongs to the platform administrator; the test turns it on in the database.
  if (console_.databaseUrl) {
    const c = new pg.Client({ connectionString: console_.databaseUrl });
    await c.connect();
    await c.query(`UPDATE customer SET notify_sms = true WHERE id = (SELECT customer_id FROM gateway WHERE sn = $1)`, [FEED.sn]);
    await c.end();
  }
  browser = await launch();
  const en = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  await en.addCookies([{ name: 'lang', value: 'en-US', url: console_.url }]);
  page = await signIn(en, ['Account', 'Password']);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await console_?.stop();
  await smtp?.stop();
  await new Promise((r) => sink?.close(r));
});

describe('alarm triggers', () => {
  it('makes a trigger with SMS and a one-minute repeat on /sysAlarm, bound to Test Fridge', async () => {
    expect(console_.databaseUrl, 'run with DATABASE_URL: the SMS switch is set in the database').toBeTruthy();
    await page.goto(`${console_.url}/sysAlarm`);
    await page.getByRole('button', { name: 'Add trigger' }).click();
    const dialog = page.locator('.ant-modal-wrap:visible');
    await dialog.locator('#alarmTriggerForm_name').fill('Cold room duty');
    await dialog.locator('#alarmTriggerForm_carrierIds').click();
    await dialog.locator('#alarmTriggerForm_carrierIds').fill('Test');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'Test Fridge' }).first().click();
    await dialog.locator('#alarmTriggerForm_name').click(); // closes the drop-down
    await dialog.locator('#alarmTriggerForm_channels').getByText('SMS', { exact: true }).click();
    await dialog.locator('#alarmTriggerForm_repeatTimes').fill('2');
    await dialog.locator('#alarmTriggerForm_repeatIntervalMin').fill('1');
    await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
    await page.locator('.ant-modal-wrap').waitFor({ state: 'hidden' });
    const row = page.locator('.ant-table-row', { hasText: 'Cold room duty' });
    await row.waitFor();
    expect(await row.innerText()).toContain('Test Fridge');
    expect(await row.innerText()).toContain('SMS');
  }, 120_000);

  it('an out-of-range reading mails and texts the contact; the notice log lists both; a minute on, the repeat', async () => {
    const sentAt = Date.now();
    const res = await fetch(`${console_.url}/ingest/v1/${FEED.sn}/data`, {
      method: 'POST',
      headers: { authorization: `Bearer ${FEED.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ readings: [{ dev: FEED.dev, ts: Date.now(), temp: 9.5, hum: 50 }] }),
    });
    expect(res.status).toBe(200);
    await expect.poll(() => smtp.mails.length, { timeout: 30_000 }).toBeGreaterThan(0);
    await expect.poll(() => texts.length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(texts[0]).toContain(PHONE);
    // This excursion's notices: to Test Fridge's contact, written since the reading (the demo has older ones).
    const rows = async () =>
      ((await call(page, 'GET', '/service/notice/page?iDisplayStart=0&iDisplayLength=100&type=alarm')).rows as { channel: string; recipient: string; status: number; content: string; createdAt: number }[])
        .filter((r) => r.createdAt >= sentAt - 1000 && (r.recipient === PHONE || r.recipient === 'coldroom@example.com'));
    await expect.poll(async () => (await rows()).filter((r) => r.status === 1).map((r) => r.channel).sort(), { timeout: 30_000 }).toEqual(['email', 'sms']);
    expect(texts[0]).toMatch(/Test Fridge/);
    // Nobody acknowledges: the first repeat a minute on (the chain job runs every 15 s), on both channels.
    await expect.poll(async () => (await rows()).length, { timeout: 150_000, interval: 5_000 }).toBeGreaterThanOrEqual(4);
    const repeat = (await rows()).find((r) => r.channel === 'sms' && /reminder|提醒/.test(r.content));
    expect(repeat?.recipient).toBe(PHONE);

    await page.goto(`${console_.url}/noti/notification`);
    await page.locator('.ant-table-row', { hasText: PHONE }).first().waitFor();
    expect(await page.locator('.ant-table-row', { hasText: PHONE }).count()).toBeGreaterThanOrEqual(2);
  }, 240_000);

  it('a pause and its end are in the alarm log', async () => {
    const carriers = (await call(page, 'GET', '/service/carrier/page?iDisplayStart=0&iDisplayLength=50&name=Test%20Fridge')).rows as { id: number; name: string }[];
    const fridge = carriers.find((c) => c.name === 'Test Fridge')!;
    await call(page, 'PUT', '/service/carrier/alarmPause', { ids: [fridge.id], until: Date.now() + 3_600_000, reason: 'Defrost' });
    await call(page, 'PUT', '/service/carrier/alarmPause', { ids: [fridge.id], until: null, reason: 'Defrost done' });
    await page.goto(`${console_.url}/noti/alarmLog`);
    await page.locator('.ant-table-row', { hasText: 'Defrost done' }).first().waitFor();
    expect(await page.locator('.ant-table-row', { hasText: 'Test Fridge' }).count()).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('screenshots of the triggers page, the notice log and the alarm log in both languages at 1440 and 390 px', async () => {
    const pages = [
      ['alarm-triggers', '/sysAlarm', 'Cold room duty'],
      ['alarm-notice-log', '/noti/notification', PHONE],
      ['alarm-log', '/noti/alarmLog', 'Test Fridge'],
    ] as const;
    for (const [locale, placeholders] of [
      ['en-US', ['Account', 'Password']],
      ['zh-CN', ['账号', '密码']],
    ] as const) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale });
      await context.addCookies([{ name: 'lang', value: locale, url: console_.url }]);
      const p = await signIn(context, [...placeholders]);
      for (const width of [1440, 390]) {
        await p.setViewportSize({ width, height: width > 800 ? 900 : 844 });
        for (const [name, url, text] of pages) {
          await p.goto(`${console_.url}${url}`);
          await p.locator('.ant-table-row', { hasText: text }).first().waitFor();
          await settle(p);
          await p.screenshot({ path: path.join(docs, `${name}-${locale}-${width}.png`) });
        }
      }
      await context.close();
    }
  }, 300_000);
});
