import { describe, expect, it } from 'vitest';
import { gaugeScale } from './dashboardLogic';

describe('dashboard gauge', () => {
  it('puts a 2-8 °C zone in the middle, blue below, green inside, orange above', () => {
    expect(gaugeScale(5, 2, 8)).toEqual({ from: -1, to: 11, bands: [[0.25, 'low'], [0.75, 'in'], [1, 'high']] });
  });
  it('widens the dial to hold a value far out of its zone', () => {
    const s = gaugeScale(25.5, 2, 8);
    expect(s.to).toBe(27);
    expect(s.from).toBe(-1);
  });
  it('without a zone: one band, -40 to 40 °C', () => {
    expect(gaugeScale(null, null, null)).toEqual({ from: -40, to: 40, bands: [[1, 'in']] });
  });
});
