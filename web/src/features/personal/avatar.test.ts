import { describe, expect, it } from 'vitest';
import { checkAvatar } from './avatar';

describe('avatar check (JPG, JPEG or PNG under 2 MB)', () => {
  it.each([
    [{ name: 'me.png', type: 'image/png', size: 1000 }, undefined],
    [{ name: 'me.JPEG', type: 'image/jpeg', size: 2 * 1024 * 1024 - 1 }, undefined],
    [{ name: 'me.jpg', type: '', size: 10 }, undefined],
    [{ name: 'me.gif', type: 'image/gif', size: 10 }, 'type'],
    [{ name: 'me.png', type: 'application/pdf', size: 10 }, 'type'],
    [{ name: 'me.png', type: 'image/png', size: 2 * 1024 * 1024 }, 'size'],
  ])('%o → %s', (file, want) => {
    expect(checkAvatar(file)).toBe(want);
  });
});
