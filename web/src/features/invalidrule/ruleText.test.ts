import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { buildChartOption } from '../history/chartOption';
import { excludedAt } from '../history/historyColumns';
import { daysText, hhmm, whenText } from './ruleText';

/** A translator that answers its key (and the name it was given), so the texts are checked by structure. */
const t = ((k: string, o?: { name?: string }) => (o?.name ? `${k}:${o.name}` : k)) as unknown as TFunction;

describe('invalid rule texts', () => {
  it('reads days, windows, periods and defrost', () => {
    expect(hhmm(0)).toBe('00:00');
    expect(hhmm(1439)).toBe('23:59');
    expect(daysText(t, [1, 2, 3, 4, 5])).toBe('workdays');
    expect(daysText(t, [7, 1, 2, 3, 4, 5, 6])).toBe('everyDay');
    expect(daysText(t, [6, 7])).toBe('weekday.6 weekday.7');
    const base = { weekdays: [1, 2, 3, 4, 5], windows: [{ from: 1380, to: 60 }], start: null, end: null, timeZone: '+08:00' };
    expect(whenText(t, { ...base, kind: 'schedule' })).toBe('workdays 23:00–01:00');
    expect(whenText(t, { ...base, kind: 'defrost' })).toBe('defrostText');
    // A period in the customer's zone: 2026-06-01 00:00 UTC is 08:00 at +08:00.
    expect(whenText(t, { ...base, kind: 'period', start: Date.UTC(2026, 5, 1), end: Date.UTC(2026, 5, 1, 2) })).toBe('2026-06-01 08:00 – 2026-06-01 10:00');
  });
});

describe('excluded periods in history', () => {
  const excluded = [{ start: 1000, end: 2000, ruleId: 1, name: 'Defrost' }];

  it('marks a reading inside a period, not at its end', () => {
    expect(excludedAt(excluded, 1000)?.name).toBe('Defrost');
    expect(excludedAt(excluded, 1999)).toBeDefined();
    expect(excludedAt(excluded, 2000)).toBeUndefined();
    expect(excludedAt([], 1500)).toBeUndefined();
  });

  it('shades the periods on the chart under a legend entry of their own, and adds nothing without them', () => {
    const input = { points: [], zone: { tempMin: 2, tempMax: 8, humMin: null, humMax: null }, withHum: false, offsetMin: 480, labels: { temp: 'T', hum: 'H', tempZone: 'Z', humZone: 'HZ', excluded: 'Excluded' } };
    const opt = buildChartOption({ ...input, excluded }) as { legend: { data: string[] }; series: { name: string; markArea?: { data: unknown[] } }[] };
    expect(opt.legend.data).toEqual(['T', 'Excluded']);
    const band = opt.series.find((s) => s.name === 'Excluded')!;
    expect(band.markArea!.data).toEqual([[{ name: 'Defrost', xAxis: 1000 + 480 * 60_000 }, { xAxis: 2000 + 480 * 60_000 }]]);
    const none = buildChartOption({ ...input, excluded: [] }) as { legend: { data: string[] }; series: { name: string }[] };
    expect(none.legend.data).toEqual(['T']);
    expect(none.series.map((s) => s.name)).toEqual(['T']);
  });
});
