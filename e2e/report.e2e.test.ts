import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launch } from './support/browser.js';
import { startConsole, type RunningConsole } from './support/console.js';
import { signedIn } from './support/signIn.js';
import { startSmtp } from './support/smtp.js';

/**
 * Reports (issue 30, docs/reports.md) from outside: in Chromium a print group is made on
 * /arch/printer with a carrier named in Chinese, printed, and the PDF the browser downloads holds
 * that name as text (read back with pdf.js); "Send now" of its daily schedule reaches our SMTP
 * sink with the PDF attached. Screenshots of the page in both languages into docs/screenshots/.
 */
const docs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docs/screenshots');
const CN_CARRIER = '疫苗冷藏柜甲';
const GROUP = '冷链日报';
let console_: RunningConsole;
let browser: Browser;
let smtp: Awaited<ReturnType<typeof startSmtp>>;

/** Every page's text of a PDF. */
async function pdfText(data: Uint8Array): Promise<string> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = getDocument({ data, useSystemFonts: false, disableFontFace: true, verbosity: 0 });
  const doc = await task.promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(content.items.map((x) => ('str' in x ? x.str : '')).join(' '));
  }
  await task.destroy();
  return pages.join('\n');
}

/** The PDF attached to a raw multipart mail. */
function pdfOf(raw: string): Buffer | null {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  if (!boundary) return null;
  for (const part of raw.split(`--${boundary}`)) {
    const [head, ...rest] = part.split(/\r?\n\r?\n/);
    if (/content-type:\s*application\/pdf/i.test(head)) return Buffer.from(rest.join('\n\n').replace(/\s+/g, ''), 'base64');
  }
  return null;
}

beforeAll(async () => {
  smtp = await startSmtp();
  console_ = await startConsole({ SIMULATOR: '0', SMTP_URL: smtp.url });
  browser = await launch();
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await console_?.stop();
  await smtp?.stop();
});

/** Calls the API with the page's session. */
async function api(page: Page, method: 'GET' | 'POST', url: string, data?: unknown) {
  const res = await page.request.fetch(`${console_.url}${url}`, { method, ...(data === undefined ? {} : { data }) });
  const body = await res.json();
  expect(body.state.code, `${method} ${url}: ${JSON.stringify(body)}`).toBe(200000);
  return body.result;
}

describe('reports', () => {
  let page: Page;

  it('makes a print group in Chromium, prints it, and the downloaded PDF holds the carrier\'s Chinese name', async () => {
    const s = await signedIn(browser, console_.url, 'zh-CN', { width: 1440, height: 900 });
    page = s.page;
    // A carrier named in Chinese beside the demo's Vaccine Fridge, and a recipient with an e-mail address.
    const carriers = await api(page, 'GET', '/service/carrier/page?iDisplayLength=100');
    const vaccine = carriers.rows.find((r: { name: string }) => r.name === 'Vaccine Fridge');
    await api(page, 'POST', '/service/carrier/add', { name: CN_CARRIER, type: 2, sceneId: vaccine.sceneId, tempMin: 2, tempMax: 8 });
    await api(page, 'POST', '/service/contact/add', { name: '质量负责人', phone: '13800000009', email: 'qa@cold.test', groupName: 'qa' });

    await page.goto(`${console_.url}/arch/printer`);
    await page.getByRole('button', { name: '添加分组' }).click();
    const dialog = page.locator('.ant-modal-wrap:visible');
    await dialog.locator('#printGroupForm_groupName').fill(GROUP);
    for (const name of [CN_CARRIER, 'Vaccine Fridge']) {
      await dialog.locator('#printGroupForm_carrierIds').click();
      await dialog.locator('#printGroupForm_carrierIds').fill(name);
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: name }).first().click();
    }
    await dialog.locator('#printGroupForm_groupName').click();
    await dialog.locator('#printGroupForm_schedule').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '每日' }).first().click();
    await dialog.locator('#printGroupForm_contactIds').click();
    await dialog.locator('#printGroupForm_contactIds').fill('质量');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'qa@cold.test' }).first().click();
    await dialog.locator('#printGroupForm_groupName').click();
    await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
    await expect.poll(() => page.locator('.ant-modal-wrap:visible').count(), { timeout: 20_000 }).toBe(0);
    const row = page.locator('.ant-table-row', { hasText: GROUP });
    await row.waitFor();
    expect(await row.innerText()).toContain(CN_CARRIER);
    await page.screenshot({ path: path.join(docs, 'printer-zh-CN.png') });

    await row.getByText('打印', { exact: true }).click();
    const print = page.locator('.ant-modal-wrap:visible');
    await print.getByText(CN_CARRIER).first().waitFor();
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), print.locator('.ant-modal-footer .ant-btn-primary').click()]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const file = path.join(os.tmpdir(), `cw-report-${Date.now()}.pdf`);
    await download.saveAs(file);
    const pdf = new Uint8Array(await readFile(file));
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-');
    const text = await pdfText(pdf);
    expect(text).toContain(CN_CARRIER);
    expect(text).toContain(GROUP);
    expect(text).toContain('Demo Hospital');
    expect(text).toMatch(/第 1 页，共 \d+ 页/);

    // The report is kept: the Reports tab lists it.
    await page.getByRole('tab', { name: '报告', exact: true }).click();
    await page.locator('.ant-table-row', { hasText: GROUP }).first().waitFor();
    await page.locator('.ant-spin-blur').waitFor({ state: 'detached' });
    await page.waitForTimeout(500); // the table's fade-in
    await page.screenshot({ path: path.join(docs, 'printer-reports-zh-CN.png') });
  }, 240_000);

  it("sends the group's daily report now: it reaches the SMTP sink with its PDF attached", async () => {
    await page.getByRole('tab', { name: '打印组', exact: true }).click();
    const row = page.locator('.ant-table-row', { hasText: GROUP });
    await row.getByText('立即发送', { exact: true }).click();
    await page.locator('.ant-popover:visible .ant-btn-primary').click();
    await expect.poll(() => smtp.mails.filter((m) => m.to.includes('qa@cold.test')).length, { timeout: 90_000, interval: 1000 }).toBeGreaterThan(0);
    const mail = smtp.mails.find((m) => m.to.includes('qa@cold.test'))!;
    const pdf = pdfOf(mail.raw);
    expect(pdf, 'the mail carries a PDF').not.toBeNull();
    const text = await pdfText(new Uint8Array(pdf!));
    expect(text).toContain(CN_CARRIER);
    expect(text).toContain('日报');
  }, 180_000);

  it('shows the page in English', async () => {
    const s = await signedIn(browser, console_.url, 'en-US', { width: 1440, height: 900 });
    await s.page.goto(`${console_.url}/arch/printer`);
    await s.page.locator('.ant-table-row', { hasText: GROUP }).waitFor();
    await s.page.getByText('Daily', { exact: true }).first().waitFor();
    await s.page.screenshot({ path: path.join(docs, 'printer-en-US.png') });
    await s.ctx.close();
  }, 120_000);
});
