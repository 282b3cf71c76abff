import { dmApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { notFound } from '../../platform/http/errors.js';
import { serve } from '../../platform/http/route.js';
import { monitorTable } from './table.js';
import { carrierWithDevices, monitorCounts, monitorList, monitorOverview, monitorPage, monitorSummary } from './dm.repository.js';

/** Monitoring-point detail and the live board's list (spec §2 /databoard, /monitorPointRealTime). */
export const dmRoutes: Module = (app, { db }) => {
  const access = { funcs: ['viewMonitorPointRealTime'] };

  serve(app, dmApi.mpDetail, access, async (req) => (await carrierWithDevices(db, req.scope, req.query.carrierId)) ?? Promise.reject(notFound()));

  // Not paged: every carrier of the chosen scene (no view of the web reads it any more: docs/scaling.md "The board at 100,000 points").
  serve(app, dmApi.monitorList, access, async (req) => monitorList(db, req.scope, req.query));

  // The board at scale (docs/scaling.md "The board at 100,000 points"): a page and the counts, filtered on the server.
  serve(app, dmApi.monitorPage, access, async (req) => monitorPage(db, req.scope, req.query));
  serve(app, dmApi.monitorTable, access, async (req) => monitorTable(db, req.scope, req.query));
  serve(app, dmApi.monitorCounts, access, async (req) => monitorCounts(db, req.scope, req.query));
  serve(app, dmApi.monitorSummary, access, async (req) => monitorSummary(db, req.scope, req.query));
  serve(app, dmApi.monitorOverview, access, async (req) => monitorOverview(db, req.scope));
};
