import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch } from './support/browser.js';
import { startConsole, type RunningConsole } from './support/console.js';
import { FEED } from './support/mqtt.js';
import { startSmtp } from './support/smtp.js';

/**
 * A work order from raise to evaluation (issue 31 "How we will check"; docs/workorders.md): the
 * demo customer raises one on Test Fridge's sensor from its entry point, in English; the platform
 * administrator accepts it, records the work and marks it done, in Chinese; the customer confirms
 * and rates it. Each side's mail reaches a real SMTP server. Then a query code of the same sensor,
 * opened without a login on a phone. Screenshots of every new page in both languages, 1440 and
 * 390 px wide, into docs/screenshots/.
 */
const DOCS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docs/screenshots');
let console_: RunningConsole;
let browser: Browser;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let demo: Page;
let admin: Page;
let orderId: number;

async function signIn(account: string, password: string, lang: 'en-US' | 'zh-CN', width = 1440): Promise<Page> {
  const context: BrowserContext = await browser.newContext({ viewport: { width, height: width > 500 ? 900 : 844 }, locale: lang });
  await context.addCookies([{ name: 'lang', value: lang, url: console_.url }]);
  const p = await context.newPage();
  await p.goto(`${console_.url}/login`);
  await p.locator('input[autocomplete=username]').fill(account);
  await p.locator('input[autocomplete=current-password]').fill(password);
  await p.locator('button[type=submit]').click();
  await p.waitForURL(/\/home/);
  return p;
}

async function api(p: Page, method: 'GET' | 'POST', url: string, data?: unknown) {
  const body = (await (await p.request.fetch(`${console_.url}${url}`, { method, data })).json()) as { state: { code: number }; result: any };
  expect(body.state.code).toBe(200000);
  return body.result;
}

/** A picture for the docs, once the page is still (no toast, no pointer over a row). */
async function docShot(p: Page, name: string) {
  await p.locator('.ant-message-notice').waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
  await p.mouse.move(0, 0);
  await mkdir(DOCS, { recursive: true });
  await p.screenshot({ path: path.join(DOCS, `${name}.png`) });
}

/** Takes a step from the open drawer: its button, then the dialog's OK (with a note when given). */
async function step(p: Page, button: string | RegExp, note?: string) {
  await p.locator('[data-testid=work-order-steps]').getByRole('button', { name: button }).click();
  const dialog = p.locator('.ant-modal-wrap:visible');
  if (note) await dialog.locator('textarea').fill(note);
  await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
  await dialog.waitFor({ state: 'hidden' });
}

beforeAll(async () => {
  smtp = await startSmtp();
  console_ = await startConsole({ SIMULATOR: '0', SMTP_URL: smtp.url });
  browser = await launch();
  demo = await signIn('demo', 'demo123', 'en-US');
  admin = await signIn('admin', 'admin123', 'zh-CN');
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await console_?.stop();
  await smtp?.stop();
});

