import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch, shot } from './support/browser.js';
import { startConsole, type RunningConsole } from './support/console.js';

/**
 * The platform's jobs as an administrator sees them: /sys opens /sys/scheduled, every periodic
 * job has run and shows its result, "Run now" runs one; the retention settings on
 * /sys/paramsetup take the contract's rules; long history spans come from the rollups.
 */
let console_: RunningConsole;
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
/** Anything the browser refused under the console's Content-Security-Policy. */
const cspViolations: string[] = [];

/** The table's loading fade (antd dims it to half while fetching, then fades back) is over. */
const settled = (p: Page) =>
  p.waitForFunction(() => Array.from(document.querySelectorAll('.ant-spin-container')).every((e) => getComputedStyle(e).opacity === '1'));

async function call(method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown) {
  const res = await page.request.fetch(`${console_.url}${path}`, { method, data });
  return (await res.json()) as { state: { code: number; msg: string }; result: any };
}

beforeAll(async () => {
  console_ = await startConsole({ SIMULATOR: '0' });
  browser = await launch();
  ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  await ctx.addCookies([{ name: 'lang', value: 'en-US', url: console_.url }]);
  page = await ctx.newPage();
  page.on('console', (m) => /Content Security Policy/i.test(m.text()) && cspViolations.push(m.text()));
  await page.goto(`${console_.url}/login`);
  await page.getByPlaceholder('Account').fill('admin');
  await page.getByPlaceholder('Password').fill('admin123');
  await page.locator('button[type=submit]').click();
  await page.waitForURL(/\/home/);
});

afterAll(async () => {
  await browser?.close();
  await console_?.stop();
});

