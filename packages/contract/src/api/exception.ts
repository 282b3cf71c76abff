import { z } from 'zod';
import { EXCEPTION_CATEGORIES, EXCEPTION_TYPES, NOTICE_CHANNELS, NOTICE_TYPES } from '../enums.js';
import { text } from '../rules.js';
import { id, idsQuery, ms, pageOf, pageQuery, route, startNotAfterEnd, timeRange } from './route.js';

/** Exception records and the notice log of spec §3/§4 (sections /abnormal and /noti). */

const status = z.coerce.number().int().min(0).max(2);

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
  type: z.string(),
  category: z.string(),
  /** 0 pending, 1 processed, 2 closed. */
  status: z.number().int(),
  ongoing: z.boolean(),
  startTs: ms,
  endTs: ms.nullable(),
  /** Of an ongoing exception: how long it has lasted so far. */
  durationS: z.number().int().nullable(),
  firstValue: z.number().nullable(),
  peakValue: z.number().nullable(),
  limitMin: z.number().nullable(),
  limitMax: z.number().nullable(),
  reason: z.string(),
  measures: z.string(),
  createdAt: ms,
});
export type ExceptionRow = z.infer<typeof exceptionRow>;

export const exceptionDetail = exceptionRow.extend({ notices: z.array(noticeRow.pick({ id: true, type: true, channel: true, recipient: true, status: true, attempts: true, result: true, sendTime: true, createdAt: true })) });

export const exceptionStats = z.object({
  total: z.number().int(),
  pending: z.number().int(),
  processed: z.number().int(),
  closed: z.number().int(),
  ongoing: z.number().int(),
  byCategory: z.record(z.string(), z.number().int()),
});

export const handleBody = z.object({
  id: z.number({ error: 'errors.rule.required' }).int().positive({ error: 'errors.rule.required' }),
  reason: text(250).default(''),
  measures: text(250).default(''),
});
export type HandleBody = z.input<typeof handleBody>;

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
    summary: 'Record reason and measures; the exception becomes processed',
    body: handleBody,
    result: z.object({ id: z.number().int(), status: z.number().int() }),
  }),
  close: route({ method: 'PUT', path: '/service/exception/close', tag, summary: 'Close exceptions (all or none; not while ongoing)', query: idsQuery, result: z.object({ closed: z.number().int() }) }),
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
      status: status.optional(),
      recipient: z.string().trim().max(100).optional(),
      exceptionId: id.optional(),
      ...timeRange,
    }).refine(...startNotAfterEnd),
    result: pageOf(noticeRow),
  }),
  retry: route({ method: 'PUT', path: '/service/notice/retry', tag: 'notice', summary: 'Send failed notices again', query: idsQuery, result: z.object({ retried: z.number().int() }) }),
};
