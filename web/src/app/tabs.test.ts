import { describe, expect, it } from 'vitest';
import { HOME_TAB, MAX_TABS, nextPathAfter, normalizeTabs, tabsReducer, type Tab } from './tabs';

const tab = (key: string, search = ''): Tab => ({ key, path: key + search, titleKey: `t.${key}` });
const A = tab('/a');
const B = tab('/b');
const C = tab('/c');
const keys = (tabs: Tab[]) => tabs.map((t) => t.key);

describe('tabs of visited pages', () => {
  const start = normalizeTabs([A, B, C]);

  it('always starts with home', () => {
    expect(keys(start)).toEqual(['/home', '/a', '/b', '/c']);
    expect(normalizeTabs([])).toEqual([HOME_TAB]);
  });

  it('opens a page once and remembers its latest query', () => {
    const s = tabsReducer(start, { type: 'open', tab: tab('/b', '?deviceNo=7') });
    expect(keys(s)).toEqual(['/home', '/a', '/b', '/c']);
    expect(s[2].path).toBe('/b?deviceNo=7');
    expect(keys(tabsReducer(start, { type: 'open', tab: tab('/d') }))).toEqual(['/home', '/a', '/b', '/c', '/d']);
    expect(tabsReducer(start, { type: 'open', tab: A })).toBe(start);
  });

  it('one tab per page: the same page by another route takes over its tab', () => {
    const history = { key: '/count/detailData', path: '/count/detailData', titleKey: 'shell:page.history' };
    const fromException = { key: '/historyData', path: '/historyData?deviceNo=T1', titleKey: 'shell:page.history' };
    const s = tabsReducer(tabsReducer(start, { type: 'open', tab: history }), { type: 'open', tab: fromException });
    expect(keys(s)).toEqual(['/home', '/a', '/b', '/c', '/historyData']);
    expect(s.filter((t) => t.titleKey === 'shell:page.history')).toEqual([fromException]);
  });

  it('keeps at most MAX_TABS: the longest-open tab after home goes', () => {
    let s = normalizeTabs([]);
    for (let i = 0; i < MAX_TABS + 5; i++) s = tabsReducer(s, { type: 'open', tab: tab(`/p${i}`) });
    expect(s).toHaveLength(MAX_TABS);
    expect(s[0]).toEqual(HOME_TAB);
    expect(keys(s).slice(1, 3)).toEqual(['/p6', '/p7']);
    expect(s.at(-1)!.key).toBe(`/p${MAX_TABS + 4}`);
  });

  it('closes one tab but never home', () => {
    expect(keys(tabsReducer(start, { type: 'close', key: '/b' }))).toEqual(['/home', '/a', '/c']);
    expect(tabsReducer(start, { type: 'close', key: '/home' })).toBe(start);
  });

  it('close others keeps home and the chosen tab', () => {
    expect(keys(tabsReducer(start, { type: 'closeOthers', key: '/b' }))).toEqual(['/home', '/b']);
    expect(keys(tabsReducer(start, { type: 'closeOthers', key: '/home' }))).toEqual(['/home']);
  });

  it('close all keeps home', () => {
    expect(keys(tabsReducer(start, { type: 'closeAll' }))).toEqual(['/home']);
  });

  it('moves to the left neighbour when the shown tab closes', () => {
    expect(nextPathAfter(start, { type: 'close', key: '/b' }, '/b')).toBe('/a');
    expect(nextPathAfter(start, { type: 'close', key: '/a' }, '/a')).toBe('/home');
    expect(nextPathAfter(start, { type: 'close', key: '/b' }, '/c')).toBeUndefined();
  });

  it('shows the kept tab after close others and home after close all', () => {
    expect(nextPathAfter(start, { type: 'closeOthers', key: '/b' }, '/c')).toBe('/b');
    expect(nextPathAfter(start, { type: 'closeOthers', key: '/b' }, '/b')).toBeUndefined();
    expect(nextPathAfter(start, { type: 'closeAll' }, '/c')).toBe('/home');
    expect(nextPathAfter(start, { type: 'closeAll' }, '/home')).toBeUndefined();
  });
});
