import { statisticApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { serve } from '../../platform/http/route.js';
import { notFound } from '../../platform/http/errors.js';
import { statistics } from './statistic.repository.js';

/**
 * Spec §2 /count/statistic (menu statistic, function object Statistic): a carrier's figures over
 * a range, per period on request (docs/statistics.md). A carrier of another customer, or outside
 * the caller's scenes, answers 404 like a missing one. The list answers several carriers for the
 * statistics page and the home widget, leaving out the ones the caller cannot see.
 */
export const statisticRoutes: Module = (app, { db }) => {
  serve(app, statisticApi.view, { funcs: ['viewStatistic'] }, async (req) => {
    const { carrierId, startTime, endTime, period } = req.query;
    const [one] = await statistics(db, req.scope, [carrierId], startTime, endTime, { period });
    if (!one) throw notFound();
    return one;
  });
  serve(app, statisticApi.list, { funcs: ['viewStatistic'] }, async (req) => {
    const { carrierIds, startTime, endTime, period } = req.query;
    return statistics(db, req.scope, [...new Set(carrierIds)], startTime, endTime, { period });
  });
};
