import { baseApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { notFound } from '../../platform/http/errors.js';
import { serve } from '../../platform/http/route.js';
import * as repo from './base.repository.js';

/** Smart bases (spec §2 /device/base, /BaseDetail; §3 device types), under the plinth function codes of spec §6. */
export const baseRoutes: Module = (app, { db }) => {
  serve(app, baseApi.page, { funcs: ['viewPlinth'] }, async (req) => repo.page(db, req.scope, req.query));
  serve(app, baseApi.detail, { funcs: ['viewPlinth'] }, async (req) => (await repo.detail(db, req.scope, req.query.id)) ?? Promise.reject(notFound()));
  serve(app, baseApi.add, { funcs: ['newPlinth'] }, async (req) =>
    mutate(db, req, { module: 'base', method: 'add', content: `add base ${req.body.devNo}`, params: req.body }, (q) => repo.add(q, req.scope, req.body)),
  );
  serve(app, baseApi.update, { funcs: ['editPlinth'] }, async (req) =>
    mutate(db, req, { module: 'base', method: 'update', content: `update base ${req.body.id}`, params: req.body }, (q) => repo.update(q, req.scope, req.body)),
  );
  serve(app, baseApi.setStatus, { funcs: ['editPlinth'] }, async (req) => {
    const { ids, stopped } = req.body;
    const changed = await mutate(db, req, { module: 'base', method: stopped ? 'stop' : 'enable', content: `${stopped ? 'stop' : 'enable'} bases ${ids.join(',')}`, params: req.body }, (q) =>
      repo.setStatus(q, req.scope, ids, stopped),
    );
    return { changed };
  });
  serve(app, baseApi.del, { funcs: ['removePlinth'] }, async (req) =>
    mutate(db, req, { module: 'base', method: 'del', content: `delete bases ${req.query.ids.join(',')}`, params: req.query }, (q) => repo.remove(q, req.scope, req.query.ids)),
  );
};
