import { describe, expect, it } from 'vitest';
import { bandOf, colouredLegs, positionAt, tempAt } from './tripLogic';

const zone = { tempMin: 2, tempMax: 8 };

describe('a trip route coloured by temperature', () => {
  it('bands a value against the zone', () => {
    expect([bandOf(5, zone), bandOf(8.5, zone), bandOf(1, zone), bandOf(null, zone), bandOf(8, zone)]).toEqual(['in', 'high', 'low', 'none', 'in']);
    expect(bandOf(30, { tempMin: null, tempMax: null })).toBe('in');
  });

  it('takes the latest reading at or before a time, skipping points without temperature', () => {
    const pts = [{ ts: 10, temp: 4 }, { ts: 20, temp: null }, { ts: 30, temp: 9 }];
    expect([tempAt(pts, 5), tempAt(pts, 10), tempAt(pts, 25), tempAt(pts, 30), tempAt(pts, 99)]).toEqual([null, 4, 4, 9, 9]);
  });

  it('joins legs of one band and starts a new band where the last line ended', () => {
    const route = [1, 2, 3, 4].map((i) => ({ ts: i * 10, lat: i, lng: 100 + i }));
    const legs = colouredLegs(route, [{ ts: 0, temp: 5 }, { ts: 25, temp: 9 }], zone);
    expect(legs).toEqual([
      { band: 'in', positions: [[1, 101], [2, 102]] },
      { band: 'high', positions: [[2, 102], [3, 103], [4, 104]] },
    ]);
    expect(positionAt(route, 25)).toEqual(route[1]);
    expect(positionAt(route, 0)).toEqual(route[0]);
  });
});
