import { DEFAULT_LOCALE, LOW_BATTERY_MARGIN_V, toLocale, type DeviceExceptionCategory, type Locale } from '@coldwatch/contract';
// The mail texts live beside the server messages in the contract's catalogues, one file per
// language, so translators find every user-facing string in one place.
import en from '../../../packages/contract/locales/en-US/notice.json' with { type: 'json' };
import zh from '../../../packages/contract/locales/zh-CN/notice.json' with { type: 'json' };
import ja from '../../../packages/contract/locales/ja-JP/notice.json' with { type: 'json' };
import es from '../../../packages/contract/locales/es-ES/notice.json' with { type: 'json' };
import type { Queryable } from '../platform/db/client.js';
import type { DataCategory, Field } from './segments.js';

type Catalogue = typeof en.notice;
/** The notice texts of each language (texts.ts renders the SMS and follow-up ones from them too). */
export const catalogues: Record<Locale, Catalogue> = { 'en-US': en.notice, 'zh-CN': zh.notice, 'ja-JP': ja.notice, 'es-ES': es.notice };

export interface MailFacts {
  customer: string;
  carrier: string;
  devNo: string;
  category: DataCategory;
  field: Field;
  first: number;
  peak: number;
  limitMin: number;
  limitMax: number;
  start: number;
  /** Set for an excursion that is already over when it is first seen (back-filled readings). */
  end: number | null;
  /** Customer time zone, "+08:00". */
  tz: string;
}

export const fill = (text: string, vars: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (m, k: string) => vars[k] ?? m);

/** 4.5 → "4.5", 4.52000004 (float4) → "4.52": readings carry at most two decimals. */
export const fmtValue = (v: number) => String(Number(v.toFixed(2)));

