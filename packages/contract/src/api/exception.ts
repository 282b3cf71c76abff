import { z } from 'zod';
import { EXCEPTION_CATEGORIES, EXCEPTION_TYPES, NOTICE_CHANNELS, NOTICE_TYPES } from '../enums.js';
import { text } from '../rules.js';
import { id, idQuery, idsQuery, ms, pageOf, pageQuery, route, startNotAfterEnd, timeRange } from './route.js';

/**
 * Exception records and the notice log of spec §3/§4 (sections /abnormal and /noti), and their
 * signed handling (docs/alarms.md "Handling and signatures").
 */

/** Spec §3 "confirmed or suspected abnormal". */
export const JUDGEMENTS = ['confirmed', 'suspected'] as const;
export type Judgement = (typeof JUDGEMENTS)[number];
/** The kinds of signed step: each is a row of its own, never changed (a correction is a new step). */
export const HANDLING_ACTIONS = ['handle', 'close', 'comment', 'correct'] as const;
export type HandlingAction = (typeof HANDLING_ACTIONS)[number];
/** What a signature means (21 CFR Part 11 §11.50(a)(3)): a close always means "closed". */
export const SIGN_MEANINGS = ['reviewed', 'approved', 'closed'] as const;
export type SignMeaning = (typeof SIGN_MEANINGS)[number];
/** The meanings a signer chooses for a handling, a comment or a correction. */
export const CHOSEN_MEANINGS = ['reviewed', 'approved'] as const;
/** At most this many exceptions in one bulk handling or close. */
export const HANDLE_MAX_IDS = 100;
/** How long a link to /exDetail works (from the moment it is made: the mail is sent, or a user copies it). */
export const EX_LINK_TTL_MS = 7 * 86_400_000;

const status = z.coerce.number().int().min(0).max(2);
/** A notice's status: NOTICE_STATUS, skipped (3) included. */
const noticeStatus = z.coerce.number().int().min(0).max(3);

export const noticeRow = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  exceptionId: z.number().int().nullable(),
  type: z.string(),
  channel: z.string(),
  recipient: z.string(),
  subject: z.string(),
  content: z.string(),
  /** 0 pending, 1 sent, 2 failed. */
  status: z.number().int(),
  attempts: z.number().int(),
  result: z.string(),
  sendTime: ms.nullable(),
  nextAttemptAt: ms.nullable(),
  createdAt: ms,
});
export type NoticeRow = z.infer<typeof noticeRow>;

export const exceptionRow = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  customerName: z.string(),
  carrierId: z.number().int().nullable(),
  carrierName: z.string().nullable(),
  sensorId: z.number().int().nullable(),
  devNo: z.string().nullable(),
  gatewayId: z.number().int().nullable(),
  /** The gateway's serial number and name: what a gateway, display or relay exception (no sensor) shows as its device. */
  gatewaySn: z.string().nullable().optional(),
  gatewayName: z.string().nullable().optional(),
  type: z.string(),
  category: z.string(),
  /** 0 pending, 1 processed, 2 closed. */
  status: z.number().int(),
  ongoing: z.boolean(),
  /** Opened while its carrier's alarm was paused: recorded, told to nobody (docs/alarms.md "Triggers"). */
  duringPause: z.boolean(),
  startTs: ms,
  endTs: ms.nullable(),
  /** Of an ongoing exception: how long it has lasted so far. */
  durationS: z.number().int().nullable(),
  firstValue: z.number().nullable(),
  peakValue: z.number().nullable(),
  limitMin: z.number().nullable(),
  limitMax: z.number().nullable(),
  /** The current handling (the last step's): the reason's name as signed, or the free text of older rows. */
  reason: z.string(),
  measures: z.string(),
  reasonId: z.number().int().nullable(),
  judgement: z.enum(JUDGEMENTS).nullable(),
  excluded: z.boolean(),
  excludedWhy: z.string(),
  createdAt: ms,
});
export type ExceptionRow = z.infer<typeof exceptionRow>;

/** One signed step, as it was signed. */
export const handlingStep = z.object({
  id: z.number().int(),
  action: z.enum(HANDLING_ACTIONS),
  userId: z.number().int(),
  userAccount: z.string(),
  /** The signer's full name at signing (21 CFR Part 11 §11.50(a)(1)). */
  userName: z.string(),
  signedAt: ms,
  meaning: z.enum(SIGN_MEANINGS),
  reasonId: z.number().int().nullable(),
  reason: z.string(),
  measures: z.string(),
  comment: z.string(),
  judgement: z.enum(JUDGEMENTS).nullable(),
  excluded: z.boolean().nullable(),
  excludedWhy: z.string(),
  statusBefore: z.number().int(),
  statusAfter: z.number().int(),
  /** The signed copy of the signer's image (a key of `signatures`), null when the signer had none. */
  signatureId: z.number().int().nullable(),
});
export type HandlingStep = z.infer<typeof handlingStep>;

