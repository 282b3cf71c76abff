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
    expect(chooseLanguage({ cookie: 'ja-JP', stored: 'es', browser: ['fr-FR', 'en-GB'] })).toBe('en-US');
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