/** UTC ms → "2024-11-22 08:20:00 (UTC+08:00)" in the customer's zone: times are local at the edge. */
export function fmtTime(ms: number, tz: string): string {
  const m = /^([+-])(\d{2}):(\d{2})$/.exec(tz);
  const offset = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000 : 0;
  const iso = new Date(ms + offset).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} (UTC${m ? tz : '+00:00'})`;
}

export function fmtDuration(seconds: number, locale: Locale): string {
  const d = catalogues[locale].duration;
  const h = Math.floor(seconds / 3600);
  const min = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const parts: string[] = [];
  if (h) parts.push(fill(d.h, { n: String(h) }));
  if (min) parts.push(fill(d.m, { n: String(min) }));
  if (s || parts.length === 0) parts.push(fill(d.s, { n: String(s) }));
  return parts.join(locale === 'zh-CN' || locale === 'ja-JP' ? '' : ' ');
}

/** Subject and plain-text body of an alarm mail in one language. */
export function renderAlarm(f: MailFacts, locale: Locale): { subject: string; content: string } {
  const c = catalogues[locale];
  const t = f.end === null ? c.alarm : c.alarmPast;
  const vars: Record<string, string> = {
    customer: f.customer,
    carrier: f.carrier,
    devNo: f.devNo,
    category: c.category[f.category],
    unit: c.unit[f.field],
    value: fmtValue(f.first),
    peak: fmtValue(f.peak),
    min: fmtValue(f.limitMin),
    max: fmtValue(f.limitMax),
    start: fmtTime(f.start, f.tz),
    end: f.end === null ? '' : fmtTime(f.end, f.tz),
    duration: f.end === null ? '' : fmtDuration(Math.round((f.end - f.start) / 1000), locale),
  };
  return { subject: fill(t.subject, vars).slice(0, 200), content: fill(t.body, vars) };
}

/** What a connection, power or battery mail says (docs/alarms.md "Connection, power and battery"). */
export interface DeviceMailFacts {
  customer: string;
  /** The monitoring point (or, for a gateway, the points it serves), comma separated; empty: none. */
  carriers: string;
  kind: 'sensor' | 'gateway' | 'display' | 'relay';
  device: string;
  category: DeviceExceptionCategory | 'retention';
  start: number;
  /** The last contact before the silence (connection), or null when none is known. */
  last: number | null;
  /** Set when the exception is already over when first written (a late power_fail whose restore is known). */
  end: number | null;
  /** Low battery: the voltage read (null when a gateway event reported it) and the threshold. */
  volt?: number | null;
  threshold?: number | null;
  /** Retention (a vehicle stopped on a trip): the radius and the minutes its customer allows. */
  stay?: { radiusM: number; minutes: number };
  tz: string;
}

/** Subject and plain-text body of a device exception's mail in one language. */
export function renderDeviceAlarm(f: DeviceMailFacts, locale: Locale): { subject: string; content: string } {
  const d = catalogues[locale].device;
  const carrier = f.carriers || d.noCarrier;
  const vars: Record<string, string> = {
    customer: f.customer,
    carrier,
    where: f.carriers || f.device,
    kind: d.kind[f.kind],
    device: f.device,
    category: d.category[f.category],
    start: fmtTime(f.start, f.tz),
    last: f.last === null ? d.never : fmtTime(f.last, f.tz),
    ended: f.end === null ? '' : fill(d.ended, { end: fmtTime(f.end, f.tz), duration: fmtDuration(Math.max(0, Math.round((f.end - f.start) / 1000)), locale) }),
    voltage: f.volt === null || f.volt === undefined ? d.voltageEvent : fill(d.voltage, { value: fmtValue(f.volt), threshold: fmtValue(f.threshold ?? 0) }),
    recovered: fmtValue((f.threshold ?? 0) + LOW_BATTERY_MARGIN_V),
    radius: String(f.stay?.radiusM ?? ''),
    minutes: String(f.stay?.minutes ?? ''),
  };
  const body = { gateway_blackout: d.blackout, low_battery: d.battery, retention: d.retention }[f.category as string] ?? d.connection;
  return { subject: fill(f.end === null ? d.subject : d.subjectPast, vars).slice(0, 200), content: fill(body, vars) };
}

/**
 * The paragraph that closes an exception's mail when the console has a PUBLIC_URL: the
 * /exDetail link (alarm/exceptionLink.ts). The notifier adds it as it sends the mail, so
 * that the link's 7 days count from the sending and no token is stored in the notice log.
 */
export function renderDetailLink(url: string, locale: Locale): string {
  return `\n\n${fill(catalogues[locale].exDetail.link, { url })}`;
}

/**
 * The language of a customer's mail. Customers have no language field; the best evidence is
 * the interface language its people chose (stored when they switch it), an administrator's
 * first. Without any, Chinese, the product's default (spec §1).
 */
export async function customerLocale(q: Queryable, customerId: number): Promise<Locale> {
  const rows = await q.query<{ locale: string }>(
    `SELECT locale FROM app_user WHERE customer_id = $1 AND locale IS NOT NULL AND status = 1 ORDER BY is_admin DESC, id LIMIT 1`,
    [customerId],
  );
  return toLocale(rows[0]?.locale) ?? DEFAULT_LOCALE;
}

/**
 * The language of one notice's recipient: the contact with that address (its e-mail, or its
 * phone for SMS and voice) and its own language, else the customer's. The notifier writes the
 * /exDetail line in it, so a mail is in one language from subject to link.
 */
export async function noticeLocale(q: Queryable, customerId: number, channel: string, recipient: string): Promise<Locale> {
  const rows = await q.query<{ locale: string | null }>(
    `SELECT locale FROM contact WHERE customer_id = $1 AND (CASE WHEN $2 = 'email' THEN email ELSE phone END) = $3 AND locale IS NOT NULL ORDER BY id LIMIT 1`,
    [customerId, channel, recipient],
  );
  return toLocale(rows[0]?.locale) ?? (await customerLocale(q, customerId));
}

/** customerLocale of several customers in one statement (a presence scan may write the mails of many customers at once). */
export async function customerLocales(q: Queryable, customerIds: number[]): Promise<Map<number, Locale>> {
  if (!customerIds.length) return new Map();
  const rows = await q.query<{ customer_id: number; locale: string }>(
    `SELECT DISTINCT ON (customer_id) customer_id, locale FROM app_user
      WHERE customer_id = ANY($1::int[]) AND locale IS NOT NULL AND status = 1 ORDER BY customer_id, is_admin DESC, id`,
    [customerIds],
  );
  const found = new Map(rows.map((r) => [r.customer_id, toLocale(r.locale)]));
  return new Map(customerIds.map((id) => [id, found.get(id) ?? DEFAULT_LOCALE]));
}
