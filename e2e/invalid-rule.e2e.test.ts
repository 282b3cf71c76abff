import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch, shot } from './support/browser.js';
import { startConsole, type RunningConsole } from './support/console.js';
import { signInOn } from './support/signIn.js';
import { FEED } from './support/mqtt.js';

/**
 * Invalid rules in Chromium (issue 27; docs/alarms.md "Invalid rules"): a one-off period on the
 * demo's Test Fridge for the next minutes, added in the rule dialog; an out-of-range reading
 * inside it opens nothing and moves nothing; history names the excluded period and tags the
 * reading. The control is a reading from before the rule existed (a rule never applies to the
 * past): it opens the exception, whose peak shows the excluded, worse reading was ignored.
 * Screenshots of the page, the dialog and the history at 1440 and 390 px in both languages.
 */
let console_: RunningConsole;
let browser: Browser;
let en: BrowserContext;
let page: Page;

async function call(p: Page, method: 'GET' | 'PUT' | 'POST', path: string, data?: unknown) {
  const res = await p.request.fetch(`${console_.url}${path}`, { method, data });
  const body = (await res.json()) as { state: { code: number; msg: string }; result: any };
  if (body.state.code !== 200000) throw new Error(`${method} ${path}: ${JSON.stringify(body.state)}`);
  return body.result;
}

