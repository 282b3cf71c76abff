import { describe, expect, it } from 'vitest';
import { clampFraction, frameAt, withFrame, withReading } from './planLogic';

describe('floor plan markers', () => {
  it('keeps a dropped position on the picture', () => {
    expect(clampFraction(0.25)).toBe(0.25);
    expect(clampFraction(-0.2)).toBe(0);
    expect(clampFraction(1.7)).toBe(1);
    expect(clampFraction(Number.NaN)).toBe(0);
  });

  it('applies a live reading to its sensor only', () => {
    const m = [{ id: 1, temp: 4, hum: 50, offline: true }, { id: 2, temp: 5, hum: null, offline: false }];
    const next = withReading(m, { customerId: 1, sensorId: 1, devNo: 'T1', carrierId: null, ts: 1, temp: 9.5 });
    expect(next[0]).toEqual({ id: 1, temp: 9.5, hum: 50, offline: false });
    expect(next[1]).toBe(m[1]);
    expect(withReading(m, { customerId: 1, sensorId: 3, devNo: 'T3', carrierId: null, ts: 1, temp: 1 })).toBe(m);
  });
});

describe('floor plan playback', () => {
  const series = new Map([
    [1, [{ ts: 100, temp: 4, hum: 50 }, { ts: 200, temp: 9.5, hum: 55 }, { ts: 300, temp: 5, hum: 52 }]],
    [2, [{ ts: 250, temp: -18, hum: null }]],
  ]);
  const markers = [{ id: 1, devNo: 'T1', temp: 6, hum: 60, offline: false }, { id: 2, devNo: 'T2', temp: -20, hum: null, offline: false }, { id: 3, devNo: 'T3', temp: 3, hum: null, offline: false }];

  it("shows each sensor's latest reading at or before the moment", () => {
    const f = frameAt(series, 250);
    expect(f.get(1)).toEqual({ ts: 200, temp: 9.5, hum: 55 });
    expect(f.get(2)).toEqual({ ts: 250, temp: -18, hum: null });
    expect(withFrame(markers, f).map((m) => [m.id, m.temp, m.hum, m.offline])).toEqual([
      [1, 9.5, 55, false],
      [2, -18, null, false],
      // Not in the frame (its period not loaded): no value rather than its live one.
      [3, null, null, true],
    ]);
  });

  it('shows no value, not the live one, before a sensor\'s first reading of the period', () => {
    const f = frameAt(series, 150);
    expect(f.get(2)).toBeNull();
    expect(withFrame(markers, f)[1]).toEqual({ id: 2, devNo: 'T2', temp: null, hum: null, offline: true });
    // At the very start nothing has reported yet; the markers keep their place and names.
    expect(withFrame(markers, frameAt(series, 0)).every((m) => m.offline && m.temp === null)).toBe(true);
    expect(withFrame(markers, frameAt(series, 0)).map((m) => m.devNo)).toEqual(['T1', 'T2', 'T3']);
  });
});
