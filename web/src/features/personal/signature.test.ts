import { describe, expect, it } from 'vitest';
import { formatSize } from '../../lib/format';
import { checkSignature } from './signature';

describe('checkSignature', () => {
  it('accepts PNG and JPG under 500 KB', () => {
    expect(checkSignature({ name: 'sign.png', type: 'image/png', size: 10_000 })).toBeUndefined();
    expect(checkSignature({ name: 'SIGN.JPG', type: 'image/jpeg', size: 500 * 1024 - 1 })).toBeUndefined();
    expect(checkSignature({ name: 'sign.jpeg', type: '', size: 1 })).toBeUndefined();
  });
  it('refuses other types', () => {
    expect(checkSignature({ name: 'sign.gif', type: 'image/gif', size: 10 })).toBe('type');
    expect(checkSignature({ name: 'sign.png', type: 'application/pdf', size: 10 })).toBe('type');
    expect(checkSignature({ name: 'sign', size: 10 })).toBe('type');
  });
  it('refuses 500 KB and more', () => {
    expect(checkSignature({ name: 'sign.png', type: 'image/png', size: 500 * 1024 })).toBe('size');
    expect(checkSignature({ name: 'sign.jpg', type: 'image/jpeg', size: 2 * 1024 * 1024 })).toBe('size');
  });
});

describe('formatSize', () => {
  it('shows bytes and kilobytes', () => {
    expect(formatSize(512)).toBe('512 B');
    expect(formatSize(2048)).toBe('2.0 KB');
  });
});
