import { z } from 'zod';
import { SENSOR_TYPES, sensorBody, sensorUpdateBody } from '@coldwatch/contract';
import type { Module } from '../index.js';
import { mutate } from '../../platform/audit/audit.js';
import { ok } from '../../platform/http/envelope.js';
import { notFound } from '../../platform/http/errors.js';
import { idsQuery, pageQuery } from '../../platform/http/paging.js';
import * as repo from './sensor.repository.js';

const id = z.coerce.number().int().positive();
const pageFilters = pageQuery({
  devNo: z.string().trim().max(30).optional(),
  type: z.enum(SENSOR_TYPES).optional(),
  status: z.coerce.number().int().min(0).max(2).optional(),
  gatewayId: id.optional(),
  carrierId: id.optional(),
  bound: z.enum(['true', 'false']).optional().transform((v) => (v === undefined ? undefined : v === 'true')),
});

/** Sensors of spec §3: platform-unique device numbers, bound to a gateway and optionally a carrier of the same customer. */
export const sensorRoutes: Module = (app, { db }) => {
  const tags = ['sensor'];

  app.get('/service/sensor/page', { config: { funcs: ['viewSensor'] }, schema: { querystring: pageFilters, tags } }, async (req) =>
    ok(await repo.page(db, req.scope, req.query), req.locale),
  );

  app.get('/service/sensor/detail', { config: { funcs: ['viewSensor'] }, schema: { querystring: z.object({ id }), tags } }, async (req) => {
    const row = await repo.detail(db, req.scope, req.query.id);
    if (!row) throw notFound();
    return ok(row, req.locale);
  });

  app.get('/service/sensor/lst/:type', { config: { funcs: ['viewSensor'] }, schema: { params: z.object({ type: z.enum(SENSOR_TYPES, { error: 'errors.rule.sensorType' }) }), tags } }, async (req) =>
    ok(await repo.listOfType(db, req.scope, req.params.type), req.locale),
  );

  app.post('/service/sensor/add', { config: { funcs: ['newSensor'] }, schema: { body: sensorBody, tags } }, async (req) => {
    const r = await mutate(db, req, { module: 'sensor', method: 'add', content: `add sensor ${req.body.devNo}`, params: req.body }, (q) => repo.add(q, req.scope, req.body));
    return ok(r, req.locale);
  });

  // The spec's client saves sensor fields with POST /service/sensor/upt; PUT /update is the same call in the house style.
  for (const [method, url] of [['PUT', '/service/sensor/update'], ['POST', '/service/sensor/upt']] as const) {
    app.route({
      method,
      url,
      config: { funcs: ['editSensor'] },
      schema: { body: sensorUpdateBody, tags },
      handler: async (req) => {
        const r = await mutate(db, req, { module: 'sensor', method: 'update', content: `update sensor ${req.body.id}`, params: req.body }, (q) => repo.update(q, req.scope, req.body));
        return ok(r, req.locale);
      },
    });
  }

  app.delete('/service/sensor/del', { config: { funcs: ['removeSensor'] }, schema: { querystring: idsQuery, tags } }, async (req) => {
    const { ids } = req.query;
    const r = await mutate(db, req, { module: 'sensor', method: 'del', content: `delete sensors ${ids.join(',')}`, params: { ids } }, (q) => repo.remove(q, req.scope, ids));
    return ok(r, req.locale);
  });
};
