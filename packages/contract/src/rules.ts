import { z } from 'zod';

/**
 * Field rules of spec §5, written once. Each failure message is a key of the `errors`
 * catalogue (locales/<lang>/errors.json) so that server and web speak the user's language.
 */

const twoDecimals = (n: number) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6;

/** Temperature-type decimal: -327.67..327.67, at most two decimals. */
export const temperature = z
  .number({ error: 'errors.rule.number' })
  .min(-327.67, { error: 'errors.rule.temperature' })
  .max(327.67, { error: 'errors.rule.temperature' })
  .refine(twoDecimals, { error: 'errors.rule.twoDecimals' });

/** Humidity: 0..100, at most two decimals. */
export const humidity = z
  .number({ error: 'errors.rule.number' })
  .min(0, { error: 'errors.rule.humidity' })
  .max(100, { error: 'errors.rule.humidity' })
  .refine(twoDecimals, { error: 'errors.rule.twoDecimals' });

/** Longitude: integer part 0-180, up to six decimals (sign allowed for west). */
export const longitude = z
  .number({ error: 'errors.rule.number' })
  .min(-180, { error: 'errors.rule.longitude' })
  .max(180, { error: 'errors.rule.longitude' })
  .refine((n) => Math.abs(Math.round(n * 1e6) - n * 1e6) < 1e-3, { error: 'errors.rule.longitude' });

/** Latitude: integer part 0-90, up to six decimals. */
export const latitude = z
  .number({ error: 'errors.rule.number' })
  .min(-90, { error: 'errors.rule.latitude' })
  .max(90, { error: 'errors.rule.latitude' })
  .refine((n) => Math.abs(Math.round(n * 1e6) - n * 1e6) < 1e-3, { error: 'errors.rule.latitude' });

/** A required name of 1..max characters (spec §5 "name/code 1-50"), trimmed. */
export const name = (max = 50) =>
  z
    .string({ error: 'errors.rule.required' })
    .trim()
    .min(1, { error: 'errors.rule.required' })
    .max(max, { error: `errors.rule.maxLength${max}` });

/** Optional free text of at most max characters. */
export const text = (max: number) => z.string().trim().max(max, { error: `errors.rule.maxLength${max}` });

/** Code: English letters and digits, no spaces (spec §5). */
export const code = (max = 20) =>
  z
    .string({ error: 'errors.rule.required' })
    .regex(/^[A-Za-z0-9]+$/, { error: 'errors.rule.code' })
    .max(max, { error: `errors.rule.maxLength${max}` });

/** Device number: letters and digits, at most 30 (spec §5 "device number 30"). */
export const deviceNo = z
  .string({ error: 'errors.rule.required' })
  .regex(/^[A-Za-z0-9]{1,30}$/, { error: 'errors.rule.deviceNo' });

/** Gateway serial number: its MAC as upper-case hex without separators (device-protocol.md). */
export const gatewaySn = z
  .string({ error: 'errors.rule.required' })
  .regex(/^[0-9A-F]{12}$/, { error: 'errors.rule.gatewaySn' });

/** Email: letters/digits/Chinese, at sign, dotted domain (spec §5). */
export const email = z
  .string()
  .trim()
  .max(100, { error: 'errors.rule.maxLength100' })
  .regex(/^[A-Za-z0-9\u4e00-\u9fa5._%+-]+@[A-Za-z0-9\u4e00-\u9fa5-]+(\.[A-Za-z0-9\u4e00-\u9fa5-]+)+$/, {
    error: 'errors.rule.email',
  });

/** Phone: 11 digits, or 7-8 digits, or a 3-4 digit area code, hyphen, 7-8 digits (spec §5). */
export const phone = z.string().trim().regex(/^(\d{11}|\d{7,8}|\d{3,4}-\d{7,8})$/, { error: 'errors.rule.phone' });

/** Reporting/sampling interval in seconds: 1..65535, integer (spec §5), collection interval not below 10 s. */
export const sampleIntervalSeconds = z
  .number({ error: 'errors.rule.number' })
  .int({ error: 'errors.rule.integer' })
  .min(10, { error: 'errors.rule.sampleInterval' })
  .max(65535, { error: 'errors.rule.sampleInterval' });

/**
 * Alarm delay in seconds (spec §3 alarm trigger "delay"; issue 27): how long a carrier's value
 * must stay out before an exception opens, and back inside by the margin before it ends.
 * Whole seconds, 0..86400 (a day).
 */
export const alarmDelaySeconds = z
  .number({ error: 'errors.rule.alarmDelay' })
  .int({ error: 'errors.rule.alarmDelay' })
  .min(0, { error: 'errors.rule.alarmDelay' })
  .max(86400, { error: 'errors.rule.alarmDelay' });

/** Hysteresis margin of a zone (°C or %RH): how far inside a limit a value must come back to end an exception. 0..10, two decimals. */
export const alarmMargin = z
  .number({ error: 'errors.rule.alarmMargin' })
  .min(0, { error: 'errors.rule.alarmMargin' })
  .max(10, { error: 'errors.rule.alarmMargin' })
  .refine(twoDecimals, { error: 'errors.rule.alarmMargin' });

/**
 * A new carrier's alarm delay and margins, and what existing carriers were given (migration
 * 0034): no delay, so that no default ever hides an excursion (the first reading out alarms at
 * once), and margins that alone stop a value hovering on a limit from flapping.
 */
export const ALARM_DEFAULTS = { delayS: 0, tempMargin: 0.3, humMargin: 2 } as const;

/** A zone (range): both bounds required, min not above max (spec §5). */
export const zone = (bound: z.ZodType<number>) =>
  z
    .object({ min: bound, max: bound })
    .refine((r: { min: number; max: number }) => r.min <= r.max, { error: 'errors.rule.minAboveMax', path: ['min'] });

/** A device's time zone: UTC−12:00..UTC+12:00 (spec §9). */
export const timeZone = z.string().regex(/^[+-](0\d|1[0-2]):[0-5]\d$/, { error: 'errors.rule.timeZone' });

/** Paging of spec §7: iDisplayStart offset, iDisplayLength one of the §9 page sizes (default 15). */
export const paging = {
  iDisplayStart: z.coerce.number().int().min(0).default(0),
  iDisplayLength: z.coerce.number().int().min(1).max(100).default(15),
};

