import { describe, expect, it } from 'vitest';
import { fmtNumber, fmtValue, fmtZone, formatInZone, formatSize, fromWall, rangeState, toWall } from './format';

describe('rangeState', () => {
  it('is high above max, low below min, ok inside and at the limits', () => {
    expect(rangeState(8.1, 2, 8)).toBe('high');
    expect(rangeState(1.9, 2, 8)).toBe('low');
    expect(rangeState(2, 2, 8)).toBe('ok');
    expect(rangeState(8, 2, 8)).toBe('ok');
  });
  it('has no state without a value, and open ends never trip', () => {
    expect(rangeState(null, 2, 8)).toBe('none');
    expect(rangeState(undefined, 2, 8)).toBe('none');
    expect(rangeState(100, null, null)).toBe('ok');
    expect(rangeState(-100, null, 8)).toBe('ok');
  });
});

describe('formatInZone', () => {
  it('shows the time in the given offset', () => {
    const ts = Date.UTC(2025, 0, 1, 23, 30, 0);
    expect(formatInZone(ts, '+08:00')).toBe('2025-01-02 07:30:00');
    expect(formatInZone(ts, '-05:30')).toBe('2025-01-01 18:00:00');
    expect(formatInZone(null, '+08:00')).toBe('');
  });
});

describe('values and zones', () => {
  it('one decimal, -- when missing; a zone with open ends', () => {
    expect(fmtValue(4.25)).toBe('4.3');
    expect(fmtValue(null)).toBe('--');
    expect(fmtZone(2, 8)).toBe('2.0 ~ 8.0');
    expect(fmtZone(null, 8)).toBe('-- ~ 8.0');
    expect(fmtZone(null, null)).toBe('');
  });
  it('numbers without trailing zeros, sizes in B and KB', () => {
    expect(fmtNumber(4.5)).toBe('4.5');
    expect(fmtNumber(4.256)).toBe('4.26');
    expect(fmtNumber(4)).toBe('4');
    expect(fmtNumber(null)).toBe('--');
    expect(formatSize(512)).toBe('512 B');
  });
});

describe('wall clock of a zone', () => {
  it('round-trips an instant through the picker value', () => {
    const ts = Date.UTC(2025, 5, 30, 20, 15, 0);
    for (const tz of ['+08:00', '-05:30', '+00:00', null]) expect(fromWall(toWall(ts, tz), tz)).toBe(ts);
  });
  it('shows the zone time in the picker value', () => {
    const w = toWall(Date.UTC(2025, 0, 1, 23, 30), '+08:00');
    expect(w.format('YYYY-MM-DD HH:mm')).toBe('2025-01-02 07:30');
    // start of that day in the zone is 2025-01-01 16:00 UTC
    expect(fromWall(w.startOf('day'), '+08:00')).toBe(Date.UTC(2025, 0, 1, 16, 0));
  });
});
