import { historyApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { notFound } from '../../platform/http/errors.js';
import { serve } from '../../platform/http/route.js';
import { history } from './history.repository.js';
import { carrierHistory } from './carrierHistory.js';

/** History of one device (spec §7 `/service/share/history`), downsampled for charts without losing extremes. */
export const historyRoutes: Module = (app, { db }) => {
  serve(app, historyApi.history, { funcs: ['viewHistory'] }, async (req) => (await history(db, req.scope, req.query)) ?? Promise.reject(notFound()));
  // A carrier outside the caller's scope (or scene limit) is 404, like a device.
  serve(app, historyApi.carrier, { funcs: ['viewHistory'] }, async (req) => (await carrierHistory(db, req.scope, req.query)) ?? Promise.reject(notFound()));
};
