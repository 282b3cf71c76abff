import { complianceApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { serve } from '../../platform/http/route.js';
import * as repo from './compliance.repository.js';

/**
 * The GSP checks of /count/guidance (docs/compliance.md). They answer under the function code of
 * their menu entry (analGuidance, object Statistic): whoever may open the page may read them, and
 * each sees the findings of its own customers only.
 */
export const complianceRoutes: Module = (app, { db }) => {
  serve(app, complianceApi.summary, { funcs: ['viewStatistic'] }, async (req) => ({ checks: await repo.summary(db, req.scope, req.query.customerId) }));
  serve(app, complianceApi.page, { funcs: ['viewStatistic'] }, async (req) => repo.page(db, req.scope, req.query));
};