const notices = z.array(noticeRow.pick({ id: true, type: true, channel: true, recipient: true, status: true, attempts: true, result: true, sendTime: true, createdAt: true }));
/** The signature images of the steps by id, as data: URLs (each image once, however many steps it signs). */
const signatures = z.record(z.string(), z.string());

export const exceptionDetail = exceptionRow.extend({
  notices,
  steps: z.array(handlingStep),
  signatures,
  /** The exception's customer's time zone ("+08:00"): its times are shown in it. */
  timeZone: z.string(),
});
export type ExceptionDetail = z.infer<typeof exceptionDetail>;

/** What /exDetail shows through a link: the one exception, without identifiers of anything else. */
export const sharedException = exceptionRow
  .omit({ customerId: true, carrierId: true, sensorId: true, gatewayId: true, reasonId: true })
  .extend({ steps: z.array(handlingStep.omit({ userId: true, reasonId: true })), signatures, noticeCount: z.number().int(), timeZone: z.string(), expiresAt: ms });
export type SharedException = z.infer<typeof sharedException>;

export const exceptionStats = z.object({
  total: z.number().int(),
  pending: z.number().int(),
  processed: z.number().int(),
  closed: z.number().int(),
  ongoing: z.number().int(),
  byCategory: z.record(z.string(), z.number().int()),
});

/**
 * The signature of a step: the signer enters both components again, account and password
 * (21 CFR Part 11 §11.200(a)(1)). Optional in the schema so that a call's other faults (a
 * foreign id, a closed record) are answered first; the server refuses a step without it.
 */
export const signature = z.object({
  account: z.string({ error: 'errors.exception.signAccount' }).trim().min(1, { error: 'errors.exception.signAccount' }).max(50, { error: 'errors.rule.maxLength50' }),
  password: z.string({ error: 'errors.exception.signPassword' }).min(1, { error: 'errors.exception.signPassword' }).max(100, { error: 'errors.rule.maxLength100' }),
});
export type Signature = z.infer<typeof signature>;

const recordId = z.number({ error: 'errors.rule.required' }).int().positive({ error: 'errors.rule.required' }).max(2_147_483_647, { error: 'errors.rule.ids' });
const required250 = z.string({ error: 'errors.rule.required' }).trim().min(1, { error: 'errors.rule.required' }).max(250, { error: 'errors.rule.maxLength250' });

/** What a handling and a correction record: a reason of the catalogue, measures, a judgement, excluded with why. */
const handling = {
  reasonId: z.number({ error: 'errors.exception.reasonRequired' }).int().positive({ error: 'errors.exception.reasonRequired' }).max(2_147_483_647, { error: 'errors.rule.ids' }),
  measures: required250,
  comment: text(250).default(''),
  judgement: z.enum(JUDGEMENTS, { error: 'errors.exception.judgement' }),
  excluded: z.boolean().default(false),
  excludedWhy: text(250).default(''),
  meaning: z.enum(CHOSEN_MEANINGS, { error: 'errors.exception.meaning' }).default('reviewed'),
  sign: signature.optional(),
};
const excludedWithWhy: [(b: { excluded: boolean; excludedWhy: string }) => boolean, { error: string; path: string[] }] = [
  (b) => !b.excluded || b.excludedWhy.length > 0,
  { error: 'errors.exception.excludedWhy', path: ['excludedWhy'] },
];

/** Handling pending exceptions, several at once (all or nothing): each becomes processed with a step of its own. */
export const handleBody = z
  .object({ ids: z.array(recordId, { error: 'errors.selectAtLeastOne' }).min(1, { error: 'errors.selectAtLeastOne' }).max(HANDLE_MAX_IDS, { error: 'errors.exception.tooMany' }), ...handling })
  .refine(...excludedWithWhy);
export type HandleBody = z.input<typeof handleBody>;

/** A correction of a processed exception's handling: a new step saying why (the comment), the earlier one kept. */
export const correctBody = z.object({ id: recordId, ...handling, comment: required250 }).refine(...excludedWithWhy);
export type CorrectBody = z.input<typeof correctBody>;

