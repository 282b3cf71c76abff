import type { Browser, BrowserContext, Page } from 'playwright-core';

export type Lang = 'en-US' | 'zh-CN';

/** The login form's placeholders in each language. */
const PLACEHOLDERS: Record<Lang, [string, string]> = { 'en-US': ['Account', 'Password'], 'zh-CN': ['账号', '密码'] };

/**
 * A new page of `context` signed in as the demo administrator through the login page, whose
 * fields it finds by their placeholders (the context's language's): it lands on Home.
 */
export async function signInOn(context: BrowserContext, url: string, placeholder: readonly [string, string]): Promise<Page> {
  const p = await context.newPage();
  await p.goto(`${url}/login`);
  await p.getByPlaceholder(placeholder[0]).fill('demo');
  await p.getByPlaceholder(placeholder[1]).fill('demo123');
  await p.locator('button[type=submit]').click();
  await p.waitForURL(/\/home/);
  return p;
}

/**
 * A new browser context signed in through the login page, in `lang` (its cookie set, as the
 * language switch sets it), landing on Home; the demo administrator unless told otherwise.
 */
export async function signedIn(
  browser: Browser,
  url: string,
  lang: Lang,
  opts: { account?: string; password?: string; width?: number; height?: number } = {},
): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: { width: opts.width ?? 1440, height: opts.height ?? 900 }, locale: lang });
  await ctx.addCookies([{ name: 'lang', value: lang, url }]);
  const page = await ctx.newPage();
  await page.goto(`${url}/login`);
  const [account, password] = PLACEHOLDERS[lang];
  await page.getByPlaceholder(account).fill(opts.account ?? 'demo');
  await page.getByPlaceholder(password).fill(opts.password ?? 'demo123');
  await page.locator('button[type=submit]').click();
  await page.waitForURL(/\/home/);
  return { ctx, page };
}

/**
 * A new page signed in through the API (any of the four languages, whose login form this does
 * not need to know), in `lang` by its cookie, at `width` px (a phone's height below 576): for
 * tests that look at pages rather than at the login. The demo's administrator unless told otherwise.
 */
export async function signedInByApi(browser: Browser, url: string, lang: string, width: number, login: { account: string; password: string } = { account: 'demo', password: 'demo123' }): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width, height: width < 576 ? 844 : 900 }, locale: lang });
  await ctx.addCookies([{ name: 'lang', value: lang, url }]);
  const r = await ctx.request.post(`${url}/service/user/login`, { data: login });
  const body = (await r.json()) as { state: { code: number; msg: string } };
  if (body.state.code !== 200000) throw new Error(`login of ${login.account}: ${body.state.msg}`);
  return ctx.newPage();
}

/** The platform administrator of the demo (README). */
export const ADMIN = { account: 'admin', password: 'admin123' } as const;
