import { z } from 'zod';
import { NOTICE_CHANNELS, NOTICE_TYPES } from '@coldwatch/contract';
import type { Module } from '../index.js';
import { mutate } from '../../platform/audit/audit.js';
import { ok } from '../../platform/http/envelope.js';
import { idsQuery, pageQuery } from '../../platform/http/paging.js';
import * as repo from './notice.repository.js';

const time = z.coerce.number().int().min(0);
const pageFilters = pageQuery({
  type: z.enum(NOTICE_TYPES).optional(),
  channel: z.enum(NOTICE_CHANNELS).optional(),
  status: z.coerce.number().int().min(0).max(2).optional(),
  recipient: z.string().trim().max(100).optional(),
  exceptionId: z.coerce.number().int().positive().optional(),
  startTime: time.optional(),
  endTime: time.optional(),
}).refine((q) => q.startTime === undefined || q.endTime === undefined || q.startTime <= q.endTime, {
  error: 'errors.rule.startAfterEnd',
  path: ['startTime'],
});

/** The notice log of spec §3 (section /noti/notification). */
export const noticeRoutes: Module = (app, { db }) => {
  const tags = ['notice'];

  app.get('/service/notice/page', { config: { funcs: ['viewNoticeLog'] }, schema: { querystring: pageFilters, tags } }, async (req) =>
    ok(await repo.page(db, req.scope, req.query), req.locale),
  );

  app.put('/service/notice/retry', { config: { funcs: ['editNoticeLog'] }, schema: { querystring: idsQuery, tags } }, async (req) => {
    const { ids } = req.query;
    const r = await mutate(db, req, { module: 'notice', method: 'retry', content: `retry notices ${ids.join(',')}`, params: { ids } }, (q) =>
      repo.retry(q, req.scope, ids),
    );
    return ok(r, req.locale);
  });
};
