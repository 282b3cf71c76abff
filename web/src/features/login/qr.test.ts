import { describe, expect, it } from 'vitest';
import { countdown, normalizeQr, QR_VALID_MS } from './qr';

describe('login QR', () => {
  it('counts down in minutes and seconds', () => {
    expect(countdown(5 * 60_000)).toBe('05:00');
    expect(countdown(61_001)).toBe('01:02');
    expect(countdown(-5)).toBe('00:00');
  });
  it('fills a missing expiry with five minutes', () => {
    expect(normalizeQr({ key: 'k', qrcode: 'data:' }, 1000).expiresAt).toBe(1000 + QR_VALID_MS);
    expect(normalizeQr({ key: 'k', qrcode: 'data:', expiresAt: 5 }, 1000).expiresAt).toBe(5);
  });
});