describe('a work order from raise to evaluation', () => {
  it('the customer raises one on a sensor from its row; the platform hears of it by mail', async () => {
    // The sensor row's entry point (its actions menu) opens the work orders with the sensor prefilled.
    const [sensor] = (await api(demo, 'GET', `/service/sensor/page?iDisplayStart=0&iDisplayLength=15&devNo=${FEED.dev}`)).rows;
    await demo.goto(`${console_.url}/order/workOrder?raise=sensor:${sensor.id}&name=${FEED.dev}`);
    await demo.waitForURL(/\/order\/workOrder\?raise=sensor:/);
    const dialog = demo.locator('.ant-modal-wrap:visible');
    await dialog.locator('textarea').fill('Test Fridge sensor reads 3 °C above the reference thermometer');
    await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
    await demo.locator('.ant-drawer-title', { hasText: 'Work order #' }).waitFor();
    orderId = Number((await demo.locator('.ant-drawer-title').innerText()).match(/#(\d+)/)![1]);
    await expect.poll(() => smtp.mails.find((m) => m.to.includes('admin@example.com') && m.subject.includes(`#${orderId}`)), { timeout: 30_000 }).toBeTruthy();
    await docShot(demo, 'work-order-detail-en-US');
  }, 90_000);

  it('the platform accepts it, records the work and marks it done; the customer is told', async () => {
    await admin.goto(`${console_.url}/order/workOrder`);
    await admin.locator('tr', { hasText: 'Test Fridge' }).first().waitFor();
    await docShot(admin, 'work-orders-zh-CN');
    await admin.goto(`${console_.url}/order/workOrder?id=${orderId}`);
    await step(admin, /^受\s?理$/);
    await step(admin, '记录处理', '更换了传感器探头');
    await step(admin, '标记完成', '已与参考温度计比对，偏差 0.2 °C');
    await expect.poll(() => admin.locator('.ant-drawer .ant-tag').first().innerText()).toBe('已完成待确认');
    await docShot(admin, 'work-order-detail-zh-CN');
    await expect.poll(() => smtp.mails.filter((m) => m.to.includes('demo@example.com') && m.subject.includes(`#${orderId}`)).length, { timeout: 30_000 }).toBe(3);
  }, 90_000);

  it('the customer confirms and rates it; every step is listed with who took it', async () => {
    await demo.goto(`${console_.url}/order/workOrder?id=${orderId}`);
    await step(demo, 'Confirm done');
    await demo.locator('[data-testid=work-order-steps]').getByRole('button', { name: 'Evaluate' }).click();
    const dialog = demo.locator('.ant-modal-wrap:visible');
    await dialog.locator('.ant-rate-star').nth(3).click();
    await dialog.locator('textarea').fill('Quick and careful');
    await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
    await dialog.waitFor({ state: 'hidden' });
    const detail = await api(demo, 'GET', `/service/workOrder/detail?id=${orderId}`);
    expect(detail).toMatchObject({ status: 5, rating: 4 });
    expect(detail.steps.map((s: { action: string }) => s.action)).toEqual(['raise', 'accept', 'record', 'done', 'confirm', 'evaluate']);
    await expect.poll(() => smtp.mails.filter((m) => m.to.includes('admin@example.com') && m.subject.includes(`#${orderId}`)).length, { timeout: 30_000 }).toBe(3);
    await demo.goto(`${console_.url}/order/workOrder`);
    await demo.locator('tr', { hasText: 'Evaluated' }).first().waitFor();
    await docShot(demo, 'work-orders-en-US');
    await demo.goto(`${console_.url}/home`);
    await demo.locator('[data-testid=home-work-orders]').scrollIntoViewIfNeeded();
    await docShot(demo, 'home-work-orders-en-US');
  }, 90_000);
});

describe('query codes', () => {
  it('a code for the sensor opens without a login on a phone, in both languages; the page lists it', async () => {
    const [sensor] = (await api(demo, 'GET', `/service/sensor/page?iDisplayStart=0&iDisplayLength=15&devNo=${FEED.dev}`)).rows;
    await fetch(`${console_.url}/ingest/v1/${FEED.sn}/data`, {
      method: 'POST',
      headers: { authorization: `Bearer ${FEED.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ readings: Array.from({ length: 12 }, (_, i) => ({ dev: FEED.dev, ts: Date.now() - (12 - i) * 300_000, temp: 4 + (i % 5) * 0.8, hum: 50 })) }),
    });
    const made = await api(demo, 'POST', '/service/find/code/generate', { sensorIds: [sensor.id], startTime: Date.now() - 3_900_000, endTime: Date.now(), note: 'Inspector' });
    for (const lang of ['en-US', 'zh-CN'] as const) {
      const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: lang, isMobile: true });
      await phone.addCookies([{ name: 'lang', value: lang, url: console_.url }]);
      const p = await phone.newPage();
      await p.goto(made.url.replace(/^https?:\/\/[^/]+/, console_.url));
      await p.locator('[data-testid=query-code-page] .ant-card').first().waitFor();
      expect(await p.locator('[data-testid=query-code-page]').innerText()).toContain(FEED.dev);
      await docShot(p, `query-code-public-${lang}-mobile`);
      await phone.close();
    }
    await demo.goto(`${console_.url}/code/findCode`);
    await demo.locator('tr', { hasText: 'Inspector' }).waitFor();
    await docShot(demo, 'query-codes-en-US');
    await admin.goto(`${console_.url}/code/findCode`);
    await admin.locator('tr', { hasText: 'Inspector' }).waitFor();
    await docShot(admin, 'query-codes-zh-CN');
    // Revoked, the code answers with why, in the reader's language.
    await api(demo, 'GET', `/service/find/code/page?iDisplayLength=15`);
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
    await phone.addCookies([{ name: 'lang', value: 'en-US', url: console_.url }]);
    const res = await demo.request.fetch(`${console_.url}/service/find/code/revoke?ids=${made.id}`, { method: 'PUT' });
    expect(res.status()).toBe(200);
    const p = await phone.newPage();
    await p.goto(made.url.replace(/^https?:\/\/[^/]+/, console_.url));
    await p.getByText('This query code has been revoked by its owner').waitFor();
    await phone.close();
  }, 120_000);

  it('work orders and query codes at 390 px, in both languages', async () => {
    for (const [account, password, lang] of [['demo', 'demo123', 'en-US'], ['admin', 'admin123', 'zh-CN']] as const) {
      const p = await signIn(account, password, lang, 390);
      await p.goto(`${console_.url}/order/workOrder`);
      await p.locator('.ant-table-row', { hasText: 'Test Fridge' }).first().waitFor();
      await docShot(p, `work-orders-${lang}-mobile`);
      await p.goto(`${console_.url}/code/findCode`);
      await p.locator('.ant-table-row', { hasText: 'Inspector' }).waitFor();
      await docShot(p, `query-codes-${lang}-mobile`);
      await p.context().close();
    }
  }, 120_000);
});