/** A signed note on an exception in any state (a closed one too): it changes nothing else. */
export const commentBody = z.object({ id: recordId, comment: required250, meaning: handling.meaning, sign: signature.optional() });
export type CommentBody = z.input<typeof commentBody>;

/** The close's signature and an optional comment (the ids are in the query, as spec §7's batch calls). */
export const closeBody = z.object({ comment: text(250).default(''), sign: signature.optional() });
export type CloseBody = z.input<typeof closeBody>;

export const exceptionFilters = {
  status: status.optional(),
  type: z.enum(EXCEPTION_TYPES).optional(),
  category: z.enum(EXCEPTION_CATEGORIES).optional(),
  carrierId: id.optional(),
  devNo: z.string().trim().max(30).optional(),
  ongoing: z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1').optional(),
  ...timeRange,
};

const tag = 'exception';
export const exceptionApi = {
  page: route({
    method: 'GET',
    path: '/service/exception/page',
    tag,
    summary: 'Exception records of the caller\'s customers and scene limit, newest first',
    query: pageQuery(exceptionFilters).refine(...startNotAfterEnd),
    result: pageOf(exceptionRow),
  }),
  detail: route({ method: 'GET', path: '/service/exception/detail', tag, summary: 'One exception with the notices it caused', query: z.object({ id }), result: exceptionDetail }),
  latest: route({
    method: 'GET',
    path: '/service/exception/latest',
    tag,
    summary: 'The newest exceptions (home page widget)',
    query: z.object({ status: status.optional(), limit: z.coerce.number().int().min(1).max(20).default(5) }),
    result: z.array(exceptionRow),
  }),
  stats: route({
    method: 'GET',
    path: '/service/exception/stats',
    tag,
    summary: 'Exception counts by status and category (home page widget)',
    query: z.object(timeRange).refine(...startNotAfterEnd),
    result: exceptionStats,
  }),
  handle: route({
    method: 'PUT',
    path: '/service/exception/handle',
    tag,
    summary: 'Handle pending exceptions, signed (all or none): reason, measures, judgement, excluded; each becomes processed',
    body: handleBody,
    result: z.object({ handled: z.number().int(), status: z.number().int() }),
  }),
  close: route({
    method: 'PUT',
    path: '/service/exception/close',
    tag,
    summary: 'Close processed exceptions that are over, signed (all or none)',
    query: idsQuery,
    // Optional so that the ids are judged first; a close without a signature is refused.
    body: closeBody.strict().nullish(),
    result: z.object({ closed: z.number().int() }),
  }),
  comment: route({ method: 'POST', path: '/service/exception/comment', tag, summary: 'A signed note on an exception (any state)', body: commentBody, result: z.object({ id: z.number().int() }) }),
  correct: route({
    method: 'PUT',
    path: '/service/exception/correct',
    tag,
    summary: 'Correct a processed exception\'s handling with a new signed step (the earlier one is kept)',
    body: correctBody,
    result: z.object({ id: z.number().int() }),
  }),
  link: route({
    method: 'GET',
    path: '/service/exception/link',
    tag,
    summary: 'A signed link that opens this exception at /exDetail without signing in, for 7 days',
    query: idQuery,
    result: z.object({ url: z.string(), expiresAt: ms }),
  }),
  shared: route({
    method: 'GET',
    path: '/service/exception/shared',
    tag,
    summary: 'The one exception a signed /exDetail link names (no sign-in); 401 when the link is expired or altered',
    query: z.object({ token: z.string().trim().min(1).max(200) }),
    result: sharedException,
  }),
};

export const noticeApi = {
  page: route({
    method: 'GET',
    path: '/service/notice/page',
    tag: 'notice',
    summary: 'The notice log (alarm and captcha messages), newest first',
    query: pageQuery({
      type: z.enum(NOTICE_TYPES).optional(),
      channel: z.enum(NOTICE_CHANNELS).optional(),
      status: noticeStatus.optional(),
      recipient: z.string().trim().max(100).optional(),
      exceptionId: id.optional(),
      ...timeRange,
    }).refine(...startNotAfterEnd),
    // The customer's name for platform staff, who see every customer's notices.
    result: pageOf(noticeRow.extend({ customerName: z.string() })),
  }),
  retry: route({ method: 'PUT', path: '/service/notice/retry', tag: 'notice', summary: 'Send failed notices again', query: idsQuery, result: z.object({ retried: z.number().int() }) }),
};
