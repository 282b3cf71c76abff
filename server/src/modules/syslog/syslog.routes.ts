import { z } from 'zod';
import type { Module } from '../index.js';
import { ok } from '../../platform/http/envelope.js';
import { pageQuery } from '../../platform/http/paging.js';
import * as repo from './syslog.repository.js';

const time = z.coerce.number().int().min(0);
const pageFilters = pageQuery({
  module: z.string().trim().max(40).optional(),
  operator: z.string().trim().max(50).optional(),
  method: z.string().trim().max(60).optional(),
  result: z.coerce.number().int().min(0).max(1).optional(),
  content: z.string().trim().max(100).optional(),
  startTime: time.optional(),
  endTime: time.optional(),
  /** Platform users (and proxies) narrow to one customer; outside the caller's scope it finds nothing. */
  customerId: z.coerce.number().int().positive().optional(),
}).refine((q) => q.startTime === undefined || q.endTime === undefined || q.startTime <= q.endTime, {
  error: 'errors.rule.startAfterEnd',
  path: ['startTime'],
});

/**
 * The system log of spec §3 (section /noti/sysLog): every mutation's time, module, operator,
 * method, content, parameters and result. Access level 1 (the menu entry's level): customer
 * administrators see their customer's rows, platform users every row.
 */
export const syslogRoutes: Module = (app, { db }) => {
  const tags = ['syslog'];

  app.get('/service/syslog/page', { config: { funcs: ['viewSysLog'] }, schema: { querystring: pageFilters, tags } }, async (req) =>
    ok(await repo.page(db, req.scope, req.query), req.locale),
  );

  app.get('/service/syslog/modules', { config: { funcs: ['viewSysLog'] }, schema: { tags } }, async (req) => ok(await repo.modules(db, req.scope), req.locale));
};
