import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { wholePage } from './support/browser.js';
import { consoleAndBrowser, DOCS_SCREENSHOTS, LANGS } from './support/session.js';

/**
 * The data report (spec §2 /count/dataReport; docs/statistics.md "The data report") as the demo
 * administrator opens it: /count leads there, the demo's carriers are in it with their figures,
 * a carrier opens its statistics; in the four languages at 1440 and 390 px into docs/screenshots/
 * (data-report-<width>-<lang>.png).
 */
const demo = consoleAndBrowser();

describe('data report', () => {
  it("/count leads to the data report; it holds the demo's carriers, each opening its statistics", async () => {
    const page = await demo.signIn('en-US', 1440);
    await page.goto(`${demo.url}/count`);
    await page.waitForURL(/\/count\/dataReport/);
    await page.getByTestId('data-report').waitFor({ timeout: 60_000 });
    const rows = page.locator('[data-testid=report-carriers] tbody tr.ant-table-row');
    expect(await rows.count()).toBeGreaterThan(0);
    expect(await page.getByTestId('report-pass-rate').textContent()).toMatch(/%/);
    // The report's carriers are the organisation's: a type narrows them.
    const all = await page.request.get(`${demo.url}/service/count/dataReport?startTime=${Date.now() - 7 * 86_400_000}&endTime=${Date.now()}`).then((r) => r.json());
    expect(all.result.summary.carriers).toBeGreaterThan(1);
    const first = (await rows.first().locator('a').first().textContent())!;
    await rows.first().locator('a').first().click();
    await page.waitForURL(/\/count\/statistic\?carrierIds=/);
    await expect.poll(() => page.locator('.ant-table-row').first().textContent(), { timeout: 30_000 }).toContain(first);
    await page.close();
  }, 180_000);

  for (const lang of LANGS) {
    for (const width of [1440, 390]) {
      it(`in ${lang} at ${width} px`, async () => {
        const page = await demo.signIn(lang, width);
        await page.goto(`${demo.url}/count/dataReport`);
        await page.getByTestId('data-report').waitFor({ timeout: 60_000 });
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
        await page.waitForTimeout(500);
        // A phone's report is a long scroll: its first screen, as a person on call sees it.
        if (width < 576) await page.screenshot({ path: path.join(DOCS_SCREENSHOTS, `data-report-${width}-${lang}.png`) });
        else await wholePage(page, path.join(DOCS_SCREENSHOTS, `data-report-${width}-${lang}.png`));
        await page.close();
      }, 120_000);
    }
  }
});
