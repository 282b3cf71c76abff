import { z } from 'zod';
import { carrierBody, carrierUpdateBody } from '@coldwatch/contract';
import type { Module } from '../index.js';
import { mutate } from '../../platform/audit/audit.js';
import { ok } from '../../platform/http/envelope.js';
import { notFound } from '../../platform/http/errors.js';
import { idsQuery, pageQuery } from '../../platform/http/paging.js';
import { carrierWithDevices } from '../dm/dm.repository.js';
import * as repo from './carrier.repository.js';

const id = z.coerce.number().int().positive();
const pageFilters = pageQuery({
  type: z.coerce.number().int().min(1).max(7).optional(),
  sceneId: id.optional(),
  name: z.string().trim().max(50).optional(),
  status: z.coerce.number().int().min(1).max(5).optional(),
});

/** Carriers (monitoring points) of spec §3: zones, contacts, bound devices. */
export const carrierRoutes: Module = (app, { db }) => {
  const tags = ['carrier'];

  app.get('/service/carrier/page', { config: { funcs: ['viewCarrier'] }, schema: { querystring: pageFilters, tags } }, async (req) =>
    ok(await repo.page(db, req.scope, req.query), req.locale),
  );

  app.get('/service/carrier/detail', { config: { funcs: ['viewCarrier'] }, schema: { querystring: z.object({ id }), tags } }, async (req) => {
    const row = await repo.detail(db, req.scope, req.query.id);
    if (!row) throw notFound();
    return ok(row, req.locale);
  });

  app.get('/service/atomCarrier/:id', { config: { funcs: ['viewCarrier'] }, schema: { params: z.object({ id }), tags } }, async (req) => {
    const r = await carrierWithDevices(db, req.scope, req.params.id);
    if (!r) throw notFound();
    return ok(r, req.locale);
  });

  app.post('/service/carrier/add', { config: { funcs: ['newCarrier'] }, schema: { body: carrierBody, tags } }, async (req) => {
    const r = await mutate(db, req, { module: 'carrier', method: 'add', content: `add carrier ${req.body.name}`, params: req.body }, (q) => repo.add(q, req.scope, req.body));
    return ok(r, req.locale);
  });

  app.put('/service/carrier/update', { config: { funcs: ['editCarrier'] }, schema: { body: carrierUpdateBody, tags } }, async (req) => {
    const r = await mutate(db, req, { module: 'carrier', method: 'update', content: `update carrier ${req.body.id}`, params: req.body }, (q) => repo.update(q, req.scope, req.body));
    return ok(r, req.locale);
  });

  app.delete('/service/carrier/del', { config: { funcs: ['removeCarrier'] }, schema: { querystring: idsQuery, tags } }, async (req) => {
    const { ids } = req.query;
    const r = await mutate(db, req, { module: 'carrier', method: 'del', content: `delete carriers ${ids.join(',')}`, params: { ids } }, (q) => repo.remove(q, req.scope, ids));
    return ok(r, req.locale);
  });
};
