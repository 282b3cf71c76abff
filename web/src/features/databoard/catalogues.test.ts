import { describe, expect, it } from 'vitest';
import { CARRIER_TYPES, EXCEPTION_CATEGORIES, EXCEPTION_STATUS } from '@coldwatch/contract';

const files = import.meta.glob('../../locales/*/*.json', { eager: true, import: 'default' }) as Record<string, any>;
const load = (lang: string, ns: string) => {
  const f = files[`../../locales/${lang}/${ns}.json`];
  if (!f) throw new Error(`missing ${lang}/${ns}`);
  return f;
};

const keys = (o: any, prefix = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`]));

describe.each(['monitor', 'history', 'abnormal'])('catalogue %s', (ns) => {
  it('has the same keys in both languages, none empty', () => {
    const zh = load('zh-CN', ns);
    const en = load('en-US', ns);
    expect(keys(zh).sort()).toEqual(keys(en).sort());
    // Every text is there; only a separator may be empty (Chinese joins units without a space).
    for (const k of keys(zh).filter((k) => !k.endsWith('.sep'))) expect(k.split('.').reduce((o: any, p) => o[p], zh)).not.toBe('');
    for (const k of keys(en)) expect(k.split('.').reduce((o: any, p) => o[p], en)).not.toBe('');
  });
});

it('names every carrier type, exception category and status', () => {
  for (const lang of ['zh-CN', 'en-US']) {
    const m = load(lang, 'monitor');
    const a = load(lang, 'abnormal');
    for (const c of CARRIER_TYPES) expect(m.carrierType[c.type]).toBeTruthy();
    for (const c of EXCEPTION_CATEGORIES) expect(a.category[c]).toBeTruthy();
    for (const s of Object.values(EXCEPTION_STATUS)) expect(a.status[s]).toBeTruthy();
  }
});
