import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext } from 'playwright-core';
import { launch } from './support/browser.js';
import { startConsole, type RunningConsole } from './support/console.js';
import { signInOn } from './support/signIn.js';
import { FEED } from './support/mqtt.js';
import { startSmtp } from './support/smtp.js';

/**
 * The notice log at /noti/notification (issue 28 "Notices"): an excursion of the demo's Test
 * Fridge mails its contact through a real SMTP server, and the page lists that mail as sent.
 * Screenshots of the page in both languages at 1440 and 390 px into docs/screenshots/.
 */
const docs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docs/screenshots');
let console_: RunningConsole;
let browser: Browser;
let smtp: Awaited<ReturnType<typeof startSmtp>>;

const signIn = (context: BrowserContext, placeholder: [string, string]) => signInOn(context, console_.url, placeholder);

beforeAll(async () => {
  smtp = await startSmtp();
  console_ = await startConsole({ SIMULATOR: '0', SMTP_URL: smtp.url });
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await console_?.stop();
  await smtp?.stop();
});

describe('notice log page', () => {
  it('lists the alarm mail of an excursion as sent, in both languages', async () => {
    const res = await fetch(`${console_.url}/ingest/v1/${FEED.sn}/data`, {
      method: 'POST',
      headers: { authorization: `Bearer ${FEED.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ readings: [{ dev: FEED.dev, ts: Date.now(), temp: 9.5, hum: 50 }] }),
    });
    expect(res.status).toBe(200);
    await expect.poll(() => smtp.mails.length, { timeout: 30_000 }).toBeGreaterThan(0);
    for (const [locale, placeholders, sent] of [
      ['en-US', ['Account', 'Password'], 'Sent'],
      ['zh-CN', ['账号', '密码'], '已发送'],
    ] as const) {
      for (const width of [1440, 390]) {
        const context = await browser.newContext({ viewport: { width, height: width > 800 ? 900 : 844 }, locale });
        await context.addCookies([{ name: 'lang', value: locale, url: console_.url }]);
        const page = await signIn(context, [...placeholders]);
        await page.goto(`${console_.url}/noti/notification`);
        await page.getByText('coldroom@example.com').first().waitFor();
        await page.getByText(sent, { exact: true }).first().waitFor();
        await page.screenshot({ path: path.join(docs, `notice-log-${locale}${width < 800 ? '-mobile' : ''}.png`) });
        await context.close();
      }
    }
  }, 480_000); // four sign-ins and pages on a console that a busy machine shares
});
