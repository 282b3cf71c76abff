import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { launch } from './support/browser.js';
import { startConsole, type RunningConsole } from './support/console.js';
import { signedIn } from './support/signIn.js';

/**
 * Online help as the demo customer meets it (docs/help.md): /sys/online_help lists the guide's
 * articles and finds them by any word; the header's help button opens the guide in a window of
 * its own on the article of the page the user is on; the same in Chinese on a phone.
 * Screenshots into docs/screenshots/.
 */
const DOCS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docs/screenshots');
let console_: RunningConsole;
let browser: Browser;

beforeAll(async () => {
  console_ = await startConsole({ SIMULATOR: '0' });
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  await console_?.stop();
});

describe('online help', () => {
  it('lists the articles, finds one by its words and reads it', async () => {
    const { ctx, page } = await signedIn(browser, console_.url, 'en-US');
    await page.goto(`${console_.url}/sys/online_help`);
    const list = page.locator('.cw-help-list');
    await list.getByText('Exception records').waitFor();
    expect(await list.locator('li').count()).toBeGreaterThanOrEqual(25);
    await page.getByPlaceholder('Search the help').fill('own password');
    await expect.poll(() => list.locator('li').allInnerTexts()).toEqual(['Handling and signatures']);
    await list.getByText('Handling and signatures').click();
    await page.locator('.cw-help-article[data-code="ex.handling"]').getByText('sign with your own password', { exact: false }).waitFor();
    await page.getByPlaceholder('Search the help').fill('zzzz');
    await page.getByText('No article holds these words').waitFor();
    await page.getByPlaceholder('Search the help').fill('');
    await page.screenshot({ path: path.join(DOCS, 'online-help-en-US.png') });
    await ctx.close();
  }, 120_000);

  it("the header's help button opens the guide in a window on the page's own article", async () => {
    const { ctx, page } = await signedIn(browser, console_.url, 'en-US');
    await page.goto(`${console_.url}/abnormal/dataex`);
    const [popup] = await Promise.all([ctx.waitForEvent('page'), page.getByTestId('help-button').click()]);
    await popup.waitForURL(/\/guide\?path=%2Fabnormal%2Fdataex/);
    await popup.locator('.cw-help-article[data-code="ex.records"]').waitFor();
    expect(await popup.locator('.cw-shell').count()).toBe(0);
    await popup.setViewportSize({ width: 520, height: 760 });
    await popup.screenshot({ path: path.join(DOCS, 'guide-popup-en-US.png') });
    await ctx.close();
  }, 120_000);

  it('reads in Chinese on a phone: the list, then the article with a way back', async () => {
    const { ctx, page } = await signedIn(browser, console_.url, 'zh-CN', { width: 390, height: 844 });
    await page.goto(`${console_.url}/sys/online_help`);
    const list = page.locator('.cw-help-list');
    await list.getByText('异常记录').waitFor();
    await page.screenshot({ path: path.join(DOCS, 'online-help-zh-CN-390.png') });
    await list.getByText('报警触发器').click();
    await page.locator('.cw-help-article[data-code="app.triggers"]').getByText('未绑定触发器的载体', { exact: false }).waitFor();
    await page.screenshot({ path: path.join(DOCS, 'online-help-article-zh-CN-390.png') });
    await page.getByRole('button', { name: /全部文章/ }).click();
    await list.getByText('异常记录').waitFor();
    await ctx.close();
  }, 120_000);
});
