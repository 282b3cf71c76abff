import { mappingApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { serve } from '../../platform/http/route.js';
import * as repo from './mapping.repository.js';

/**
 * GET /service/count/mapping (issue 29): the JJF 1101 mapping figures of a carrier's probes.
 * A verification figure, so the verification task's view function guards it; it only reads.
 */
export const mappingRoutes: Module = (app, { db }) => {
  serve(app, mappingApi.mapping, { funcs: ['viewVerifyTask'] }, async (req) => repo.carrierMapping(db, req.scope, req.query));
};
