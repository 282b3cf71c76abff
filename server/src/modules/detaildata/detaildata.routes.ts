import { detailDataApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { serve } from '../../platform/http/route.js';
import { detailPage } from './detaildata.service.js';
import { exportCarrier } from './detaildata.export.js';

/**
 * Spec §2 /count/detailData (menu detailData, function viewHistory like the history it pages):
 * every reading of carriers or sensors over a span. A carrier or sensor outside the caller's
 * scope or scene limit makes the query 404, like a missing one. The export takes one carrier
 * (spec §8 "only one carrier for query or export") and streams its rows as CSV.
 */
export const detailDataRoutes: Module = (app, { db }) => {
  serve(app, detailDataApi.page, { funcs: ['viewHistory'] }, async (req) =>
    detailPage(db, req.scope, { ...req.query, offset: req.query.iDisplayStart, length: req.query.iDisplayLength }),
  );

  serve(app, detailDataApi.export, { funcs: ['viewHistory'] }, async (req, reply) => {
    const { filename, stream } = await exportCarrier(db, req.scope, req.query, req.locale ?? 'zh-CN');
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff');
    return stream;
  });
};
