import { z } from 'zod';
import { HISTORY_MAX_SPAN_DAYS } from '../schemas.js';
import { signature } from './exception.js';
import { id, idResult, ms, pageOf, pageQuery, route } from './route.js';

/**
 * Record times and notification time points (spec §5 "Notification rows at least 30 minutes
 * apart. Up to seven record times", §9). One rule for every list of times of day the console
 * keeps: the collect records of the statistics issue and the alarm triggers' time points
 * (api/alarmTrigger.ts) both read these two constants.
 */
export const RECORD_TIMES_MAX = 7;
/** Minutes between two neighbouring times of one list (the last and the first of the day too). */
export const RECORD_TIMES_MIN_GAP_MIN = 30;

/*
 * Collect records (spec §2 /arch/temprecord, menu collectRecord, function object RecordPoint;
 * §4 approval of record points: not approved, approved, rejected; docs/records.md): the times of
 * day at which a carrier's value is written in its daily record, each filled from the carrier's
 * value nearest that time, and each day signed as approved or rejected the way exception
 * handling is signed (account and password again, full name, time, meaning).
 */

/** "HH:mm" → minutes of the day. */
export const recordMinute = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
/** Minutes of the day → "HH:mm". */
export const recordHhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

/**
 * The one rule of a list of times of day (spec §5, §9): at most RECORD_TIMES_MAX, each at least
 * RECORD_TIMES_MIN_GAP_MIN minutes from its neighbours counted around the clock (23:50 and
 * 00:10 are 20 minutes apart), so no two times of a day or of two days take the same reading.
 */
export function timesFault(minutes: readonly number[]): 'tooMany' | 'gap' | null {
  if (minutes.length > RECORD_TIMES_MAX) return 'tooMany';
  const m = [...minutes].sort((a, b) => a - b);
  for (let i = 0; i < m.length; i++) {
    const next = i + 1 < m.length ? m[i + 1] : m[0] + 1440;
    if (m.length > 1 && next - m[i] < RECORD_TIMES_MIN_GAP_MIN) return 'gap';
  }
  return null;
}

/** How far from a record time its reading may be: half the least gap, so neighbouring times never share one. */
export const RECORD_NEAREST_MS = (RECORD_TIMES_MIN_GAP_MIN / 2) * 60_000;

const hhmm = z.string({ error: 'errors.recordPoint.time' }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'errors.recordPoint.time' });

export const recordTimesBody = z.object({
  carrierId: id,
  times: z
    .array(hhmm)
    .min(1, { error: 'errors.selectAtLeastOne' })
    .superRefine((t, ctx) => {
      const fault = timesFault(t.map(recordMinute));
      if (fault) ctx.addIssue({ code: 'custom', message: `errors.recordPoint.${fault}` });
    })
    .transform((t) => [...new Set(t)].sort()),
});
export type RecordTimesBody = z.input<typeof recordTimesBody>;

export const RECORD_DECISIONS = ['approved', 'rejected'] as const;
export type RecordDecision = (typeof RECORD_DECISIONS)[number];
/** Spec §4: a day nobody has signed yet is not approved. */
export const RECORD_STATES = ['pending', ...RECORD_DECISIONS] as const;
export type RecordState = (typeof RECORD_STATES)[number];

export const recordSignBody = z
  .object({
    carrierId: id,
    day: z.string({ error: 'errors.rule.date' }).regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'errors.rule.date' }),
    decision: z.enum(RECORD_DECISIONS, { error: 'errors.recordPoint.decision' }),
    comment: z.string().trim().max(250, { error: 'errors.rule.maxLength250' }).default(''),
    sign: signature.optional(),
  })
  .refine((b) => b.decision !== 'rejected' || b.comment.length > 0, { error: 'errors.recordPoint.commentRequired', path: ['comment'] });
export type RecordSignBody = z.input<typeof recordSignBody>;

export const recordPointValue = z.object({
  time: z.string(),
  /** The instant of the record time that day. */
  at: ms,
  /** The reading it took; null when the carrier had none within RECORD_NEAREST_MS. */
  ts: ms.nullable(),
  temp: z.number().nullable(),
  hum: z.number().nullable(),
});
export type RecordPointValue = z.infer<typeof recordPointValue>;

export const recordDayRow = z.object({
  carrierId: z.number().int(),
  carrierName: z.string(),
  /** The customer's calendar day, YYYY-MM-DD. */
  day: z.string(),
  /** The values as signed on a signed day, as read now on an unsigned one. */
  points: z.array(recordPointValue),
  tempMin: z.number().nullable(),
  tempMax: z.number().nullable(),
  humMin: z.number().nullable(),
  humMax: z.number().nullable(),
  state: z.enum(RECORD_STATES),
  /** The day's last record time has passed: it can be signed. */
  complete: z.boolean(),
  signedBy: z.string().nullable(),
  signedAccount: z.string().nullable(),
  signedAt: ms.nullable(),
  comment: z.string().nullable(),
  /** Every signed decision of the day, oldest first (a rejection, then the approval). */
  history: z.array(z.object({ decision: z.enum(RECORD_DECISIONS), signedBy: z.string(), signedAccount: z.string(), signedAt: ms, comment: z.string(), signature: z.string().nullable() })),
});
export type RecordDayRow = z.infer<typeof recordDayRow>;

export const recordPageQuery = pageQuery({
  carrierId: id.optional(),
  start: z.coerce.number().int().min(0),
  end: z.coerce.number().int().min(0),
  state: z.enum(RECORD_STATES).optional(),
})
  .refine((q) => q.start <= q.end, { error: 'errors.rule.startAfterEnd', path: ['start'] })
  .refine((q) => q.end - q.start <= HISTORY_MAX_SPAN_DAYS * 86_400_000, { error: 'errors.rule.historySpan', path: ['end'] });

export const recordTimesRow = z.object({ carrierId: z.number().int(), carrierName: z.string(), times: z.array(z.string()), updatedAt: ms.nullable(), updatedBy: z.string().nullable() });
export type RecordTimesRow = z.infer<typeof recordTimesRow>;

export const recordPointApi = {
  page: route({
    method: 'GET',
    path: '/service/recordPoint/page',
    tag: 'recordPoint',
    summary: "Collect records: each carrier's day with its record times filled from the nearest value, and its approval state; newest day first",
    query: recordPageQuery,
    result: pageOf(recordDayRow).extend({ timeZone: z.string() }),
  }),
  times: route({
    method: 'GET',
    path: '/service/recordPoint/times',
    tag: 'recordPoint',
    summary: "The carriers' record times (carriers without any included, with none)",
    query: pageQuery({ carrierId: id.optional() }),
    result: pageOf(recordTimesRow),
  }),
  setTimes: route({
    method: 'PUT',
    path: '/service/recordPoint/times',
    tag: 'recordPoint',
    summary: "Set a carrier's record times (at most seven, 30 minutes apart)",
    body: recordTimesBody,
    result: idResult,
  }),
  sign: route({
    method: 'POST',
    path: '/service/recordPoint/sign',
    tag: 'recordPoint',
    summary: "Approve or reject a carrier's day, signed with account and password",
    body: recordSignBody,
    result: z.object({ carrierId: z.number().int(), day: z.string(), state: z.enum(RECORD_DECISIONS) }),
  }),
};
