import { describe as group, expect, it } from 'vitest';
import i18next from 'i18next';
import type { ComplianceFinding } from '@coldwatch/contract';
import en from '../../locales/en-US/compliance.json';
import zh from '../../locales/zh-CN/compliance.json';
import { describe, duration, fixesOf, placeOf } from './findings';

const i18n = i18next.createInstance();
await i18n.init({ lng: 'en-US', resources: { 'en-US': { compliance: en }, 'zh-CN': { compliance: zh } }, defaultNS: 'compliance', interpolation: { escapeValue: false } });
const t = i18n.getFixedT('en-US', 'compliance');
const tz = i18n.getFixedT('zh-CN', 'compliance');

const base: ComplianceFinding = {
  key: 'k', check: 'interval', rule: 'storage', severity: 'fail', customerId: 1, customerName: 'C', carrierId: 7, carrierName: 'Fridge',
  sensorId: 9, devNo: 'T1', value: 3600, limit: 1800, source: 'sensor', calibExpiry: null, sms: null, backup: null,
};
const sms: ComplianceFinding = { ...base, check: 'smsReach', rule: 'sms', sensorId: null, devNo: null, value: 0, limit: 3, source: null, sms: { mobiles: 2, channel: false, customer: false, alarmOn: true } };
const backup: ComplianceFinding = {
  ...base, key: 'b', check: 'backup', rule: 'backupDaily', customerId: null, customerName: null, carrierId: null, carrierName: null, sensorId: null, devNo: null,
  value: 0, limit: 26, source: null, backup: { lastAt: null, failedAt: null, nextRunAt: null },
};
const everything = () => true;

group('GSP findings in words', () => {
  it('says intervals as the rule does', () => {
    expect(duration(t, 1800)).toBe('30 min');
    expect(duration(t, 90)).toBe('90 s');
    expect(duration(tz, 300)).toBe('5 分钟');
  });

  it('names the interval found, the limit and where the interval comes from', () => {
    expect(describe(t, base)).toEqual({ text: 'Records every 60 min in storage; the rule allows at most 30 min.', notes: ["From the sensor's sample interval."] });
    const oor = describe(t, { ...base, rule: 'outOfRange', value: 600, limit: 120, source: 'config' });
    expect(oor.text).toBe('Records every 10 min while out of range; the rule allows at most 2 min.');
    expect(oor.notes).toEqual(['As the device was last configured.', 'No exception interval is configured, so the normal interval applies out of range too.']);
    expect(describe(t, { ...base, rule: 'outOfRange', value: 180, limit: 120, source: 'exception' }).notes).toEqual(['The exception interval the device was last configured with.']);
    expect(describe(tz, { ...base, rule: 'transport', value: 600, limit: 300 }).text).toBe('运输过程每 10 分钟记录一次，规定最长 5 分钟。');
  });

  it('says why an alarm reaches too few people by SMS', () => {
    expect(describe(t, sms)).toEqual({
      text: 'Alarms reach 0 of the 3 people needed by SMS.',
      notes: ['2 alarm contacts have a mobile number.', "SMS is not among the monitoring point's alarm methods.", 'SMS notification is off for the customer (switched by the platform).'],
    });
    expect(describe(t, { ...sms, value: 1, sms: { mobiles: 1, channel: true, customer: true, alarmOn: false } }).notes).toEqual(['1 alarm contact has a mobile number.', "The monitoring point's alarm is switched off."]);
  });

  it('dates a calibration', () => {
    const cal = { ...base, check: 'calibration' as const, source: null, limit: 30, calibExpiry: '2026-01-31' };
    expect(describe(t, { ...cal, rule: 'expired', value: -3 }).text).toBe('Calibration expired on 2026-01-31, 3 days ago.');
    expect(describe(t, { ...cal, rule: 'expiring', value: 1 }).text).toBe('Calibration expires on 2026-01-31, in 1 day.');
    expect(describe(t, { ...cal, rule: 'expiring', value: 0 }).text).toBe('Calibration expires today (2026-01-31).');
  });

  it('says how old the last good backup is, whether a later one failed and when the next runs', () => {
    expect(describe(t, backup)).toEqual({ text: 'No backup of the database has completed yet.', notes: [] });
    const old = describe(t, { ...backup, value: 50, backup: { lastAt: Date.UTC(2026, 0, 1), failedAt: Date.UTC(2026, 0, 2), nextRunAt: Date.UTC(2026, 0, 3) } });
    expect(old.text).toMatch(/^The last good backup of the database started .+, 50 hours ago; the rule asks for one every day\.$/);
    expect(old.notes).toHaveLength(2);
    expect(old.notes[0]).toMatch(/^The backup of .+ failed\.$/);
    expect(old.notes[1]).toMatch(/^The next backup runs .+\.$/);
    expect(describe(tz, backup).text).toBe('数据库尚无一次完成的备份。');
  });
});

group('where a finding is fixed', () => {
  it('leads to the sensor or the monitoring point', () => {
    expect(placeOf(base)).toBe('/SensorDetail?id=9');
    expect(placeOf(sms)).toBe('/carrierDetailPage?id=7');
    expect(placeOf(backup)).toBe('/sys/backup');
  });

  it('offers the changes that clear it, those the caller may make', () => {
    expect(fixesOf(base, everything)).toEqual(['editSensor', 'configure']);
    expect(fixesOf({ ...base, source: 'config' }, everything)).toEqual(['configure']);
    expect(fixesOf(sms, everything)).toEqual(['editCarrier', 'customer']);
    expect(fixesOf(sms, (c) => c !== 'editCustomer')).toEqual(['editCarrier']);
    expect(fixesOf({ ...sms, sms: { ...sms.sms!, customer: true } }, everything)).toEqual(['editCarrier']);
    expect(fixesOf({ ...base, check: 'calibration', rule: 'expired' }, everything)).toEqual(['editSensor']);
    expect(fixesOf(base, () => false)).toEqual([]);
    expect(fixesOf(backup, everything)).toEqual(['backups']);
    expect(fixesOf(backup, (c) => c !== 'viewParam')).toEqual([]);
  });
});
