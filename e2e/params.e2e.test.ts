import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN } from './support/signIn.js';
import { consoleAndBrowser, DOCS_SCREENSHOTS, LANGS } from './support/session.js';

/**
 * /sys/paramsetup (spec §3 server-side settings) as the platform administrator, in the four
 * languages at 1440 and 390 px (docs/screenshots/params-<width>-<lang>.png): the new settings are
 * there with their units; a value out of range is refused in the page's language with the
 * server's own message, and the page downloads that language's server messages only
 * (docs/architecture.md "Languages").
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const message = (lang: string) => (JSON.parse(readFileSync(path.join(ROOT, `packages/contract/locales/${lang}/errors.json`), 'utf8')) as { errors: { param: { labelsPerPage: string } } }).errors.param.labelsPerPage;
const demo = consoleAndBrowser();

describe('parameters', () => {
  for (const lang of LANGS) {
    for (const width of [1440, 390]) {
      it(`in ${lang} at ${width} px: the new settings, a refusal in the page's language, that language's messages only`, async () => {
        const page = await demo.signIn(lang, width, ADMIN);
        const scripts: Promise<string>[] = [];
        page.on('response', (r) => {
          if (r.request().resourceType() === 'script') scripts.push(r.text().catch(() => ''));
        });
        await page.goto(`${demo.url}/sys/paramsetup`);
        const labels = page.getByTestId('param-labels_per_page');
        await labels.waitFor({ timeout: 60_000 });
        for (const k of ['sensor_interval_seconds', 'display_interval_seconds', 'relay_interval_seconds']) await page.getByTestId(`param-${k}`).waitFor();
        await labels.fill('41');
        await expect.poll(() => page.getByTestId('param-labels_per_page-hint').textContent()).toBe(message(lang));
        expect(await page.getByTestId('param-save').isDisabled()).toBe(true);
        await page.getByTestId('param-sensor_interval_seconds').scrollIntoViewIfNeeded();
        await page.waitForTimeout(400);
        await page.screenshot({ path: path.join(DOCS_SCREENSHOTS, `params-${width}-${lang}.png`) });
        const loaded = (await Promise.all(scripts)).join('\n');
        for (const other of LANGS) expect(loaded.includes(message(other)), other).toBe(other === lang);
        await page.close();
      }, 120_000);
    }
  }
});
