import { toLocale, DEFAULT_LOCALE, LOCALES, type Locale } from '@coldwatch/contract';

export type Lang = Locale;
export const LANGS: readonly Lang[] = LOCALES;
export const DEFAULT_LANG: Lang = DEFAULT_LOCALE;
export const LANG_COOKIE = 'lang';

/** Normalises zh_CN / zh / en-GB … to one of the offered languages, or undefined. */
export const normalizeLang = (raw: string | null | undefined): Lang | undefined => toLocale(raw ?? undefined);

/**
 * Language choice of spec §1: the `lang` cookie first, then the user's stored setting,
 * then the browser's languages (first one we offer), default Chinese.
 */
export function chooseLanguage(src: { cookie?: string | null; stored?: string | null; browser?: readonly string[] | null }): Lang {
  const fromCookie = normalizeLang(src.cookie);
  if (fromCookie) return fromCookie;
  const fromStored = normalizeLang(src.stored);
  if (fromStored) return fromStored;
  for (const b of src.browser ?? []) {
    const l = normalizeLang(b);
    if (l) return l;
  }
  return DEFAULT_LANG;
}

/** Reads one cookie out of a `document.cookie` string. */
export function readCookie(name: string, cookies: string): string | undefined {
  for (const part of cookies.split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    if (part.slice(0, i).trim() === name) return decodeURIComponent(part.slice(i + 1).trim());
  }
  return undefined;
}
