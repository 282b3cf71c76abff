import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch } from './support/browser.js';
import { startConsole, type RunningConsole } from './support/console.js';
import { signInOn } from './support/signIn.js';
import { FEED } from './support/mqtt.js';

/**
 * The statistics page in Chromium (issue 29, docs/statistics.md): Test Fridge's readings of a past
 * half hour back-filled through the HTTP ingest API, their time-weighted average, MKT and pass
 * rate computed here by hand, and the page showing the same, in en-US and zh-CN. Screenshots of
 * the page, the guidance analysis and the home widget at 1440 and 390 px go to docs/screenshots.
 */
let console_: RunningConsole;
let browser: Browser;
const docs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docs/screenshots');

/** An hour three days ago, on the minute: long past, so nothing else of Test Fridge is in it. */
const T0 = Math.floor((Date.now() - 3 * 86_400_000) / 3_600_000) * 3_600_000;
const MIN = 60_000;
const VALUES = [5, 9, 3, 6.5];

const signIn = (context: BrowserContext, placeholder: [string, string]) => signInOn(context, console_.url, placeholder);

async function call(p: Page, path_: string) {
  const body = (await (await p.request.fetch(`${console_.url}${path_}`)).json()) as { state: { code: number }; result: any };
  expect(body.state.code).toBe(200000);
  return body.result;
}

beforeAll(async () => {
  console_ = await startConsole({ SIMULATOR: '0' });
  browser = await launch();
  // Four readings ten minutes apart, back-filled in one message as a gateway that was offline sends them.
  const res = await fetch(`${console_.url}/ingest/v1/${FEED.sn}/data`, {
    method: 'POST',
    headers: { authorization: `Bearer ${FEED.secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ readings: VALUES.map((temp, i) => ({ dev: FEED.dev, ts: T0 + i * 10 * MIN, temp, hum: 50 })) }),
  });
  expect(res.status).toBe(200);
});

afterAll(async () => {
  await browser?.close();
  await console_?.stop();
});

describe('statistics in the browser', () => {
  for (const [lang, placeholder, mktLabel, passLabel] of [
    ['en-US', ['Account', 'Password'], 'MKT °C', 'Pass rate'],
    ['zh-CN', ['账号', '密码'], 'MKT °C', '合格率'],
  ] as const) {
    it(`shows Test Fridge's MKT and pass rate as computed by hand (${lang})`, async () => {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: lang });
      await context.addCookies([{ name: 'lang', value: lang, url: console_.url }]);
      const page = await signIn(context, [...placeholder]);
      const fridge = (await call(page, '/service/carrier/page?iDisplayStart=0&iDisplayLength=15&name=Test%20Fridge')).rows[0];
      const { tempMin, tempMax } = fridge as { tempMin: number; tempMax: number };
      // By hand: each reading weighs the 10 minutes until the next, the last one until the end (00:40).
      const end = T0 + 40 * MIN;
      const w = VALUES.map(() => 600);
      const W = w.reduce((a, b) => a + b, 0);
      const mkt = 10_000 / -Math.log(VALUES.reduce((s, v, i) => s + w[i] * Math.exp(-10_000 / (v + 273.15)), 0) / W) - 273.15;
      const pass = VALUES.reduce((s, v, i) => s + (v >= tempMin && v <= tempMax ? w[i] : 0), 0) / W;
      const avg = VALUES.reduce((s, v, i) => s + w[i] * v, 0) / W;

      await page.goto(`${console_.url}/count/statistic?carrierIds=${fridge.id}&start=${T0}&end=${end}`);
      const header = page.locator('.ant-table-thead th');
      await header.filter({ hasText: mktLabel }).first().waitFor();
      const row = page.locator('.ant-table-tbody tr.ant-table-row', { hasText: 'Test Fridge' }).first();
      await row.waitFor();
      const cells = await row.locator('td').allInnerTexts();
      const headers = await header.allInnerTexts();
      const cell = (label: string) => cells[headers.findIndex((h) => h.trim() === label)]?.trim();
      expect(cell(mktLabel)).toBe(mkt.toFixed(2));
      expect(cell(passLabel)).toBe(`${(pass * 100).toFixed(2)} %`);
      expect(cells.join(' ')).toContain(avg.toFixed(2));
      // And the API behind it, within 0.01 °C.
      const api = await call(page, `/service/count/statistic?carrierId=${fridge.id}&startTime=${T0}&endTime=${end}`);
      expect(Math.abs(api.summary.temp.mkt - mkt)).toBeLessThan(0.01);
      expect(api.summary.temp.readings).toBe(VALUES.length);

      const tag = lang === 'en-US' ? 'en' : 'zh';
      await page.screenshot({ path: path.join(docs, `statistic-1440-${tag}.png`) });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: path.join(docs, `statistic-390-${tag}.png`) });
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${console_.url}/count/guidance`);
      await page.locator('.ant-card-head-title', { hasText: lang === 'en-US' ? 'Guidance analysis' : '指导分析' }).first().waitFor();
      await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
      await page.screenshot({ path: path.join(docs, `guidance-1440-${tag}.png`) });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: path.join(docs, `guidance-390-${tag}.png`) });
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${console_.url}/home`);
      const widget = page.getByTestId('pass-rate-widget');
      await widget.scrollIntoViewIfNeeded();
      await widget.locator('.cw-pass-rate').first().waitFor();
      await widget.screenshot({ path: path.join(docs, `home-pass-rate-${tag}.png`) });
      await context.close();
    }, 120_000);
  }
});
