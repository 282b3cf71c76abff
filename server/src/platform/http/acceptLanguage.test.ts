import { describe, expect, it } from 'vitest';
import { acceptedLocale } from './envelope.js';

describe('Accept-Language (spec §1, after the cookie and the stored setting)', () => {
  it('takes the first of our four languages by weight, in the order given when weights tie', () => {
    expect(acceptedLocale('ja-JP,ja;q=0.9,en;q=0.8')).toBe('ja-JP');
    expect(acceptedLocale('fr-FR, es;q=0.7, en;q=0.8')).toBe('en-US');
    expect(acceptedLocale('es-MX,es;q=0.9')).toBe('es-ES');
    expect(acceptedLocale('zh-TW')).toBe('zh-CN');
  });
  it('skips languages it does not offer and those refused with q=0', () => {
    expect(acceptedLocale('de-DE, ja;q=0, es;q=0.5')).toBe('es-ES');
    expect(acceptedLocale('de, fr')).toBeUndefined();
    expect(acceptedLocale('')).toBeUndefined();
  });
});