/** Test Fridge's readings over HTTP ingest (device-protocol.md), as its gateway sends them. */
async function reading(ts: number, temp: number) {
  const res = await fetch(`${console_.url}/ingest/v1/${FEED.sn}/data`, {
    method: 'POST',
    headers: { authorization: `Bearer ${FEED.secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ readings: [{ dev: FEED.dev, ts, temp, hum: 50 }] }),
  });
  expect(res.status).toBe(200);
}

const signIn = (context: BrowserContext, placeholder: [string, string]) => signInOn(context, console_.url, placeholder);

const settle = async (p: Page) => {
  await p.locator('.ant-message-notice').waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
  await p.mouse.move(0, 0);
};

beforeAll(async () => {
  // No simulator: Test Fridge's readings are the ones this test sends.
  console_ = await startConsole({ SIMULATOR: '0' });
  browser = await launch();
  en = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  await en.addCookies([{ name: 'lang', value: 'en-US', url: console_.url }]);
  page = await signIn(en, ['Account', 'Password']);
});

afterAll(async () => {
  await browser?.close();
  await console_?.stop();
});

describe('invalid rules', () => {
  let ruleAt = 0;

  it('adds a one-off period for Test Fridge in the rule dialog; the list shows it in force', async () => {
    await page.goto(`${console_.url}/abnormal/invalidRule`);
    await page.getByRole('button', { name: 'Add rule' }).click();
    const dialog = page.locator('.ant-modal-wrap:visible');
    await dialog.locator('#invalidRuleForm_name').fill('Loading bay');
    await dialog.getByText('One-off period', { exact: true }).click();
    await dialog.locator('#invalidRuleForm_carrierIds').click();
    await dialog.locator('#invalidRuleForm_carrierIds').fill('Test');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'Test Fridge' }).first().click();
    // The period: from a minute ago (the rule still applies only from now) to ten minutes ahead, typed in the customer's wall clock.
    const fmt = (d: Date) => d.toISOString().slice(0, 16).replace('T', ' ');
    const zoneMs = 8 * 3_600_000; // the demo customer is at +08:00
    const start = dialog.locator('#invalidRuleForm_period');
    await start.click();
    await start.fill(fmt(new Date(Date.now() - 60_000 + zoneMs)));
    await start.press('Enter');
    const end = dialog.locator('.ant-picker-range input').nth(1);
    await end.fill(fmt(new Date(Date.now() + 10 * 60_000 + zoneMs)));
    await end.press('Enter');
    await page.locator('.ant-picker-dropdown').waitFor({ state: 'hidden' }).catch(() => undefined);
    await shot(page, 'invalid-rule-dialog-en');
    await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
    await page.locator('.ant-modal-wrap').waitFor({ state: 'hidden' });
    ruleAt = Date.now();
    const row = page.locator('tr', { hasText: 'Loading bay' });
    await row.waitFor();
    expect(await row.innerText()).toContain('Test Fridge');
    expect(await row.innerText()).toContain('One-off period');
    await settle(page);
    await shot(page, 'invalid-rule-en');
  }, 120_000);

  it('an out-of-range reading inside it opens no exception and is not its peak; a reading from before the rule opens one', async () => {
    const inside = Date.now();
    expect(inside).toBeGreaterThan(ruleAt);
    await reading(inside, 13.5);
    // The control, back-filled from before the rule was saved: out of range and not excluded.
    const before = ruleAt - 30_000;
    await reading(before, 12);
    const rows = async () => (await call(page, 'GET', `/service/exception/page?iDisplayStart=0&iDisplayLength=20&category=temp_high&devNo=${FEED.dev}`)).rows as any[];
    await expect.poll(async () => (await rows()).length, { timeout: 30_000, interval: 500 }).toBeGreaterThan(0);
    const [ex] = await rows();
    expect(await rows()).toHaveLength(1);
    // Opened by the control alone: the excluded 13.5 °C neither opened another nor became its peak.
    expect(ex).toMatchObject({ startTs: before, firstValue: 12, peakValue: 12, ongoing: true });
  });

  it('history names the excluded period and tags the reading inside it', async () => {
    const start = ruleAt - 5 * 60_000;
    const end = Date.now() + 60_000;
    const h = await call(page, 'GET', `/service/share/history?deviceNo=${FEED.dev}&start=${start}&end=${end}&maxPoints=500`);
    expect(h.excluded).toEqual([expect.objectContaining({ name: 'Loading bay' })]);
    expect(h.excluded[0].start).toBeGreaterThanOrEqual(ruleAt - 10_000);
    await page.goto(`${console_.url}/historyData?deviceNo=${FEED.dev}&start=${start}&end=${end}`);
    const tagged = page.locator('tr.cw-his-excluded');
    await tagged.first().waitFor();
    expect(await tagged.first().innerText()).toContain('Excluded');
    await settle(page);
    await shot(page, 'invalid-rule-history-en');
  });

  it('reads well at 390 px and in Chinese', async () => {
    const start = ruleAt - 5 * 60_000;
    const end = Date.now() + 60_000;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${console_.url}/abnormal/invalidRule`);
    await page.locator('.ant-table-row', { hasText: 'Loading bay' }).waitFor();
    await settle(page);
    await shot(page, 'invalid-rule-en-390');
    await page.goto(`${console_.url}/historyData?deviceNo=${FEED.dev}&start=${start}&end=${end}`);
    await page.locator('.cw-his-excluded').first().waitFor();
    await settle(page);
    await shot(page, 'invalid-rule-history-en-390');

    const zh = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
    await zh.addCookies([{ name: 'lang', value: 'zh-CN', url: console_.url }]);
    const p = await signIn(zh, ['账号', '密码']);
    await p.goto(`${console_.url}/abnormal/invalidRule`);
    const row = p.locator('tr', { hasText: 'Loading bay' });
    await row.waitFor();
    expect(await row.innerText()).toContain('一次性时段');
    await settle(p);
    await shot(p, 'invalid-rule-zh');
    // antd spaces a two-character Chinese label (编 辑).
    await row.getByRole('button', { name: /编\s*辑/ }).click();
    await p.locator('.ant-modal-wrap:visible #invalidRuleForm_name').waitFor();
    await shot(p, 'invalid-rule-dialog-zh');
    await p.locator('.ant-modal-wrap:visible .ant-modal-footer .ant-btn').first().click();
    await p.goto(`${console_.url}/historyData?deviceNo=${FEED.dev}&start=${start}&end=${end}`);
    expect(await p.locator('tr.cw-his-excluded').first().innerText()).toContain('已排除');
    await settle(p);
    await shot(p, 'invalid-rule-history-zh');
    await p.setViewportSize({ width: 390, height: 844 });
    await p.goto(`${console_.url}/abnormal/invalidRule`);
    await p.locator('.ant-table-row', { hasText: 'Loading bay' }).waitFor();
    await settle(p);
    await shot(p, 'invalid-rule-zh-390');
    await zh.close();
  }, 180_000);
});
