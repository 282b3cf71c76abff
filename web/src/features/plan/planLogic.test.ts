import { describe, expect, it } from 'vitest';
import { clampFraction, withReading } from './planLogic';

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
