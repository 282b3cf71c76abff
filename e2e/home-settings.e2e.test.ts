import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launch, wholePage } from './support/browser.js';
import { startConsole, type RunningConsole } from './support/console.js';
import { signedIn, type Lang } from './support/signIn.js';

/**
 * Home settings (spec §2 /homepageset; docs/home.md) as the demo administrator uses them: on
 * /homepageset it picks the grid style, switches widgets on (among them the six built for it)
 * and a sensor for "specified sensor records", saves, and finds them on /home with real data.
 * Then each of the five styles with every widget, at 1440 and 390 px, in both languages, into
 * docs/screenshots/ (home-<style>-<width>-<lang>.png, homepageset-<width>-<lang>.png).
 */
const DOCS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docs/screenshots');
const STYLES = ['classic', 'focus', 'grid', 'column', 'wall'] as const;
const NEW_WIDGETS = ['alarm-mode', 'pending-exceptions', 'sensor-records', 'map', 'list-monitor', 'dashboard'];
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

const api = async (p: Page, method: 'GET' | 'PUT', url: string, data?: unknown) => {
  const r = await p.request.fetch(`${console_.url}${url}`, { method, data });
  return (await r.json()) as { state: { code: number; msg: string }; result: any };
};
/** Waits for every widget of the page to have left its loading state (no skeleton left). */
const settled = async (p: Page) => {
  await p.locator('[data-widget]').first().waitFor();
  await expect.poll(() => p.locator('.cw-home .ant-skeleton').count(), { timeout: 30_000 }).toBe(0);
  await p.waitForTimeout(800); // charts draw after their data
};

describe('home settings', () => {
  it('choosing a style and widgets on /homepageset shows them on /home, with real data', async () => {
    const { ctx, page } = await signedIn(browser, console_.url, 'en-US');
    await page.getByTestId('user-menu').click();
    await page.getByText('Home settings').click();
    await page.waitForURL(/\/homepageset/);
    await page.getByTestId('home-style-grid').click();
    for (const w of ['alarmMode', 'pendingExceptions', 'listMonitor', 'sensorRecords']) {
      const row = page.getByTestId(`home-widget-${w}`);
      if (!(await row.getByRole('switch').isChecked())) await row.getByRole('switch').click();
    }
    // The sensor: the first the picker offers.
    await page.getByTestId('home-sensors').click();
    const option = page.locator('.ant-select-item-option').first();
    await option.waitFor();
    const devNo = (await option.innerText()).split(' · ')[0].trim();
    await option.click();
    await page.keyboard.press('Escape');
    await page.getByTestId('home-settings-save').click();
    await page.waitForURL(/\/home$/);
    await expect.poll(() => page.locator('.cw-home').getAttribute('data-style'), { timeout: 20_000 }).toBe('grid');
    await settled(page);
    for (const id of ['widget-alarm-mode', 'widget-pending-exceptions', 'widget-list-monitor', 'widget-sensor-records']) await page.getByTestId(id).waitFor();
    // Real data: the list has the demo's monitoring points, the chosen sensor is charted and listed.
    expect(await page.getByTestId('widget-list-monitor').locator('tbody tr').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('widget-sensor-records').innerText()).toContain(devNo);
    expect(await page.getByTestId('widget-alarm-mode').locator('canvas').count()).toBe(1);
    // Kept on the server: a new session sees the same home.
    const saved = await api(page, 'GET', '/service/mine/homeSetting');
    expect(saved.result).toMatchObject({ style: 'grid', saved: true, sensors: [{ devNo }] });
    await ctx.close();
  }, 180_000);

  it('each style with every widget, at 1440 and 390 px, in both languages', async () => {
    for (const lang of ['en-US', 'zh-CN'] as Lang[]) {
      for (const width of [1440, 390]) {
        const { ctx, page } = await signedIn(browser, console_.url, lang, { width, height: width > 500 ? 900 : 844 });
        const current = (await api(page, 'GET', '/service/mine/homeSetting')).result;
        await page.goto(`${console_.url}/homepageset`);
        await page.getByTestId('home-style-wall').waitFor();
        await page.waitForTimeout(500);
        await wholePage(page, path.join(DOCS, `homepageset-${width}-${lang}.png`));
        for (const style of STYLES) {
          const r = await api(page, 'PUT', '/service/mine/homeSetting', { style, widgets: current.offered, sensors: current.sensors.map((s: { devNo: string }) => s.devNo) });
          expect(r.state.code, JSON.stringify(r)).toBe(200000);
          await page.goto(`${console_.url}/home`);
          await expect.poll(() => page.locator('.cw-home').getAttribute('data-style'), { timeout: 20_000 }).toBe(style);
          await settled(page);
          for (const w of NEW_WIDGETS) await page.getByTestId(`widget-${w}`).waitFor();
          await wholePage(page, path.join(DOCS, `home-${style}-${width}-${lang}.png`));
        }
        await ctx.close();
      }
    }
  }, 600_000);
});
