import { describe, expect, it } from 'vitest';
import { countdown } from './qr';

describe('login QR', () => {
  it('counts down in minutes and seconds', () => {
    expect(countdown(5 * 60_000)).toBe('05:00');
    expect(countdown(61_001)).toBe('01:02');
    expect(countdown(-5)).toBe('00:00');
  });
});
