import { displayApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { notFound } from '../../platform/http/errors.js';
import { serve } from '../../platform/http/route.js';
import * as repo from './display.repository.js';

/** Display screens (spec §2 /device/displayscreen, /DisplayDetail; §3 Display). */
export const displayRoutes: Module = (app, { db }) => {
  serve(app, displayApi.page, { funcs: ['viewDisplay'] }, async (req) => repo.page(db, req.scope, req.query));
  serve(app, displayApi.detail, { funcs: ['viewDisplay'] }, async (req) => (await repo.detail(db, req.scope, req.query.id)) ?? Promise.reject(notFound()));
  serve(app, displayApi.add, { funcs: ['newDisplay'] }, async (req) =>
    mutate(db, req, { module: 'display', method: 'add', content: `add display ${req.body.devNo}`, params: req.body }, (q) => repo.add(q, req.scope, req.body)),
  );
  serve(app, displayApi.update, { funcs: ['editDisplay'] }, async (req) =>
    mutate(db, req, { module: 'display', method: 'update', content: `update display ${req.body.id}`, params: req.body }, (q) => repo.update(q, req.scope, req.body)),
  );
  serve(app, displayApi.setStatus, { funcs: ['editDisplay'] }, async (req) => {
    const { ids, stopped } = req.body;
    const changed = await mutate(db, req, { module: 'display', method: stopped ? 'stop' : 'enable', content: `${stopped ? 'stop' : 'enable'} displays ${ids.join(',')}`, params: req.body }, (q) =>
      repo.setStatus(q, req.scope, ids, stopped),
    );
    return { changed };
  });
  serve(app, displayApi.del, { funcs: ['removeDisplay'] }, async (req) =>
    mutate(db, req, { module: 'display', method: 'del', content: `delete displays ${req.query.ids.join(',')}`, params: req.query }, (q) => repo.remove(q, req.scope, req.query.ids)),
  );
};
