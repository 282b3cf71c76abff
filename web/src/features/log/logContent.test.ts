import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import en from '../../locales/en-US/syslog.json';
import zh from '../../locales/zh-CN/syslog.json';
import { logContent } from './logContent';

const i18n = i18next.createInstance();
await i18n.init({ lng: 'zh-CN', resources: { 'zh-CN': { syslog: zh }, 'en-US': { syslog: en } }, interpolation: { escapeValue: false } });

describe('system log content in the reader\'s language', () => {
  const zhT = i18n.getFixedT('zh-CN');
  const enT = i18n.getFixedT('en-US');
  it('names the action, the object and the record', () => {
    const row = { module: 'contact', method: 'add', content: 'add contact Li Wei', params: { name: 'Li Wei', phone: '1' } };
    expect(logContent(zhT, row)).toBe('新增联系人：Li Wei');
    expect(logContent(enT, row)).toBe('Add contact: Li Wei');
    expect(logContent(zhT, { module: 'carrier', method: 'del', content: 'delete carriers 3,4', params: { ids: [3, 4] } })).toBe('删除载体：#3, #4');
    expect(logContent(enT, { module: 'param', method: 'update', content: 'set a = b', params: { key: 'map_tile_url', value: '' } })).toBe('Update parameter: map_tile_url = ');
  });
  it('keeps the server line for a method it does not know', () => {
    expect(logContent(zhT, { module: 'x', method: 'frobnicate', content: 'frobnicated', params: {} })).toBe('frobnicated');
  });
});
