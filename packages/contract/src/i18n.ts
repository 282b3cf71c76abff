import enErrors from '../locales/en-US/errors.json' with { type: 'json' };
import zhErrors from '../locales/zh-CN/errors.json' with { type: 'json' };
import jaErrors from '../locales/ja-JP/errors.json' with { type: 'json' };
import esErrors from '../locales/es-ES/errors.json' with { type: 'json' };

import { DEFAULT_LOCALE, type Locale } from './locale.js';

const catalogues: Record<Locale, Record<string, unknown>> = { 'en-US': enErrors, 'zh-CN': zhErrors, 'ja-JP': jaErrors, 'es-ES': esErrors };

/** Looks a dotted key up in the server-side message catalogue; an unknown key is returned as it is. */
export function translate(key: string, locale: Locale = DEFAULT_LOCALE, vars?: Record<string, string | number>): string {
  const text = lookup(key, locale);
  return vars ? text.replace(/\{\{(\w+)\}\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m)) : text;
}

function lookup(key: string, locale: Locale): string {
  let node: unknown = catalogues[locale];
  for (const part of key.split('.')) {
    if (node && typeof node === 'object' && part in (node as object)) node = (node as Record<string, unknown>)[part];
    else return key;
  }
  return typeof node === 'string' ? node : key;
}
