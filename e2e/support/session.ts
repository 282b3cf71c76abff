import { afterAll, beforeAll } from 'vitest';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { launch } from './browser.js';
import { startConsole, type RunningConsole } from './console.js';
import { signedInByApi } from './signIn.js';

/** Where the tests keep the screenshots the docs show. */
export const DOCS_SCREENSHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/screenshots');
/** The console's four languages, as the pages are looked at in each. */
export const LANGS = ['zh-CN', 'en-US', 'ja-JP', 'es-ES'] as const;

/**
 * One compiled console (the demo, without the simulator unless `env` says otherwise) and one
 * Chromium for a test file: started before its tests, stopped after them. `signIn` opens a page
 * signed in through the API (the demo customer's administrator unless `login` names another).
 */
export function consoleAndBrowser(env: Record<string, string> = { SIMULATOR: '0' }) {
  let running: RunningConsole | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    running = await startConsole(env);
    browser = await launch();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });
  return {
    get url() {
      return running!.url;
    },
    signIn: (lang: string, width: number, login?: { account: string; password: string }) => signedInByApi(browser!, running!.url, lang, width, login),
  };
}