describe('scheduled jobs and retention', () => {
  it('/sys opens the scheduled jobs; each has run once the console is up', async () => {
    await page.goto(`${console_.url}/sys`);
    await page.waitForURL(/\/sys\/scheduled/);
    const names = ['Device presence', 'Reading rollups', 'Retention', 'Notice retries', 'Configuration timeout', 'Relay switching', 'Loan returns'];
    for (const name of names) await page.getByText(name, { exact: true }).waitFor();
    // The first runs happen at start: the rollups back-filled the demo history.
    // All but the daily backup, which waits for BACKUP_AT (jobs/backup.ts).
    const notDone = async () => (await call('GET', '/service/scheduled/list')).result.filter((j: any) => j.name !== 'backup' && j.lastState !== 'done').map((j: any) => j.name);
    await expect.poll(notDone, { timeout: 30_000 }).toEqual([]);
    await page.getByRole('button', { name: 'Reload' }).click();
    await page.getByText(/five-minute buckets rolled up/).waitFor();
    await settled(page);
    await shot(page, 'scheduled-en');
  });

  it('"Run now" runs the retention job again and the page shows its new result', async () => {
    const before = (await call('GET', '/service/scheduled/list')).result.find((j: any) => j.name === 'retention').lastRunAt;
    await page.getByTestId('run-retention').click();
    await page.getByText('Queued: it runs within seconds').waitFor();
    await expect.poll(async () => (await call('GET', '/service/scheduled/list')).result.find((j: any) => j.name === 'retention').lastRunAt, { timeout: 15_000 }).toBeGreaterThan(before);
    const log = await call('GET', '/service/syslog/page?iDisplayStart=0&iDisplayLength=5&module=scheduled');
    expect(log.result.rows[0]).toMatchObject({ method: 'run', result: 1 });
  });

  it('the retention settings take their rules: a bad value is refused in the page and by the server', async () => {
    await page.goto(`${console_.url}/sys/paramsetup`);
    const logs = page.getByTestId('param-log_retention_days');
    await logs.waitFor();
    expect(await page.getByTestId('param-gxp').textContent()).toContain('GxP records');
    expect(await page.getByTestId('param-sensor_history_retention_days').inputValue()).toBe('1827');
    await logs.fill('0');
    await page.getByText('Retention must be a whole number of days from 1 to 36500').waitFor();
    expect(await page.getByTestId('param-save').isDisabled()).toBe(true);
    expect((await call('PUT', '/service/param/update', { key: 'log_retention_days', value: '0' })).state.code).toBe(400);
    // Less than 5 years: refused in the page and by the server, naming the rule.
    await logs.fill('365');
    await page.getByText(/GxP records are kept at least 5 years \(1827 days\): China GSP article 42/).waitFor();
    expect(await page.getByTestId('param-save').isDisabled()).toBe(true);
    const refused = await call('PUT', '/service/param/update', { key: 'log_retention_days', value: '365' });
    expect(refused.state.code).toBe(400);
    expect(refused.state.msg).toContain('China GSP article 42');
    await logs.fill('2000');
    await page.getByTestId('param-save').click();
    await page.getByText('Parameters saved').waitFor();
    expect((await call('GET', '/service/share/param')).result.log_retention_days).toBe('2000');
    await shot(page, 'params-en');
  });

  it('a history span of more than a week is answered from the rollups', async () => {
    const sensors = await call('GET', '/service/sensor/page?iDisplayStart=0&iDisplayLength=1');
    const devNo = sensors.result.rows[0].devNo;
    const end = Date.now();
    const h = await call('GET', `/service/share/history?deviceNo=${devNo}&start=${end - 20 * 86_400_000}&end=${end}&maxPoints=500`);
    expect(h.state.code).toBe(200000);
    expect(['5m', '1h']).toContain(h.result.source);
    expect(h.result.total).toBeGreaterThan(0);
    expect(h.result.points.length).toBeLessThanOrEqual(500);
  });

  it('reads in Chinese and on a phone', async () => {
    const zh = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN', storageState: await ctx.storageState() });
    await zh.addCookies([{ name: 'lang', value: 'zh-CN', url: console_.url }]);
    const p = await zh.newPage();
    await p.goto(`${console_.url}/sys/scheduled`);
    await p.getByText('读数汇总', { exact: true }).waitFor();
    await settled(p);
    await shot(p, 'scheduled-zh');
    await p.goto(`${console_.url}/sys/paramsetup`);
    await p.getByText('日志保留').waitFor();
    await shot(p, 'params-zh');
    await zh.close();
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US', storageState: await ctx.storageState(), isMobile: true });
    const m = await phone.newPage();
    await m.goto(`${console_.url}/sys/scheduled`);
    await m.getByText('Reading rollups', { exact: true }).waitFor();
    await settled(m);
    // The menu is folded away on a phone: the page has the whole width.
    expect(await m.locator('.cw-sider').evaluate((el) => el.getBoundingClientRect().width)).toBe(0);
    await shot(m, 'scheduled-390');
    await m.locator('.cw-collapse').click();
    await m.getByText('Parameters', { exact: true }).click();
    await m.waitForURL(/\/sys\/paramsetup/);
    await m.getByTestId('param-log_retention_days').waitFor();
    await shot(m, 'params-390');
    // One tab switcher with the page's name in full; the other open pages in its drop-down.
    await m.locator('.cw-tabs-compact', { hasText: 'Parameters' }).click();
    await m.locator('.ant-dropdown').getByRole('menuitem', { name: 'Scheduled jobs' }).click();
    await m.waitForURL(/\/sys\/scheduled/);
    // The footer and the shortcut bar scroll with the page rather than holding the screen.
    expect(await m.locator('.cw-content .cw-footer').count()).toBe(1);
    expect(await m.locator('.cw-content .cw-shortcuts').count()).toBe(1);
    // The board shows its cards first; the organisation tree waits in a drawer.
    await m.goto(`${console_.url}/databoard/deviceMonitor`);
    await m.locator('.cw-mon-card').first().waitFor();
    expect(await m.locator('.cw-mon-tree').count()).toBe(0);
    await m.getByRole('button', { name: 'Organisation' }).click();
    await m.locator('.ant-drawer').getByText('Demo Hospital').waitFor();
    await phone.close();
  });

  it('a browser logs in by QR code once a signed-in phone confirms it; refresh issues a new code', async () => {
    const guest = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    await guest.addCookies([{ name: 'lang', value: 'en-US', url: console_.url }]);
    const g = await guest.newPage();
    const issued: string[] = [];
    g.on('response', async (r) => {
      if (/loginQrcode\/(get|refresh)/.test(r.url())) issued.push((await r.json()).result.key);
    });
    await g.goto(`${console_.url}/login`);
    await g.getByText('Scan QR code').click();
    await g.getByAltText('Login QR code').waitFor();
    await g.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => issued.length).toBe(2);
    // The replaced code is dead: confirming it fails; the new one logs the browser in.
    expect((await call('POST', `/service/mine/loginQrcode/confirm?key=${issued[0]}`)).state.code).toBe(500000);
    expect((await call('POST', `/service/mine/loginQrcode/confirm?key=${issued[1]}`)).state.code).toBe(200000);
    await g.waitForURL(/\/home/, { timeout: 15_000 });
    await guest.close();
  });

  it('the pages and the API docs run under the Content-Security-Policy', async () => {
    for (const p of ['/home', '/databoard/deviceMonitor', '/abnormal/dataex', '/sys/scheduled']) {
      await page.goto(`${console_.url}${p}`);
      await page.locator('.cw-content').waitFor();
      await page.waitForTimeout(500);
    }
    await page.goto(`${console_.url}/docs`);
    await page.getByText('Coldwatch console API').first().waitFor({ timeout: 15_000 });
    expect(cspViolations).toEqual([]);
  });

  // The signed-in route table loads with the shell (app/signedInRoutes.tsx), so a new page does
  // not weigh here: 253.2 KB before it left, 248.9 KB after (docs/performance.md "Page weight").
  it('the login page downloads at most 250 KB of JavaScript, compressed, and not the shell', async () => {
    const guest = await browser.newContext({ locale: 'en-US' });
    const g = await guest.newPage();
    const scripts: { url: string; bytes: number; encoding: string }[] = [];
    g.on('requestfinished', async (r) => {
      if (r.resourceType() !== 'script') return;
      const res = await r.response();
      scripts.push({ url: r.url(), bytes: (await r.sizes()).responseBodySize, encoding: (await res?.headerValue('content-encoding')) ?? '' });
    });
    await g.goto(`${console_.url}/login`, { waitUntil: 'networkidle' });
    await g.getByPlaceholder('Account').waitFor();
    const total = scripts.reduce((n, s) => n + s.bytes, 0);
    const largest = [...scripts].sort((x, y) => y.bytes - x.bytes).slice(0, 8).map((s) => `${s.url.split('/').pop()} ${s.bytes}`);
    console.log(`login route: ${scripts.length} scripts, ${total} bytes compressed; largest: ${largest.join(', ')}`);
    expect(scripts.filter((s) => s.bytes > 1024).every((s) => s.encoding === 'br'), JSON.stringify(scripts)).toBe(true);
    expect(total).toBeLessThanOrEqual(250_000);
    expect(scripts.some((s) => /ShellLayout|SignedIn|\/pages-/.test(s.url))).toBe(false);
    await guest.close();
  });

  it('the shell starts loading once the user types in the login form, not before', async () => {
    const guest = await browser.newContext({ locale: 'en-US' });
    const g = await guest.newPage();
    const shell: string[] = [];
    g.on('request', (r) => /\/assets\/SignedIn-[^/]+\.js$/.test(r.url()) && shell.push(r.url()));
    await g.goto(`${console_.url}/login`, { waitUntil: 'networkidle' });
    expect(shell).toEqual([]);
    const requested = g.waitForRequest((r) => /\/assets\/SignedIn-[^/]+\.js$/.test(r.url()), { timeout: 10_000 });
    await g.getByPlaceholder('Account').fill('admin');
    await requested;
    await guest.close();
  });

  it("a page's code starts loading when its menu section opens or the pointer reaches its entry, before the click", async () => {
    const p = await ctx.newPage();
    await p.goto(`${console_.url}/home`);
    await p.locator('.cw-content').waitFor();
    const chunk = p.waitForRequest((r) => /\/assets\/SysLogPage-[^/]+\.js$/.test(r.url()), { timeout: 10_000 });
    await p.locator('.ant-menu-submenu-title', { hasText: 'Logs' }).click();
    const entry = p.locator('.ant-menu-item', { hasText: 'System log' });
    await entry.hover();
    await chunk;
    // The entry is a link (a middle click opens it in a new browser tab); a click stays in this one.
    expect(await entry.locator('a').getAttribute('href')).toBe('/noti/sysLog');
    const pages = ctx.pages().length;
    await entry.click();
    await p.waitForURL(/\/noti\/sysLog/);
    expect(ctx.pages().length).toBe(pages);
    await p.close();
  });

  it('the shell, the home page and the device monitor load no schema code (zod) before their first paint', async () => {
    for (const [path, ready] of [
      ['/home', '.cw-content'],
      ['/databoard/deviceMonitor', '.cw-mon-card'],
    ] as const) {
      const p = await ctx.newPage();
      const withZod: string[] = [];
      p.on('response', async (r) => {
        if (r.request().resourceType() !== 'script') return;
        // zod 4 keeps its internals under `_zod`, which minification leaves as it is.
        if ((await r.text().catch(() => '')).includes('_zod')) withZod.push(r.url());
      });
      await p.goto(`${console_.url}${path}`);
      await p.locator(ready).first().waitFor({ timeout: 30_000 });
      await p.waitForLoadState('networkidle');
      expect(withZod, path).toEqual([]);
      await p.close();
    }
  });
});
