import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { launch } from './support/browser.js';
import { startConsole, type RunningConsole } from './support/console.js';
import { ADMIN, signedInByApi } from './support/signIn.js';

/**
 * Two dialogs a newcomer meets as the platform administrator, looked at in the four languages at
 * 1440 and 390 px (docs/screenshots/): the places of /transHistory with the dialog that adds one
 * (places-<width>-<lang>.png), and the guide admin tab of /sys/online_help
 * (guide-admin-<width>-<lang>.png).
 */
const DOCS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docs/screenshots');
const LANGS = ['zh-CN', 'en-US', 'ja-JP', 'es-ES'] as const;
let console_: RunningConsole;
let browser: Browser;

beforeAll(async () => {
  console_ = await startConsole({ SIMULATOR: '0' });
  browser = await launch();
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await console_?.stop();
});

describe('places and guide admin', () => {
  for (const lang of LANGS) {
    for (const width of [1440, 390]) {
      it(`in ${lang} at ${width} px`, async () => {
        const page = await signedInByApi(browser, console_.url, lang, width, ADMIN);
        await page.goto(`${console_.url}/transHistory`);
        const places = page.getByTestId('places');
        await places.locator('.ant-table-row, .ant-card .ant-card').first().waitFor({ timeout: 60_000 });
        await places.locator('.ant-card-extra button').first().click();
        const dialog = page.locator('.ant-modal-wrap:visible .ant-modal');
        await dialog.waitFor();
        await page.waitForTimeout(400);
        await page.screenshot({ path: path.join(DOCS, `places-${width}-${lang}.png`) });
        // An empty dialog refused: every required field says so in the page's language.
        await dialog.locator('.ant-modal-footer button.ant-btn-primary').click();
        await expect.poll(() => dialog.locator('.ant-form-item-explain-error').count()).toBeGreaterThan(2);
        await page.keyboard.press('Escape');

        await page.goto(`${console_.url}/sys/online_help?tab=manage`);
        await page.getByTestId('guide-admin').locator('.ant-table-row').first().waitFor({ timeout: 60_000 });
        await page.waitForTimeout(400);
        await page.screenshot({ path: path.join(DOCS, `guide-admin-${width}-${lang}.png`) });
        await page.close();
      }, 120_000);
    }
  }
});
