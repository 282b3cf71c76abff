import { exReasonApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { notFound } from '../../platform/http/errors.js';
import { serve } from '../../platform/http/route.js';
import * as repo from './excatalog.repository.js';

/**
 * The exception reasons (spec §2 /abnormal/abnormalcause, menu module exReason). The menu entry
 * carries the object Ex (packages/contract/src/menu.ts), so its function codes are the
 * exception's: viewEx to read (a handling lists them), newEx, editEx and removeEx to manage.
 */
export const excatalogRoutes: Module = (app, { db }) => {
  serve(app, exReasonApi.page, { funcs: ['viewEx'] }, async (req) => repo.page(db, req.scope, req.query));
  serve(app, exReasonApi.detail, { funcs: ['viewEx'] }, async (req) => (await repo.detail(db, req.scope, req.query.id)) ?? Promise.reject(notFound()));
  serve(app, exReasonApi.options, { funcs: ['viewEx'] }, async (req) => repo.options(db, req.scope, req.query.customerId));

  serve(app, exReasonApi.add, { funcs: ['newEx'] }, async (req) =>
    mutate(db, req, { module: 'exReason', method: 'add', content: `add exception reason ${req.body.code}`, params: req.body }, (q) => repo.add(q, req.scope, req.body)),
  );

  serve(app, exReasonApi.update, { funcs: ['editEx'] }, async (req) =>
    mutate(db, req, { module: 'exReason', method: 'update', content: `update exception reason ${req.body.id}`, params: req.body }, (q) => repo.update(q, req.scope, req.body)),
  );

  serve(app, exReasonApi.del, { funcs: ['removeEx'] }, async (req) => {
    const { ids } = req.query;
    return mutate(db, req, { module: 'exReason', method: 'del', content: `delete exception reasons ${ids.join(',')}`, params: { ids } }, (q) => repo.remove(q, req.scope, ids));
  });
};
