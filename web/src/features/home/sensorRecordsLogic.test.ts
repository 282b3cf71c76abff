import { describe, expect, it } from 'vitest';
import { withLive } from './sensorRecordsLogic';

describe('sensor records', () => {
  it('adds live readings newer than the history, once each, in time order', () => {
    const h = [
      { ts: 1, temp: 4, hum: null },
      { ts: 2, temp: 5, hum: null },
    ];
    const live = [
      { ts: 4, temp: 7, hum: 50 },
      { ts: 2, temp: 5, hum: null },
      { ts: 3, temp: 6, hum: null },
      { ts: 4, temp: 7, hum: 50 },
    ];
    expect(withLive(h, live).map((p) => p.ts)).toEqual([1, 2, 3, 4]);
    expect(withLive(h, []).map((p) => p.ts)).toEqual([1, 2]);
    expect(withLive([], live).map((p) => p.temp)).toEqual([5, 6, 7]);
  });
});
