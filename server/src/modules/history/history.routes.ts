import { historyQueryCapped } from '@coldwatch/contract';
import type { Module } from '../index.js';
import { ok } from '../../platform/http/envelope.js';
import { notFound } from '../../platform/http/errors.js';
import { history } from './history.repository.js';

/** History of one device (spec §7 `/service/share/history`), downsampled for charts without losing extremes. */
export const historyRoutes: Module = (app, { db }) => {
  app.get('/service/share/history', { config: { funcs: ['viewHistory'] }, schema: { querystring: historyQueryCapped, tags: ['history'] } }, async (req) => {
    const r = await history(db, req.scope, req.query);
    if (!r) throw notFound();
    return ok(r, req.locale);
  });
};
