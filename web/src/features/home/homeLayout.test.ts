import { describe, expect, it } from 'vitest';
import { HOME_STYLES } from '@coldwatch/contract';
import { STYLE_LAYOUTS, shownWidgets } from './homeLayout';

describe('home styles', () => {
  it('shows the saved widgets the user may still see, in the saved order, else the default', () => {
    const has = (f: string) => f === 'viewEx' || f === 'viewMonitorPointRealTime';
    expect(shownWidgets(['mapMonitor', 'passRate', 'pendingExceptions'], has)).toEqual(['mapMonitor', 'pendingExceptions']);
    expect(shownWidgets(undefined, has)).toEqual(['exceptionStats', 'carrierStatus']);
    expect(shownWidgets(undefined, () => false)).toEqual([]);
  });

  it('every style fills whole rows on a phone, and gives the map and the list at least half a wide screen', () => {
    for (const s of HOME_STYLES) {
      for (let i = 0; i < 6; i++) expect(STYLE_LAYOUTS[s].span('alarmMode', i).xs, s).toBe(24);
      expect(STYLE_LAYOUTS[s].span('mapMonitor', 1).xl, s).toBeGreaterThanOrEqual(12);
      expect(STYLE_LAYOUTS[s].span('listMonitor', 2).xl, s).toBeGreaterThanOrEqual(12);
    }
  });

  it('the styles differ: classic alternates 14/10, grid is three a row, column one, focus leads with one across', () => {
    expect([0, 1, 2, 3].map((i) => STYLE_LAYOUTS.classic.span('alarmMode', i).xl)).toEqual([14, 10, 10, 14]);
    expect(STYLE_LAYOUTS.grid.span('alarmMode', 0).xl).toBe(8);
    expect(STYLE_LAYOUTS.column.span('alarmMode', 3).xl).toBe(24);
    expect([0, 1].map((i) => STYLE_LAYOUTS.focus.span('alarmMode', i).xl)).toEqual([24, 12]);
    expect(STYLE_LAYOUTS.wall.dark).toBe(true);
  });
});
