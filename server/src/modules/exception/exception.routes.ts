import { z } from 'zod';
import { EXCEPTION_CATEGORIES, EXCEPTION_TYPES, text } from '@coldwatch/contract';
import type { Module } from '../index.js';
import { mutate } from '../../platform/audit/audit.js';
import { ok } from '../../platform/http/envelope.js';
import { notFound } from '../../platform/http/errors.js';
import { idsQuery, pageQuery } from '../../platform/http/paging.js';
import * as repo from './exception.repository.js';

const id = z.coerce.number().int().positive();
const status = z.coerce.number().int().min(0).max(2);
const time = z.coerce.number().int().min(0);
const range = { startTime: time.optional(), endTime: time.optional() };
const startNotAfterEnd = (q: { startTime?: number; endTime?: number }) => q.startTime === undefined || q.endTime === undefined || q.startTime <= q.endTime;
const rangeError = { error: 'errors.rule.startAfterEnd', path: ['startTime'] };

const pageFilters = pageQuery({
  status: status.optional(),
  type: z.enum(EXCEPTION_TYPES).optional(),
  category: z.enum(EXCEPTION_CATEGORIES).optional(),
  carrierId: id.optional(),
  devNo: z.string().trim().max(30).optional(),
  ongoing: z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1').optional(),
  ...range,
}).refine(startNotAfterEnd, rangeError);

export const handleBody = z.object({
  id: z.number({ error: 'errors.rule.required' }).int().positive({ error: 'errors.rule.required' }),
  reason: text(250).default(''),
  measures: text(250).default(''),
});

/** Exception records of spec §3/§4 (section /abnormal/dataex, the home widgets). */
export const exceptionRoutes: Module = (app, { db }) => {
  const tags = ['exception'];
  const view = { funcs: ['viewEx'] };
  const edit = { funcs: ['editEx'] };

  app.get('/service/exception/page', { config: view, schema: { querystring: pageFilters, tags } }, async (req) =>
    ok(await repo.page(db, req.scope, req.query), req.locale),
  );

  app.get('/service/exception/detail', { config: view, schema: { querystring: z.object({ id }), tags } }, async (req) => {
    const row = await repo.detail(db, req.scope, req.query.id);
    if (!row) throw notFound();
    return ok(row, req.locale);
  });

  app.get(
    '/service/exception/latest',
    { config: view, schema: { querystring: z.object({ status: status.optional(), limit: z.coerce.number().int().min(1).max(20).default(5) }), tags } },
    async (req) => ok(await repo.latest(db, req.scope, req.query.limit, req.query.status), req.locale),
  );

  app.get('/service/exception/stats', { config: view, schema: { querystring: z.object(range).refine(startNotAfterEnd, rangeError), tags } }, async (req) =>
    ok(await repo.stats(db, req.scope, req.query), req.locale),
  );

  app.put('/service/exception/handle', { config: edit, schema: { body: handleBody, tags } }, async (req) => {
    const r = await mutate(db, req, { module: 'exception', method: 'handle', content: `handle exception ${req.body.id}`, params: req.body }, (q) =>
      repo.handle(q, req.scope, req.body),
    );
    return ok(r, req.locale);
  });

  app.put('/service/exception/close', { config: edit, schema: { querystring: idsQuery, tags } }, async (req) => {
    const { ids } = req.query;
    const r = await mutate(db, req, { module: 'exception', method: 'close', content: `close exceptions ${ids.join(',')}`, params: { ids } }, (q) =>
      repo.close(q, req.scope, ids),
    );
    return ok(r, req.locale);
  });
};
