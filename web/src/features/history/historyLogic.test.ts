import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { figureStats, hasHumidity, maxPointsForWidth, quickRange, type HistoryPoint } from './historyLogic';

/** A point as the contract answers it: every value named, null when not measured. */
const p = (over: Partial<HistoryPoint> & { ts: number }): HistoryPoint => ({ temp: null, hum: null, volt: null, rssi: null, lqi: null, gas: null, door: null, ...over });

describe('quickRange', () => {
  const now = dayjs('2025-03-31T12:00:00');
  it('gives the spec ranges: week 7 days, month 30 days, three months 90 days', () => {
    expect(now.diff(quickRange('week', now)[0], 'day')).toBe(7);
    expect(now.diff(quickRange('month', now)[0], 'day')).toBe(30);
    expect(now.diff(quickRange('quarter', now)[0], 'day')).toBe(90);
    expect(now.diff(quickRange('h24', now)[0], 'hour')).toBe(24);
    expect(quickRange('today', now)[0].format('HH:mm')).toBe('00:00');
  });
});

describe('figureStats', () => {
  const figures = { min: 2, max: 9, avg: 5.25, stdDev: 2.5, mkt: 5.9, passRate: 0.75, timeInZoneS: 900, offlineRate: 0, excursions: 1, excursionS: 300, readings: 3, excludedS: 0 };
  it("takes the server's figures and finds when the extremes happened among the points", () => {
    const s = figureStats(figures, [p({ ts: 1, temp: 4 }), p({ ts: 2, temp: null }), p({ ts: 3, temp: 9 }), p({ ts: 4, temp: 2 })], 'temp');
    // The average is the server's time-weighted one, not the points' mean (5).
    expect(s).toEqual({ min: 2, max: 9, avg: 5.25, stdDev: 2.5, mkt: 5.9, passRate: 0.75, count: 3, minTs: 4, maxTs: 3 });
  });
  it('is empty without figures; an extreme the points lack has no time', () => {
    expect(figureStats(undefined, [p({ ts: 1, temp: 4 })], 'temp')).toMatchObject({ min: null, max: null, avg: null, count: 0 });
    expect(figureStats(figures, [p({ ts: 1, temp: 4 })], 'temp')).toMatchObject({ minTs: null, maxTs: null });
  });
});

describe('maxPointsForWidth', () => {
  it('asks for two points per pixel within bounds', () => {
    expect(maxPointsForWidth(1000)).toBe(2000);
    expect(maxPointsForWidth(0)).toBe(400);
    expect(maxPointsForWidth(10_000)).toBe(5000);
  });
});

it('detects humidity', () => {
  expect(hasHumidity([p({ ts: 1, temp: 1, hum: null })])).toBe(false);
  expect(hasHumidity([p({ ts: 1, temp: 1, hum: 40 })])).toBe(true);
});
