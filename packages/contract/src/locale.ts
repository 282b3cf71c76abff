/**
 * The console's languages, apart from the server's message catalogues (i18n.ts): the login page
 * needs these and not the catalogues, which are tens of kilobytes.
 */
export const LOCALES = ['zh-CN', 'en-US'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'zh-CN';

/** Normalises zh_CN / en / en-GB … to one of our locales. */
export function toLocale(raw: string | undefined | null): Locale | undefined {
  if (!raw) return undefined;
  const v = raw.replace('_', '-').toLowerCase();
  if (v.startsWith('zh')) return 'zh-CN';
  if (v.startsWith('en')) return 'en-US';
  return undefined;
}
