import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { ADMIN } from './support/signIn.js';
import { consoleAndBrowser, DOCS_SCREENSHOTS, LANGS } from './support/session.js';

/**
 * Two dialogs a newcomer meets as the platform administrator, looked at in the four languages at
 * 1440 and 390 px (docs/screenshots/): the places of /transHistory with the dialog that adds one
 * (places-<width>-<lang>.png), and the guide admin tab of /sys/online_help
 * (guide-admin-<width>-<lang>.png).
 */
const demo = consoleAndBrowser();

describe('places and guide admin', () => {
  for (const lang of LANGS) {
    for (const width of [1440, 390]) {
      it(`in ${lang} at ${width} px`, async () => {
        const page = await demo.signIn(lang, width, ADMIN);
        await page.goto(`${demo.url}/transHistory`);
        const places = page.getByTestId('places');
        await places.locator('.ant-table-row, .ant-card .ant-card').first().waitFor({ timeout: 60_000 });
        await places.locator('.ant-card-extra button').first().click();
        const dialog = page.locator('.ant-modal-wrap:visible .ant-modal');
        await dialog.waitFor();
        await page.waitForTimeout(400);
        await page.screenshot({ path: path.join(DOCS_SCREENSHOTS, `places-${width}-${lang}.png`) });
        // An empty dialog refused: every required field says so in the page's language.
        await dialog.locator('.ant-modal-footer button.ant-btn-primary').click();
        await expect.poll(() => dialog.locator('.ant-form-item-explain-error').count()).toBeGreaterThan(2);
        await page.keyboard.press('Escape');

        await page.goto(`${demo.url}/sys/online_help?tab=manage`);
        await page.getByTestId('guide-admin').locator('.ant-table-row').first().waitFor({ timeout: 60_000 });
        await page.waitForTimeout(400);
        await page.screenshot({ path: path.join(DOCS_SCREENSHOTS, `guide-admin-${width}-${lang}.png`) });
        await page.close();
      }, 120_000);
    }
  }
});
