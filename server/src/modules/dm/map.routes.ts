import { dmMapApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { serve } from '../../platform/http/route.js';
import { mapClusters } from './mapClusters.js';

/** The monitor map clustered on the server (mapClusters.ts): a viewport's cells, never the whole monitor list. As the board, for viewers of real-time monitoring. */
export const mapRoutes: Module = (app, { db }) => {
  serve(app, dmMapApi.mapClusters, { funcs: ['viewMonitorPointRealTime'] }, async (req) => mapClusters(db, req.scope, req.query));
};
