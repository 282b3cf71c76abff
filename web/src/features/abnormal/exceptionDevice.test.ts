import { describe, expect, it } from 'vitest';
import zhAbnormal from '../../locales/zh-CN/abnormal.json';
import enAbnormal from '../../locales/en-US/abnormal.json';
import zhHome from '../../locales/zh-CN/home.json';
import enHome from '../../locales/en-US/home.json';
import zhNotice from '../../../../packages/contract/locales/zh-CN/notice.json';
import enNotice from '../../../../packages/contract/locales/en-US/notice.json';
import { deviceOf, deviceText } from './exceptionFormat';

describe('the device an exception names', () => {
  it('is its sensor, the carrier value, else its gateway (gateway, display and relay exceptions), else nothing', () => {
    expect(deviceOf({ devNo: 'T1', gatewaySn: 'A4C1', gatewayName: 'GW', type: 'offline', carrierId: 1 })).toEqual({ devNo: 'T1' });
    expect(deviceOf({ devNo: null, gatewaySn: 'A4C1', type: 'data', carrierId: 1 })).toEqual({ carrierValue: true });
    expect(deviceOf({ devNo: null, gatewaySn: 'A4C1', gatewayName: 'Cold room GW', type: 'power', carrierId: 1 })).toEqual({ gateway: 'A4C1 · Cold room GW' });
    expect(deviceOf({ devNo: null, gatewaySn: 'A4C1', gatewayName: 'A4C1', type: 'offline', carrierId: null })).toEqual({ gateway: 'A4C1' });
    expect(deviceText({ devNo: null, gatewaySn: null, type: 'offline', carrierId: null }, 'Carrier value')).toBe('--');
    // The detail (and /exDetail) has no carrier id: a data exception without a sensor is the carrier value there too.
    expect(deviceText({ devNo: null, type: 'data' }, 'Carrier value')).toBe('Carrier value');
  });
});

describe('one name per exception category', () => {
  const notice = (n: typeof zhNotice) => (n as unknown as { notice: { device: { category: Record<string, string> } } }).notice.device.category;
  it.each([
    ['zh-CN', zhAbnormal, zhHome, zhNotice],
    ['en-US', enAbnormal, enHome, enNotice],
  ] as const)('the list, the home widgets and the mail say the same (%s)', (_lang, abnormal, home, mail) => {
    const list = (abnormal as { category: Record<string, string> }).category;
    const widgets = (home as unknown as { category: Record<string, string> }).category;
    for (const [k, v] of Object.entries(notice(mail))) {
      expect(list[k], k).toBe(v);
      if (widgets[k] !== undefined) expect(widgets[k], k).toBe(v);
    }
  });
});
