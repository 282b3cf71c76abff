import { describe, expect, it } from 'vitest';
import { chooseLanguage, readCookie } from './lang';

describe('language choice (spec §1: cookie, stored setting, browser, Chinese)', () => {
  it('takes the cookie first', () => {
    expect(chooseLanguage({ cookie: 'en-US', stored: 'zh-CN', browser: ['zh-CN'] })).toBe('en-US');
    expect(chooseLanguage({ cookie: 'zh_CN', stored: 'en-US', browser: ['en-US'] })).toBe('zh-CN');
  });
  it('then the stored setting', () => {
    expect(chooseLanguage({ cookie: undefined, stored: 'en_US', browser: ['zh-CN'] })).toBe('en-US');
  });
  it('ignores values it does not offer and falls through', () => {
    expect(chooseLanguage({ cookie: 'fr-FR', stored: 'de', browser: ['ko-KR', 'en-GB'] })).toBe('en-US');
  });
  it('offers Japanese and Spanish too', () => {
    expect(chooseLanguage({ cookie: 'ja-JP', stored: 'en-US' })).toBe('ja-JP');
    expect(chooseLanguage({ stored: 'es_ES', browser: ['zh-CN'] })).toBe('es-ES');
    expect(chooseLanguage({ browser: ['fr-FR', 'ja', 'en-US'] })).toBe('ja-JP');
    expect(chooseLanguage({ browser: ['es-MX'] })).toBe('es-ES');
  });
  it('then the browser languages in order', () => {
    expect(chooseLanguage({ browser: ['en-GB', 'zh-CN'] })).toBe('en-US');
    expect(chooseLanguage({ browser: ['zh-TW'] })).toBe('zh-CN');
  });
  it('defaults to Chinese', () => {
    expect(chooseLanguage({})).toBe('zh-CN');
    expect(chooseLanguage({ cookie: '', stored: null, browser: ['de-DE'] })).toBe('zh-CN');
  });
  it('reads a cookie out of document.cookie', () => {
    expect(readCookie('lang', 'a=1; lang=en-US; b=2')).toBe('en-US');
    expect(readCookie('lang', 'xlang=en-US')).toBeUndefined();
  });
});
