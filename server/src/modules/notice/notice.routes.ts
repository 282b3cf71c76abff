import { noticeApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { serve } from '../../platform/http/route.js';
import * as repo from './notice.repository.js';

/** The notice log of spec §3 (section /noti/notification). */
export const noticeRoutes: Module = (app, { db }) => {
  serve(app, noticeApi.page, { funcs: ['viewNoticeLog'] }, async (req) => repo.page(db, req.scope, req.query));

  serve(app, noticeApi.retry, { funcs: ['editNoticeLog'] }, async (req) => {
    const { ids } = req.query;
    return mutate(db, req, { module: 'notice', method: 'retry', content: `retry notices ${ids.join(',')}`, params: { ids } }, (q) => repo.retry(q, req.scope, ids));
  });
};
