import { describe, expect, it } from 'vitest';
import { carrierValue, type Sample } from '@coldwatch/contract';

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
