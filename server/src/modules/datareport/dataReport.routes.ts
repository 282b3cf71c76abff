import { dataReportApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { serve } from '../../platform/http/route.js';
import { dataReport } from './dataReport.repository.js';

/**
 * Spec §2 /count/dataReport (the statistics section's first page; function object Statistic):
 * `GET /service/count/dataReport` answers the report of the caller's carriers of an organisation
 * node or a type over a span (docs/statistics.md "The data report"). A scene of another customer
 * finds no carrier: an empty report, as an empty organisation.
 */
export const dataReportRoutes: Module = (app, { db }) => {
  serve(app, dataReportApi.report, { funcs: ['viewStatistic'] }, async (req) => dataReport(db, req.scope, req.query));
};
