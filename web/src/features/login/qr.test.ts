import { describe, expect, it } from 'vitest';
import { Code } from '@coldwatch/contract';
import { ApiError } from '../../api/client';
import { countdown, qrGone } from './qr';

describe('login QR', () => {
  it('counts down in minutes and seconds', () => {
    expect(countdown(5 * 60_000)).toBe('05:00');
    expect(countdown(61_001)).toBe('01:02');
    expect(countdown(-5)).toBe('00:00');
  });

  it('stops polling a code the server no longer knows for this browser, not one that failed in passing', () => {
    expect(qrGone(new ApiError(Code.FAILED, 'Unknown login QR code, please refresh it', 200))).toBe(true);
    expect(qrGone(new ApiError(Code.FAILED, 'Too many requests, please wait a moment', 429))).toBe(false);
    expect(qrGone(new ApiError(Code.FAILED, 'Server error', 500))).toBe(false);
    expect(qrGone(new ApiError(0, 'offline', 0))).toBe(false);
    expect(qrGone(new Error('x'))).toBe(false);
  });
});
