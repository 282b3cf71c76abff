import { dmApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { notFound } from '../../platform/http/errors.js';
import { serve } from '../../platform/http/route.js';
import { carrierWithDevices, monitorList } from './dm.repository.js';

/** Monitoring-point detail and the live board's list (spec §2 /databoard, /monitorPointRealTime). */
export const dmRoutes: Module = (app, { db }) => {
  const access = { funcs: ['viewMonitorPointRealTime'] };

  serve(app, dmApi.mpDetail, access, async (req) => (await carrierWithDevices(db, req.scope, req.query.carrierId)) ?? Promise.reject(notFound()));

  // Not paged: the board shows every carrier of the chosen scene at once and refreshes it live.
  serve(app, dmApi.monitorList, access, async (req) => monitorList(db, req.scope, req.query));
};
