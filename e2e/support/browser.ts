import { chromium, type Browser, type Page } from 'playwright-core';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const screenshotDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../screenshots');

/**
 * The console's session flag of a finished or skipped guided tour (web/src/features/tour), set on
 * every page and kept through the sign-in, which clears the session's keys (app/session.ts).
 */
const TOUR_DISMISSED = () => {
  sessionStorage.setItem('cw.tourDismissed', 'true');
  const remove = Storage.prototype.removeItem;
  Storage.prototype.removeItem = function (key: string) {
    if (key !== 'cw.tourDismissed') remove.call(this, key);
  };
};

/**
 * Debian's Chromium, never a downloaded browser; flags keep it off this machine's closed network.
 * Its pages start as a user who has already taken the guided tour in this session (every new
 * user is shown it on Home, over the page); `{ tour: true }` leaves it to show, for the tour's test.
 */
export async function launch(opts: { tour?: boolean } = {}): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  if (opts.tour) return browser;
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const ctx = await newContext(options);
    await ctx.addInitScript(TOUR_DISMISSED);
    return ctx;
  };
  browser.newPage = async (options) => {
    const ctx = await browser.newContext(options);
    const page = await ctx.newPage();
    // As Playwright's own newPage: closing the page closes its context.
    page.on('close', () => void ctx.close());
    return page;
  };
  return browser;
}

export async function shot(page: Page, name: string) {
  await mkdir(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: false });
}

/**
 * A shot of the whole page into `file`: the shell scrolls its content pane, not the window, so a
 * full-page shot would stop at the viewport; the viewport is stretched to the pane's content for
 * the shot (at most 8000 px) and given back after.
 */
export async function wholePage(page: Page, file: string) {
  const size = page.viewportSize()!;
  const extra = await page.evaluate(() => {
    const pane = document.querySelector('.cw-content');
    return pane ? pane.scrollHeight - pane.clientHeight : 0;
  });
  await page.setViewportSize({ width: size.width, height: Math.min(size.height + Math.max(0, extra), 8000) });
  await page.waitForTimeout(800); // charts redraw at their new size
  await page.screenshot({ path: file });
  await page.setViewportSize(size);
}
