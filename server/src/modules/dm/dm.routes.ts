import { z } from 'zod';
import type { Module } from '../index.js';
import { ok } from '../../platform/http/envelope.js';
import { notFound } from '../../platform/http/errors.js';
import { carrierWithDevices, monitorList } from './dm.repository.js';

const id = z.coerce.number().int().positive();

/** Monitoring-point detail and the live board's list (spec §2 /databoard, /monitorPointRealTime). */
export const dmRoutes: Module = (app, { db }) => {
  const tags = ['dm'];
  const config = { funcs: ['viewMonitorPointRealTime'] };

  app.get('/service/dm/mpDetail', { config, schema: { querystring: z.object({ carrierId: id }), tags } }, async (req) => {
    const r = await carrierWithDevices(db, req.scope, req.query.carrierId);
    if (!r) throw notFound();
    return ok(r, req.locale);
  });

  // Not paged: the board shows every carrier of the chosen scene at once and refreshes it live.
  app.get(
    '/service/dm/monitorList',
    {
      config,
      schema: {
        querystring: z.object({ sceneId: id.optional(), type: z.coerce.number().int().min(1).max(7).optional(), name: z.string().trim().max(50).optional() }),
        tags,
      },
    },
    async (req) => ok(await monitorList(db, req.scope, req.query), req.locale),
  );
};
