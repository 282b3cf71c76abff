import { describe, expect, it } from 'vitest';
import type { GuideBook } from '@coldwatch/contract';
import { articleFor, blocks, inLang, search } from './helpLogic';
import seeded from '../../../../server/src/platform/seed/guide.json';
import { IMPLEMENTED, ROUTE_ALIASES } from '../../app/pages';

const a = (code: string, path: string, nameEn: string, contentEn: string, nameZh = '', contentZh = '') => ({ id: code.length, code, path, nameEn, contentEn, nameZh, contentZh });
const book: GuideBook = [
  { id: 1, code: 'ex', nameZh: '异常', nameEn: 'Exceptions', items: [a('ex.records', '/abnormal/dataex', 'Exception records', 'Every excursion opens one.', '异常记录', '每次超标都会生成一条。'), a('ex.handling', '', 'Handling', 'Sign with your password.')] },
  { id: 2, code: 'dev', nameZh: '设备', nameEn: 'Devices', items: [a('dev.sensors', '/device/sensor', 'Sensors', 'Calibration expiry.')] },
];

describe('online help', () => {
  it('reads an article in the reader\'s language, the other one when it has none', () => {
    expect(inLang(book[0].items[0], 'zh-CN')).toEqual({ name: '异常记录', content: '每次超标都会生成一条。' });
    expect(inLang(book[0].items[1], 'zh-CN')).toEqual({ name: 'Handling', content: 'Sign with your password.' });
  });

  it('turns plain text into paragraphs and lists, and never reads markup', () => {
    expect(blocks('One\nline.\n\n- a\n- b\n\n<b>x</b>')).toEqual([{ kind: 'p', text: 'One line.' }, { kind: 'ul', items: ['a', 'b'] }, { kind: 'p', text: '<b>x</b>' }]);
  });

  it('finds articles holding every word, in either language; an empty query keeps all', () => {
    expect(search(book, 'password sign').flatMap((g) => g.items.map((i) => i.code))).toEqual(['ex.handling']);
    expect(search(book, '超标').flatMap((g) => g.items.map((i) => i.code))).toEqual(['ex.records']);
    expect(search(book, 'nothing-like-this')).toEqual([]);
    expect(search(book, ' ')).toBe(book);
  });

  it("finds the article of a page, or of the section above it", () => {
    expect(articleFor(book, '/abnormal/dataex')?.code).toBe('ex.records');
    expect(articleFor(book, '/device/sensor/extra')?.code).toBe('dev.sensors');
    expect(articleFor(book, '/nowhere')).toBeUndefined();
  });

  it("the product's articles each explain a page that exists, and cover the console's main pages", () => {
    const paths = (seeded as { items: { path: string }[] }[]).flatMap((g) => g.items.map((i) => i.path)).filter(Boolean);
    for (const p of paths) expect(IMPLEMENTED.has(p) || p in ROUTE_ALIASES, p).toBe(true);
    for (const p of ['/home', '/abnormal/dataex', '/databoard/monitoringPoint', '/count/statistic', '/sysAlarm']) expect(paths).toContain(p);
  });
});
