import { z } from 'zod';
import { gatewayAddBody, gatewayUpdateBody } from '@coldwatch/contract';
import type { Module } from '../index.js';
import { mutate } from '../../platform/audit/audit.js';
import { ok } from '../../platform/http/envelope.js';
import { notFound } from '../../platform/http/errors.js';
import { idsQuery, pageQuery } from '../../platform/http/paging.js';
import * as repo from './gateway.repository.js';

const id = z.coerce.number().int().positive();
const pageFilters = pageQuery({
  sn: z.string().trim().max(30).optional(),
  name: z.string().trim().max(50).optional(),
  status: z.coerce.number().int().min(0).max(2).optional(),
  carrierId: id.optional(),
});

/** Gateways of spec §3: enrolment with a one-time secret, status and heartbeat fields. */
export const gatewayRoutes: Module = (app, { db }) => {
  const tags = ['gateway'];

  app.get('/service/gateway/page', { config: { funcs: ['viewGateway'] }, schema: { querystring: pageFilters, tags } }, async (req) =>
    ok(await repo.page(db, req.scope, req.query), req.locale),
  );

  app.get('/service/gateway/detail', { config: { funcs: ['viewGateway'] }, schema: { querystring: z.object({ id }), tags } }, async (req) => {
    const row = await repo.detail(db, req.scope, req.query.id);
    if (!row) throw notFound();
    return ok(row, req.locale);
  });

  app.get('/service/gateway/:id', { config: { funcs: ['viewGateway'] }, schema: { params: z.object({ id }), tags } }, async (req) => {
    const row = await repo.withSensors(db, req.scope, req.params.id);
    if (!row) throw notFound();
    return ok(row, req.locale);
  });

  app.post('/service/gateway/add', { config: { funcs: ['newGateway'] }, schema: { body: gatewayAddBody, tags } }, async (req) => {
    const r = await mutate(db, req, { module: 'gateway', method: 'add', content: `add gateway ${req.body.sn}`, params: req.body }, (q) => repo.add(q, req.scope, req.body));
    return ok(r, req.locale);
  });

  app.put('/service/gateway/update', { config: { funcs: ['editGateway'] }, schema: { body: gatewayUpdateBody, tags } }, async (req) => {
    const r = await mutate(db, req, { module: 'gateway', method: 'update', content: `update gateway ${req.body.id}`, params: req.body }, (q) => repo.update(q, req.scope, req.body));
    return ok(r, req.locale);
  });

  app.post('/service/gateway/resetSecret', { config: { funcs: ['editGateway'] }, schema: { querystring: z.object({ id }), tags } }, async (req) => {
    const r = await mutate(db, req, { module: 'gateway', method: 'resetSecret', content: `new secret for gateway ${req.query.id}`, params: req.query }, (q) =>
      repo.resetSecret(q, req.scope, req.query.id),
    );
    return ok(r, req.locale);
  });

  app.delete('/service/gateway/del', { config: { funcs: ['removeGateway'] }, schema: { querystring: idsQuery, tags } }, async (req) => {
    const { ids } = req.query;
    const r = await mutate(db, req, { module: 'gateway', method: 'del', content: `delete gateways ${ids.join(',')}`, params: { ids } }, (q) => repo.remove(q, req.scope, ids));
    return ok(r, req.locale);
  });
};
