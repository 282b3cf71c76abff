import { DEFAULT_LOCALE, toLocale, type Locale } from '@coldwatch/contract';
// The mail texts live beside the server messages in the contract's catalogues, one file per
// language, so translators find every user-facing string in one place.
import en from '../../../packages/contract/locales/en-US/notice.json' with { type: 'json' };
import zh from '../../../packages/contract/locales/zh-CN/notice.json' with { type: 'json' };
import type { Queryable } from '../platform/db/client.js';
import type { DataCategory, Field } from './segments.js';

type Catalogue = typeof en.notice;
const catalogues: Record<Locale, Catalogue> = { 'en-US': en.notice, 'zh-CN': zh.notice };

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

const fill = (text: string, vars: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (m, k: string) => vars[k] ?? m);

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
  return parts.join(locale === 'zh-CN' ? '' : ' ');
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
