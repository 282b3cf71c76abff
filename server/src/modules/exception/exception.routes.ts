import { exceptionApi } from '@coldwatch/contract';
import type { Module } from '../index.js';
import { mutate } from '../../platform/audit/audit.js';
import { notFound } from '../../platform/http/errors.js';
import { serve } from '../../platform/http/route.js';
import * as repo from './exception.repository.js';

/** Exception records of spec §3/§4 (section /abnormal/dataex, the home widgets). */
export const exceptionRoutes: Module = (app, { db }) => {
  const view = { funcs: ['viewEx'] };
  const edit = { funcs: ['editEx'] };

  serve(app, exceptionApi.page, view, async (req) => repo.page(db, req.scope, req.query));
  serve(app, exceptionApi.detail, view, async (req) => (await repo.detail(db, req.scope, req.query.id)) ?? Promise.reject(notFound()));
  serve(app, exceptionApi.latest, view, async (req) => repo.latest(db, req.scope, req.query.limit, req.query.status));
  serve(app, exceptionApi.stats, view, async (req) => repo.stats(db, req.scope, req.query));

  serve(app, exceptionApi.handle, edit, async (req) =>
    mutate(db, req, { module: 'exception', method: 'handle', content: `handle exception ${req.body.id}`, params: req.body }, (q) => repo.handle(q, req.scope, req.body)),
  );

  serve(app, exceptionApi.close, edit, async (req) => {
    const { ids } = req.query;
    return mutate(db, req, { module: 'exception', method: 'close', content: `close exceptions ${ids.join(',')}`, params: { ids } }, (q) => repo.close(q, req.scope, ids));
  });
};
