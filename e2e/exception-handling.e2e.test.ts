import { deflateSync, crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, shot } from './support/browser.js';
import { startConsole, type RunningConsole } from './support/console.js';
import { signedIn, type Lang } from './support/signIn.js';

/**
 * Signed handling of an exception in a real browser (docs/alarms.md "Handling and signatures"):
 * the demo administrator handles one of the demo's exceptions, is asked for the password (a
 * wrong one is refused and nothing is recorded), sees the signer, time and meaning on the
 * detail with the signature image, then closes it with a second signature. The reasons page
 * and the /exDetail link opened without a session; every screen in both languages.
 */
let console_: RunningConsole;
let browser: Browser;

/** A small PNG of a pen stroke, the demo administrator's uploaded signature. */
function signaturePng(): Buffer {
  const w = 240;
  const h = 72;
  const px = Buffer.alloc((w * 3 + 1) * h, 255);
  for (let y = 0; y < h; y++) px[y * (w * 3 + 1)] = 0;
  const dot = (x: number, y: number) => {
    for (let dx = -1; dx <= 1; dx++)
      for (let dy = -1; dy <= 1; dy++) {
        const X = Math.round(x + dx);
        const Y = Math.round(y + dy);
        if (X < 0 || Y < 0 || X >= w || Y >= h) continue;
        const o = Y * (w * 3 + 1) + 1 + X * 3;
        px[o] = 20;
        px[o + 1] = 40;
        px[o + 2] = 120;
      }
  };
  for (let x = 15; x < 225; x += 0.5) dot(x, 36 + 18 * Math.sin(x / 11) * Math.cos(x / 37));
  for (let x = 40; x < 200; x += 0.5) dot(x, 60 - (x - 40) / 16);
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(px)), chunk('IEND', Buffer.alloc(0))]);
}

async function api(page: Page, method: 'GET' | 'PUT' | 'POST', path: string, data?: unknown) {
  const res = await page.request.fetch(`${console_.url}${path}`, { method, data });
  const body = (await res.json()) as { state: { code: number; msg: string }; result: any };
  if (body.state.code !== 200000) throw new Error(`${method} ${path}: ${JSON.stringify(body.state)}`);
  return body.result;
}

/** A signed-in page of the demo administrator in `lang`. */
const signedInAs = (lang: Lang) => signedIn(browser, console_.url, lang);

const modal = (page: Page) => page.locator('.ant-modal-wrap:visible .ant-modal');
const rowOf = (page: Page, id: number) => page.locator(`tr[data-row-key="${id}"]`);

/** Picks an option of the select labelled `label` in the open dialog. */
async function pick(page: Page, label: string, option: string) {
  await modal(page).getByLabel(label).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
}

let demoName: string;
let pending: { id: number }[];

beforeAll(async () => {
  console_ = await startConsole({ SIMULATOR: '0' });
  browser = await launch();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await console_?.stop();
});

