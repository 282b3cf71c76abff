import { DEFAULT_LOCALE, toLocale, type Locale } from '@coldwatch/contract';
import { catalogues, fill, fmtDuration, fmtTime, fmtValue, type DeviceMailFacts, type MailFacts } from './templates.js';

/**
 * The short texts (SMS, and what a voice call reads) and the notices beside the first alarm:
 * repeats, escalation, the end of an alarm pause, calibration expiry. Mail texts of the first
 * alarm stay in templates.ts. All come from packages/contract/locales/<lang>/notice.json.
 */

/** A recipient's language: the contact's own (migration 0042), else the customer's. */
export const recipientLocale = (contactLocale: string | null | undefined, customer: Locale): Locale => toLocale(contactLocale) ?? customer ?? DEFAULT_LOCALE;

/** "11-22 08:01" in the customer's zone: an SMS has no room for the year, the seconds or the offset. */
export const fmtShortTime = (ms: number, tz: string) => fmtTime(ms, tz).slice(5, 16);

/** GSM 03.38's basic set; the extension characters (^{}\[~]|€ and form feed) take two septets. */
const GSM_BASIC = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXT = '^{}\\[~]|€\f';

/**
 * How many SMS segments a text takes: GSM 7-bit when every character is in the GSM set (160 in
 * one segment, 153 each when concatenated), else UCS-2 (70, then 67 each; a character outside
 * the BMP counts twice). Chinese texts are always UCS-2.
 */
export function smsSegments(text: string): { encoding: 'gsm7' | 'ucs2'; units: number; segments: number } {
  let septets = 0;
  let gsm = true;
  for (const ch of text) {
    if (GSM_BASIC.includes(ch)) septets += 1;
    else if (GSM_EXT.includes(ch)) septets += 2;
    else {
      gsm = false;
      break;
    }
  }
  if (gsm) return { encoding: 'gsm7', units: septets, segments: septets <= 160 ? 1 : Math.ceil(septets / 153) };
  const units = text.length; // UTF-16 code units
  return { encoding: 'ucs2', units, segments: units <= 70 ? 1 : Math.ceil(units / 67) };
}

/** What an SMS about a data exception says; `repeat` and `escalation` make it a reminder or an escalation. */
export function renderAlarmSms(f: MailFacts, locale: Locale, follow?: { repeat: number } | { escalationMinutes: number }): string {
  const c = catalogues[locale];
  const s = c.sms;
  const vars: Record<string, string> = {
    carrier: f.carrier || c.noCarrier,
    category: c.category[f.category],
    unit: s.unit[f.field],
    value: fmtValue(f.first),
    peak: fmtValue(f.peak),
    min: fmtValue(f.limitMin),
    max: fmtValue(f.limitMax),
    time: fmtShortTime(f.start, f.tz),
    duration: f.end === null ? '' : fmtDuration(Math.round((f.end - f.start) / 1000), locale),
  };
  if (follow && 'repeat' in follow) return fill(s.repeat, { ...vars, n: String(follow.repeat) });
  if (follow) return fill(s.escalation, { ...vars, minutes: String(follow.escalationMinutes) });
  return fill(f.end === null ? s.alarm : s.alarmPast, vars);
}

/** What an SMS about a connection, power or battery exception says. */
export function renderDeviceSms(f: DeviceMailFacts, locale: Locale): string {
  const c = catalogues[locale];
  return fill(c.sms.device, { where: f.carriers || f.device, category: c.device.category[f.category], device: f.device, time: fmtShortTime(f.start, f.tz) });
}

/** A mail sent again (a repeat) or passed on to the next alarm level (an escalation): the first mail with a line before it. */
export function renderFollowUp(mail: { subject: string; content: string }, locale: Locale, follow: { repeat: number } | { escalationMinutes: number }) {
  const u = catalogues[locale].followUp;
  const vars: Record<string, string> = 'repeat' in follow ? { n: String(follow.repeat), subject: mail.subject } : { minutes: String(follow.escalationMinutes), subject: mail.subject };
  const [subject, intro] = 'repeat' in follow ? [u.repeatSubject, u.repeatIntro] : [u.escalationSubject, u.escalationIntro];
  return { subject: fill(subject, vars).slice(0, 200), content: fill(intro, vars) + mail.content };
}

export interface PauseEndFacts {
  customer: string;
  carrier: string;
  start: number;
  end: number;
  reason: string;
  tz: string;
}

/** The notice that an alarm pause has ended (its mail and its SMS). */
export function renderPauseEnd(f: PauseEndFacts, locale: Locale) {
  const c = catalogues[locale];
  const vars = { customer: f.customer, carrier: f.carrier, start: fmtTime(f.start, f.tz), end: fmtTime(f.end, f.tz), reason: f.reason || '-', time: fmtShortTime(f.end, f.tz) };
  return { subject: fill(c.pauseEnd.subject, vars).slice(0, 200), content: fill(c.pauseEnd.body, vars), sms: fill(c.sms.pauseEnd, vars) };
}

export interface CalibrationFacts {
  customer: string;
  carrier: string | null;
  devNo: string;
  /** The calibration's expiry date, YYYY-MM-DD (a date, no zone). */
  expiry: string;
}

/** The calibration expiry notice (its mail and its SMS). */
export function renderCalibration(f: CalibrationFacts, locale: Locale) {
  const c = catalogues[locale];
  const vars = { customer: f.customer, carrier: f.carrier || c.noCarrier, devNo: f.devNo, date: f.expiry };
  return { subject: fill(c.calibration.subject, vars).slice(0, 200), content: fill(c.calibration.body, vars), sms: fill(c.sms.calibration, vars) };
}
