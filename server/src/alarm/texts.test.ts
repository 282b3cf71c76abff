import { describe, expect, it } from 'vitest';
import { DEVICE_EXCEPTION_TYPE, LOCALES } from '@coldwatch/contract';
import { fmtShortTime, recipientLocale, renderAlarmSms, renderCalibration, renderDeviceSms, renderFollowUp, renderPauseEnd, smsSegments } from './texts.js';
import { renderAlarm, type MailFacts } from './templates.js';

const T = Date.UTC(2026, 10, 22, 0, 1, 0);
const facts = (over: Partial<MailFacts> = {}): MailFacts => ({
  customer: 'Demo Hospital', carrier: '疫苗冰箱二号', devNo: 'T9000001', category: 'temp_high', field: 'temp',
  first: 9.5, peak: 11.25, limitMin: 2, limitMax: 8, start: T, end: null, tz: '+08:00', ...over,
});

describe('SMS texts', () => {
  it('counts segments: 160 GSM characters or 70 UCS-2 in one, 153 and 67 when concatenated', () => {
    expect(smsSegments('a'.repeat(160))).toEqual({ encoding: 'gsm7', units: 160, segments: 1 });
    expect(smsSegments('a'.repeat(161))).toEqual({ encoding: 'gsm7', units: 161, segments: 2 });
    expect(smsSegments('{'.repeat(80)).segments).toBe(1); // extension characters take two septets
    expect(smsSegments('{'.repeat(81)).segments).toBe(2);
    expect(smsSegments('冷'.repeat(70))).toEqual({ encoding: 'ucs2', units: 70, segments: 1 });
    expect(smsSegments('冷'.repeat(71)).segments).toBe(2);
    expect(smsSegments('冷'.repeat(135)).segments).toBe(3);
    // One character outside GSM (°) turns the whole text into UCS-2.
    expect(smsSegments(`${'a'.repeat(80)}°`)).toMatchObject({ encoding: 'ucs2', segments: 2 });
  });

  it('fit one segment for every category, follow-up and notice kind, in every language', () => {
    for (const locale of LOCALES) {
      const texts: string[] = [];
      for (const category of ['temp_high', 'temp_low', 'hum_high', 'hum_low'] as const) {
        const f = facts({ category, field: category.startsWith('temp') ? 'temp' : 'hum', carrier: locale === 'zh-CN' ? '疫苗冰箱二号' : 'Vaccine Fridge 2' });
        texts.push(renderAlarmSms(f, locale), renderAlarmSms({ ...f, end: T + 3_723_000 }, locale));
        texts.push(renderAlarmSms(f, locale, { repeat: 3 }), renderAlarmSms(f, locale, { escalationMinutes: 30 }));
      }
      for (const category of Object.keys(DEVICE_EXCEPTION_TYPE) as (keyof typeof DEVICE_EXCEPTION_TYPE)[])
        texts.push(renderDeviceSms({ customer: 'D', carriers: 'Fridge 2', kind: 'gateway', device: 'A4C1380001 GW 1', category, start: T, last: null, end: null, tz: '+08:00' }, locale));
      texts.push(renderPauseEnd({ customer: 'D', carrier: 'Vaccine Fridge 2', start: T, end: T + 7200_000, reason: 'defrost', tz: '+08:00' }, locale).sms);
      texts.push(renderCalibration({ customer: 'D', carrier: 'Vaccine Fridge 2', devNo: 'T9000001', expiry: '2026-12-31' }, locale).sms);
      for (const t of texts) {
        expect(t).not.toMatch(/\{\{/);
        // Chinese and Japanese are UCS-2 (70 characters); English and Spanish (worded without á í ó ú) GSM-7.
        expect(smsSegments(t), `${locale}: ${t}`).toMatchObject({ segments: 1, encoding: locale === 'zh-CN' || locale === 'ja-JP' ? 'ucs2' : 'gsm7' });
      }
    }
  });

  it('say carrier, value, range and time in the customer\'s zone', () => {
    expect(renderAlarmSms(facts(), 'zh-CN')).toBe('【冷链告警】疫苗冰箱二号温度超过上限，读数9.5°C（范围2~8），11-22 08:01起');
    expect(renderAlarmSms(facts({ carrier: 'Fridge 2' }), 'en-US')).toBe('Coldwatch alarm: Fridge 2 Temperature above the upper limit 9.5C (range 2-8) since 11-22 08:01');
    expect(fmtShortTime(T, '-05:00')).toBe('11-21 19:01');
    // A long carrier name takes more segments, and the count says how many.
    expect(smsSegments(renderAlarmSms(facts({ carrier: '第三住院部二楼西区药房疫苗专用医用冷藏冰箱（备用二号，存放乙肝及流感疫苗）' }), 'zh-CN')).segments).toBe(2);
  });
});

describe('notice texts beside the first alarm', () => {
  it('a repeat and an escalation carry the first mail with a line before it', () => {
    const mail = renderAlarm(facts({ carrier: 'Fridge 2' }), 'en-US');
    const r = renderFollowUp(mail, 'en-US', { repeat: 2 });
    expect(r.subject).toBe(`[Coldwatch reminder 2] ${mail.subject}`);
    expect(r.content.endsWith(mail.content)).toBe(true);
    expect(renderFollowUp(mail, 'zh-CN', { escalationMinutes: 15 }).content).toMatch(/^该异常在15分钟内无人确认/);
  });

  it('the language is the contact\'s, else the customer\'s', () => {
    expect(recipientLocale('en-US', 'zh-CN')).toBe('en-US');
    expect(recipientLocale(null, 'zh-CN')).toBe('zh-CN');
    expect(recipientLocale('xx', 'en-US')).toBe('en-US');
  });
});