describe('signed exception handling in the browser', () => {
  let en: Page;
  let handled: number;

  it('lists the demo\'s exceptions with row selection and the bulk actions (en-US)', async () => {
    ({ page: en } = await signedInAs('en-US'));
    // The signer's full name is what a signed step shows (21 CFR Part 11 §11.50): give the administrator one.
    const me = (await api(en, 'GET', '/service/mine/info')).user;
    demoName = 'Chen Jing';
    await api(en, 'PUT', '/service/mine/personal', { name: demoName, gender: me.gender ?? 1, mobile: me.mobile ?? '', email: me.email ?? '' });
    await en.request.post(`${console_.url}/service/share/signature/save`, { multipart: { file: { name: 'signature.png', mimeType: 'image/png', buffer: signaturePng() } } });
    // The demo's planned excursions are filed by the alarm evaluator shortly after the start.
    await expect
      .poll(async () => (pending = (await api(en, 'GET', '/service/exception/page?iDisplayLength=50&status=0&ongoing=false')).rows).length, { timeout: 60_000 })
      .toBeGreaterThanOrEqual(2);
    await en.goto(`${console_.url}/abnormal/dataex`);
    await rowOf(en, pending[0].id).waitFor();
    await en.getByRole('button', { name: /Handle selected/ }).waitFor();
    await rowOf(en, pending[0].id).locator('.ant-checkbox-input').check();
    await rowOf(en, pending[1].id).locator('.ant-checkbox-input').check();
    await en.getByRole('button', { name: 'Handle selected (2)' }).waitFor();
    await shot(en, 'exception-list-en');
    await rowOf(en, pending[1].id).locator('.ant-checkbox-input').uncheck();
  });

  it('handles one exception: the password is asked for, a wrong one is refused and records nothing', async () => {
    handled = pending[0].id;
    await rowOf(en, handled).getByRole('button', { name: 'Handle', exact: true }).click();
    const dialog = modal(en);
    await dialog.getByText('Electronic signature').waitFor();
    await pick(en, 'Reason', 'Door left open');
    await dialog.getByLabel('Measures taken').fill('Door closed; vaccines checked at 5.2 °C and kept');
    await dialog.getByLabel('Confirmed abnormal').check();
    await dialog.getByLabel('Comment').fill('Night shift informed');
    await dialog.getByLabel('Account').fill('demo');
    await dialog.getByLabel('Password').fill('not-the-password');
    await shot(en, 'exception-handle-dialog-en');
    await dialog.getByRole('button', { name: 'Sign and save' }).click();
    await dialog.getByText(/The account or password of the signature is wrong/).waitFor();
    expect((await api(en, 'GET', `/service/exception/detail?id=${handled}`)).steps).toEqual([]);

    // A loading button ignores a click: under load the refused try's button may still spin (a CI run clicked it so).
    const sign = dialog.getByRole('button', { name: 'Sign and save' });
    await expect.poll(async () => (await sign.getAttribute('class')) ?? '').not.toMatch(/ant-btn-loading/);
    await dialog.getByLabel('Password').fill('demo123');
    await sign.click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => rowOf(en, handled).innerText()).toContain('Processed');
  });

  it('shows the signer, the time in the customer\'s zone, the meaning and the signature image on the detail, then closes it signed', async () => {
    await rowOf(en, handled).getByRole('button', { name: 'Detail' }).click();
    const drawer = en.locator('.ant-drawer-section');
    const step = drawer.locator('[data-testid="handling-step"]');
    await step.first().waitFor();
    expect(await step.first().locator('[data-testid="signer"]').innerText()).toBe(demoName);
    expect(await step.first().locator('[data-testid="meaning"]').innerText()).toBe('Reviewed');
    expect(await step.first().locator('[data-testid="signed-at"]').innerText()).toMatch(/^Signed \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(UTC\+08:00\)$/);
    await step.first().locator('[data-testid="signature-image"]').waitFor();
    await shot(en, 'exception-detail-en');

    await drawer.locator('.ant-drawer-body').getByRole('button', { name: 'Close' }).click();
    const dialog = modal(en);
    await dialog.getByText('Close 1 exception').waitFor();
    await dialog.getByLabel('Account').fill('demo');
    await dialog.getByLabel('Password').fill('demo123');
    await dialog.getByRole('button', { name: 'Sign and close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => step.count()).toBe(2);
    expect(await step.nth(1).getAttribute('data-action')).toBe('close');
    expect(await step.nth(1).locator('[data-testid="meaning"]').innerText()).toBe('Closed');
    await en.locator('.ant-message-notice').first().waitFor({ state: 'detached' });
    await shot(en, 'exception-detail-signed-en');
    await en.keyboard.press('Escape');
    await expect.poll(() => rowOf(en, handled).innerText()).toContain('Closed');
  });

  it('shows the reasons page', async () => {
    await en.goto(`${console_.url}/abnormal/abnormalcause`);
    await en.getByText('Door left open').first().waitFor();
    await en.locator('.ant-table-wrapper .ant-spin-spinning').waitFor({ state: 'detached' });
    await shot(en, 'exception-reasons-en');
  });

  it('opens the exception through its /exDetail link without a session; an altered link says so', async () => {
    const { url } = await api(en, 'GET', `/service/exception/link?id=${handled}`);
    const anon = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    await anon.addCookies([{ name: 'lang', value: 'en-US', url: console_.url }]);
    const page = await anon.newPage();
    await page.goto(url);
    await page.locator('[data-testid="handling-step"]').nth(1).waitFor();
    expect(new URL(page.url()).pathname).toBe('/exDetail');
    expect(await page.locator('[data-testid="signer"]').first().innerText()).toBe(demoName);
    await shot(page, 'exception-exdetail-en');
    await page.goto(url.replace(/\.[\w-]+$/, '.AAAA'));
    await page.getByText('This exception link is not valid').waitFor();
    expect(new URL(page.url()).pathname).toBe('/exDetail');
    await anon.close();
  });

  it('shows the same screens in Chinese', async () => {
    const { page: zh, ctx } = await signedInAs('zh-CN');
    await zh.goto(`${console_.url}/abnormal/dataex`);
    await rowOf(zh, pending[1].id).waitFor();
    await rowOf(zh, pending[1].id).locator('.ant-checkbox-input').check();
    await zh.getByRole('button', { name: '批量处理（1）' }).waitFor();
    await shot(zh, 'exception-list-zh');
    await rowOf(zh, pending[1].id).getByRole('button', { name: '处理', exact: true }).click();
    const dialog = modal(zh);
    await dialog.getByText('电子签名').waitFor();
    await pick(zh, '异常原因', '除霜');
    await dialog.getByLabel('处理措施').fill('等待除霜结束，温度已恢复');
    await dialog.getByLabel('疑似异常').check();
    await dialog.getByLabel('账号').fill('demo');
    await dialog.getByLabel('密码').fill('demo123');
    await shot(zh, 'exception-handle-dialog-zh');
    await dialog.getByRole('button', { name: '签名并保存' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await rowOf(zh, handled).getByRole('button', { name: '详情' }).click();
    await zh.locator('.ant-drawer-section [data-testid="handling-step"]').nth(1).waitFor();
    await zh.locator('.ant-message-notice').first().waitFor({ state: 'detached' });
    await shot(zh, 'exception-detail-signed-zh');
    await zh.keyboard.press('Escape');
    await zh.goto(`${console_.url}/abnormal/abnormalcause`);
    await zh.getByText('门未关好').first().waitFor();
    await zh.locator('.ant-table-wrapper .ant-spin-spinning').waitFor({ state: 'detached' });
    await shot(zh, 'exception-reasons-zh');
    const { url } = await api(zh, 'GET', `/service/exception/link?id=${pending[1].id}`);
    const anon = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'zh-CN' });
    await anon.addCookies([{ name: 'lang', value: 'zh-CN', url: console_.url }]);
    const page = await anon.newPage();
    await page.goto(url);
    await page.locator('[data-testid="handling-step"]').first().waitFor();
    await shot(page, 'exception-exdetail-zh');
    await anon.close();
    await ctx.close();
  });
});
