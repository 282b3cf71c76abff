import { describe, expect, it } from 'vitest';
import { carrierSeries, carrierValue, type Sample } from '@coldwatch/contract';

const at = (value: number, ts = 0): Sample => ({ value, ts });

describe('sample modes of spec §3: several sensors, one carrier value', () => {
  const three = [at(4, 1), at(6, 3), at(11, 2)];
  it.each([
    ['latest takes the newest sample', 'latest', three, 6],
    ['max', 'max', three, 11],
    ['min', 'min', three, 4],
    ['average', 'avg', three, 7],
    ['balanced drops max and min', 'balanced', [at(2), at(5), at(6), at(30)], 5.5],
  ] as const)('%s', (_l, mode, samples, want) => expect(carrierValue(mode, samples)).toBe(want));

  it('falls back to the latest value when a mode lacks its least number of sensors', () => {
    expect(carrierValue('max', [at(3, 5)])).toBe(3);
    expect(carrierValue('balanced', [at(3, 1), at(9, 2)])).toBe(9);
    expect(carrierValue('balanced', [at(3, 1), at(9, 2), at(5, 0)])).toBe(5);
  });

  it('ignores sensors without a value and answers null when none has one', () => {
    expect(carrierValue('avg', [null, at(4), undefined, at(5)])).toBe(4.5);
    expect(carrierValue('latest', [null, undefined])).toBeNull();
  });
});

describe('the carrier value over time', () => {
  const MIN = 60_000;
  it('takes a point at every report, the mode over each sensor\'s latest value that is not stale', () => {
    const a = { staleMs: 5 * MIN, samples: [at(5, 0), at(3, 2 * MIN)] };
    const b = { staleMs: 5 * MIN, samples: [at(12, 1 * MIN)] };
    // avg: 5 alone (fallback to latest), then (5 + 12) / 2, then (3 + 12) / 2.
    expect(carrierSeries('avg', [a, b])).toEqual([at(5, 0), at(8.5, MIN), at(7.5, 2 * MIN)]);
    expect(carrierSeries('max', [a, b])).toEqual([at(5, 0), at(12, MIN), at(12, 2 * MIN)]);
    // b's 12 is stale after 5 minutes: a's next report stands alone.
    const later = { ...a, samples: [...a.samples, at(4, 7 * MIN)] };
    expect(carrierSeries('max', [later, b]).at(-1)).toEqual(at(4, 7 * MIN));
  });

  it('starts from the state before the window and returns only what is in it', () => {
    const a = { staleMs: 5 * MIN, samples: [at(3, 10 * MIN)], before: at(4, 8 * MIN) };
    const b = { staleMs: 5 * MIN, samples: [], before: at(20, 9 * MIN) };
    const c = { staleMs: 5 * MIN, samples: [at(6, 10 * MIN)], before: null };
    // balanced over 3, 20, 6: drop 20 and 3, leaves 6.
    expect(carrierSeries('balanced', [a, b, c], 10 * MIN)).toEqual([at(6, 10 * MIN)]);
    // Readings at one instant make one point.
    expect(carrierSeries('min', [a, c])).toEqual([at(3, 10 * MIN)]);
  });
});
