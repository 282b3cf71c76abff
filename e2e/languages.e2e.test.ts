/**
 * Japanese and Spanish (docs/architecture.md, "Languages"): the login and home pages at 1440 px in
 * each, into docs/screenshots/, and the login route loading the chosen language's Ant Design
 * locale only, not the other languages'.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { startConsole, type RunningConsole } from './support/console.js';
import { launch } from './support/browser.js';

let console_: RunningConsole;
let browser: Browser;
const out = path.resolve(__dirname, '../docs/screenshots');

beforeAll(async () => {
  console_ = await startConsole({ SIMULATOR: '0' });
  browser = await launch();
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await console_?.stop();
});

describe('languages', () => {
  for (const [lang, account, password, menuHome] of [
    ['ja-JP', 'アカウント', 'パスワード', 'ホーム'],
    ['es-ES', 'Cuenta', 'Contraseña', 'Inicio'],
  ] as const) {
    it(`login and home in ${lang} at 1440 px`, async () => {
      const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: lang });
      await ctx.addCookies([{ name: 'lang', value: lang, url: console_.url }]);
      const page = await ctx.newPage();
      const scripts: string[] = [];
      page.on('request', (r) => { if (r.resourceType() === 'script') scripts.push(r.url()); });
      await page.goto(`${console_.url}/login`);
      await page.getByPlaceholder(account).waitFor();
      await page.waitForTimeout(500);
      await page.screenshot({ path: path.join(out, `login-${lang}.png`) });
      const antd = scripts.map((s) => /\/(zh_CN|ja_JP|es_ES)-[^/]+\.js$/.exec(s)?.[1]).filter(Boolean);
      expect(antd).toEqual([lang.replace('-', '_')]);
      await page.getByPlaceholder(account).fill('demo');
      await page.getByPlaceholder(password).fill('demo123');
      await page.locator('button[type=submit]').click();
      await page.waitForURL(/\/home/);
      await page.getByRole('menuitem', { name: menuHome }).first().waitFor();
      await page.waitForTimeout(2500);
      await page.screenshot({ path: path.join(out, `home-${lang}.png`) });
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
      await ctx.close();
    }, 120_000);
  }
});
