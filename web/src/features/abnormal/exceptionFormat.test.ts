import { describe, expect, it } from 'vitest';
import { durationParts, formatDuration } from '../../lib/format';
import { exceptionSeconds, historyWindow, isDataCategory } from './exceptionFormat';

const label = (u: string, n: number) => `${n}${u}`;

describe('durationParts', () => {
  it('keeps the two largest adjacent units', () => {
    expect(formatDuration(45, label)).toBe('45s');
    expect(formatDuration(125, label)).toBe('2m 5s');
    expect(formatDuration(3 * 3600 + 5 * 60 + 9, label)).toBe('3h 5m');
    expect(formatDuration(86400 + 3 * 3600, label)).toBe('1d 3h');
  });
  it('drops a lower unit when the one between is zero, and shows 0 s for nothing', () => {
    expect(formatDuration(86400 + 60, label)).toBe('1d');
    expect(durationParts(0)).toEqual([{ unit: 's', n: 0 }]);
    expect(durationParts(null)).toEqual([{ unit: 's', n: 0 }]);
    expect(durationParts(-5)).toEqual([{ unit: 's', n: 0 }]);
  });
});

describe('exceptionSeconds', () => {
  it('uses the recorded duration of an ended exception', () => {
    expect(exceptionSeconds({ ongoing: false, startTs: 0, endTs: 60_000, durationS: 60 }, 999_999)).toBe(60);
  });
  it('counts an ongoing exception up to now', () => {
    expect(exceptionSeconds({ ongoing: true, startTs: 10_000, durationS: null }, 70_000)).toBe(60);
  });
});

describe('historyWindow', () => {
  it('pads one hour either side, never past now', () => {
    const h = 3600_000;
    expect(historyWindow({ startTs: 10 * h, endTs: 11 * h, ongoing: false }, 20 * h)).toEqual([9 * h, 12 * h]);
    expect(historyWindow({ startTs: 10 * h, endTs: null, ongoing: true }, 10.5 * h)).toEqual([9 * h, 10.5 * h]);
  });
});

it('tells data categories from connection ones', () => {
  expect(isDataCategory('temp_high')).toBe(true);
  expect(isDataCategory('gateway_blackout')).toBe(false);
});
