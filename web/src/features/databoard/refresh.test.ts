import { describe, expect, it } from 'vitest';
import { refreshDownS, REFRESH_DOWN_S } from './useLiveRows';

describe('monitoring auto-refresh (spec §3)', () => {
  it('follows the parameter, and its default while it is missing or not a number', () => {
    expect(refreshDownS('120')).toBe(120);
    expect(refreshDownS('10')).toBe(10);
    expect(refreshDownS(undefined)).toBe(REFRESH_DOWN_S);
    expect(refreshDownS('')).toBe(REFRESH_DOWN_S);
    expect(refreshDownS('x')).toBe(REFRESH_DOWN_S);
  });
});
