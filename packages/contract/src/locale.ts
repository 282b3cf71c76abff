/**
 * The console's languages, apart from the server's message catalogues (i18n.ts): the login page
 * needs these and not the catalogues, which are tens of kilobytes.
 */
/**
 * To add a language: its code here, then every `Record<Locale, …>` the typecheck names (server
 * catalogues, mail texts, antd and dayjs locales, the language's own name), and its catalogues
 * under web/src/locales/<code>/ and packages/contract/locales/<code>/ with every key of en-US.
 */
export const LOCALES = ['zh-CN', 'en-US', 'ja-JP', 'es-ES'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'zh-CN';

/** Normalises zh_CN / en / en-GB / ja / es-MX … to one of our locales. */
export function toLocale(raw: string | undefined | null): Locale | undefined {
  if (!raw) return undefined;
  const v = raw.replace('_', '-').toLowerCase();
  if (v.startsWith('zh')) return 'zh-CN';
  if (v.startsWith('en')) return 'en-US';
  if (v.startsWith('ja')) return 'ja-JP';
  if (v.startsWith('es')) return 'es-ES';
  return undefined;
}
