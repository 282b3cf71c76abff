import { QUERY_CODE_STATUS, queryCodeApi } from '@coldwatch/contract';
import type { FastifyRequest } from 'fastify';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { serve } from '../../platform/http/route.js';
import * as repo from './querycode.repository.js';
import { codeUrl, readCode, signCode } from './querycode.link.js';

/**
 * Spec §2 /code/findCode, §7 find/code/generate and find/sensor/page (menu findCode, function
 * object History: the codes hand out sensors' history). Making a code needs newHistory, revoking
 * removeHistory; the public page needs the code and nothing else.
 */
export const queryCodeRoutes: Module = (app, { db, config }) => {
  const base = (req: FastifyRequest) => config.publicUrl ?? `${req.protocol}://${req.host}`;

  serve(app, queryCodeApi.generate, { funcs: ['newHistory'] }, async (req) => {
    const made = await mutate(db, req, { module: 'queryCode', method: 'generate', content: `query code for sensors ${req.body.sensorIds.join(',')}`, params: req.body }, (q) =>
      repo.generate(q, req.scope, req.body, Date.now()),
    );
    const code = await signCode(db, { id: made.id, customerId: made.customerId, exp: made.exp });
    return { id: made.id, code, url: codeUrl(base(req), code), expiresAt: made.exp };
  });

  serve(app, queryCodeApi.page, { funcs: ['viewHistory'] }, async (req) => {
    const page = await repo.pageCodes(db, req.scope, req.query);
    const rows = await Promise.all(
      page.rows.map(async (r) => {
        if (r.status !== QUERY_CODE_STATUS.active) return { ...r, code: null, url: null };
        const code = await signCode(db, { id: r.id, customerId: r.customerId, exp: r.expiresAt });
        return { ...r, code, url: codeUrl(base(req), code) };
      }),
    );
    return { ...page, rows };
  });

  serve(app, queryCodeApi.revoke, { funcs: ['removeHistory'] }, async (req) =>
    mutate(db, req, { module: 'queryCode', method: 'revoke', content: `revoke query codes ${req.query.ids.join(',')}`, params: req.query }, (q) => repo.revoke(q, req.scope, req.query.ids)),
  );

  serve(app, queryCodeApi.sensors, { public: true }, async (req) => {
    const now = Date.now();
    return repo.foundSensors(db, await readCode(db, req.query.code, now), req.query, now);
  });
};
