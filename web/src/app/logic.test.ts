import { describe, expect, it } from 'vitest';
import { LOCALES } from '@coldwatch/contract';
import type { TFunction } from 'i18next';
import { ApiError } from '../api/client';
import { holdsAll } from './auth';
import { errorMessage, reactionFor } from './errors';
import { loginPath, safeRedirect } from './reactions';
import { redirectTarget } from '../features/sys/RedirectPage';

const t = ((k: string) => k) as unknown as TFunction;

describe('permissions', () => {
  it('allows an action only if every code is held', () => {
    const auths = { viewEx: true, editEx: true };
    expect(holdsAll(auths, ['viewEx'])).toBe(true);
    expect(holdsAll(auths, ['viewEx', 'editEx'])).toBe(true);
    expect(holdsAll(auths, ['viewEx', 'removeEx'])).toBe(false);
    expect(holdsAll(undefined, ['viewEx'])).toBe(false);
    expect(holdsAll(auths, [])).toBe(true);
  });
});

describe('§8 reactions', () => {
  it('sends an expired session to login at once', () => {
    expect(reactionFor(new ApiError(500100, '', 401), t)).toMatchObject({ kind: 'login', delayMs: 0 });
    expect(reactionFor(new ApiError(500100, 'expired', 200), t)).toMatchObject({ kind: 'login', text: 'expired' });
  });
  it('shows login expired on HTTP 403, then login after one second', () => {
    expect(reactionFor(new ApiError(500000, '', 403), t)).toEqual({ kind: 'login', text: 'common:error.loginExpired', delayMs: 1000 });
  });
  it('keeps the session on 503 (the database away for a moment) and goes to login on other 5xx', () => {
    expect(reactionFor(new ApiError(500000, 'try again', 503), t)).toEqual({ kind: 'toast', text: 'try again' });
    expect(reactionFor(new ApiError(500000, '', 503), t)).toEqual({ kind: 'toast', text: 'common:error.unavailable' });
    expect(reactionFor(new ApiError(500000, '', 500), t)).toMatchObject({ kind: 'login', delayMs: 1000 });
    expect(errorMessage(new ApiError(500000, '', 503), t)).toBe('common:error.unavailable');
  });
  it('tells offline from timeout when nothing answers', () => {
    expect(reactionFor(new ApiError(0, 'offline', 0), t)).toEqual({ kind: 'toast', text: 'common:error.offline' });
    expect(reactionFor(new ApiError(0, 'timeout', 0), t)).toEqual({ kind: 'toast', text: 'common:error.timeout' });
  });
  it('leaves entity failures to the page', () => {
    expect(reactionFor(new ApiError(418, 'exists', 200), t).kind).toBe('none');
    expect(reactionFor(new ApiError(400, 'bad', 400), t).kind).toBe('none');
    expect(reactionFor(new ApiError(500088, 'pw', 200), t).kind).toBe('none');
  });
  it('prefers the server message, else the catalogue', () => {
    expect(errorMessage(new ApiError(500088, 'Wrong password', 200), t)).toBe('Wrong password');
    expect(errorMessage(new ApiError(500088, '', 200), t)).toBe('common:error.passwordError');
    expect(errorMessage(new ApiError(404, '', 404), t)).toBe('common:error.notFound');
    expect(errorMessage(new Error('x'), t)).toBe('common:error.failed');
  });
});

describe('redirects', () => {
  it('keeps login redirects inside the app', () => {
    expect(safeRedirect('/historyData?deviceNo=1')).toBe('/historyData?deviceNo=1');
    expect(safeRedirect('//evil.example')).toBe('/home');
    expect(safeRedirect('https://evil.example')).toBe('/home');
    expect(safeRedirect('/login?redirect=/x')).toBe('/home');
    expect(safeRedirect(null)).toBe('/home');
    expect(loginPath('/abnormal/dataex')).toBe('/login?redirect=%2Fabnormal%2Fdataex');
    expect(loginPath('/')).toBe('/login');
  });
  it('the refresh helper goes back to the given path', () => {
    expect(redirectTarget('databoard/deviceMonitor', '')).toBe('/databoard/deviceMonitor');
    expect(redirectTarget('historyData', '?deviceNo=5')).toBe('/historyData?deviceNo=5');
    expect(redirectTarget('', '')).toBe('/home');
  });
});

describe('catalogues', () => {
  const files = import.meta.glob('../locales/*/*.json', { eager: true, import: 'default' }) as Record<string, Record<string, unknown>>;
  const cat = (lang: string, ns: string) => files[`../locales/${lang}/${ns}.json`];
  const flat = (o: Record<string, unknown>, p = ''): string[] =>
    Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? flat(v as Record<string, unknown>, `${p}${k}.`) : [`${p}${k}`]));
  // Every namespace: a key in one language only is a string the other language's users would see untranslated.
  const namespaces = [...new Set(Object.keys(files).map((f) => f.split('/').pop()!.replace(/\.json$/, '')))];
  // Every language of LOCALES against en-US: a missing key in any of them fails here.
  const others = LOCALES.filter((l) => l !== 'en-US');
  for (const ns of namespaces) {
    for (const lang of others) {
      it(`${ns}: ${lang} carries the keys of en-US`, () => {
        expect(cat(lang, ns)).toBeDefined();
        expect(flat(cat(lang, ns)).sort()).toEqual(flat(cat('en-US', ns)).sort());
      });
    }
  }
  it('every namespace exists in every language', () => {
    const names = (lang: string) => Object.keys(files).filter((f) => f.includes(`/${lang}/`)).map((f) => f.split('/').pop()).sort();
    for (const lang of others) expect(names(lang)).toEqual(names('en-US'));
  });
  it('every language has its shell chunk of catalogues', () => {
    const chunks = Object.keys(import.meta.glob('./catalogues/*.ts'));
    expect(chunks.sort()).toEqual(LOCALES.map((l) => `./catalogues/${l}.ts`).sort());
  });
  it('placeholders and nested keys survive translation', () => {
    const tokens = (v: unknown) => (typeof v === 'string' ? [...v.matchAll(/\{\{\s*[\w.]+\s*\}\}|\$t\([^)]*\)|<\/?\d+>/g)].map((m) => m[0]).sort() : []);
    const values = (o: Record<string, unknown>, p = ''): [string, unknown][] =>
      Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? values(v as Record<string, unknown>, `${p}${k}.`) : [[`${p}${k}`, v] as [string, unknown]]));
    const wrong: string[] = [];
    // zh-CN words a few sentences with other variables (no plural forms); the later languages follow en-US.
    for (const ns of namespaces)
      for (const lang of others.filter((l) => l !== 'zh-CN')) {
        const theirs = new Map(values(cat(lang, ns) ?? {}));
        for (const [k, v] of values(cat('en-US', ns))) if (theirs.has(k) && tokens(theirs.get(k)).join() !== tokens(v).join()) wrong.push(`${lang} ${ns}:${k}`);
      }
    expect(wrong).toEqual([]);
  });
});
