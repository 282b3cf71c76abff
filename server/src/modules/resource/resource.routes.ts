import { z } from 'zod';
import { resourceBody, resourceUpdateBody } from '@coldwatch/contract';
import type { FastifyRequest } from 'fastify';
import type { Module } from '../index.js';
import { mutate } from '../../platform/audit/audit.js';
import { ok } from '../../platform/http/envelope.js';
import { noPermission, notFound } from '../../platform/http/errors.js';
import { idsQuery, pageQuery } from '../../platform/http/paging.js';
import { ROOT_USER_ID } from '../../platform/auth/funcs.js';
import { menuFor } from './menu.service.js';
import * as repo from './resource.repository.js';

const id = z.coerce.number().int().positive();
const pageFilters = pageQuery({
  name: z.string().trim().max(50).optional(),
  code: z.string().trim().max(40).optional(),
  parentId: id.optional(),
});

/** Spec §6: menu-resource management is for the user whose id is 1 only — platform administrators included get 500102. */
async function rootOnly(req: FastifyRequest) {
  if (req.scope?.userId !== ROOT_USER_ID) throw noPermission();
}

/** Menu resources (`/sys/resource`, spec §3, §5, §8 407/408) and the caller's own menu. */
export const resourceRoutes: Module = (app, { db }) => {
  const tags = ['resource'];
  const guard = { preHandler: rootOnly };

  app.get('/service/resource/page', { ...guard, config: { funcs: ['viewUrl'] }, schema: { querystring: pageFilters, tags } }, async (req) =>
    ok(await repo.page(db, req.query), req.locale),
  );

  app.get('/service/resource/detail', { ...guard, config: { funcs: ['viewUrl'] }, schema: { querystring: z.object({ id }), tags } }, async (req) => {
    const row = await repo.detail(db, req.query.id);
    if (!row) throw notFound();
    return ok(row, req.locale);
  });

  app.get('/service/resource/tree', { ...guard, config: { funcs: ['viewUrl'] }, schema: { tags } }, async (req) => ok(await repo.tree(db), req.locale));

  app.post('/service/resource/add', { ...guard, config: { funcs: ['newUrl'] }, schema: { body: resourceBody, tags } }, async (req) => {
    const r = await mutate(db, req, { module: 'resource', method: 'add', content: `add menu resource ${req.body.code}`, params: req.body }, (q) => repo.add(q, req.body));
    return ok(r, req.locale);
  });

  app.put('/service/resource/update', { ...guard, config: { funcs: ['editUrl'] }, schema: { body: resourceUpdateBody, tags } }, async (req) => {
    const r = await mutate(db, req, { module: 'resource', method: 'update', content: `update menu resource ${req.body.id}`, params: req.body }, (q) => repo.update(q, req.body));
    return ok(r, req.locale);
  });

  app.delete('/service/resource/del', { ...guard, config: { funcs: ['removeUrl'] }, schema: { querystring: idsQuery, tags } }, async (req) => {
    const { ids } = req.query;
    const r = await mutate(db, req, { module: 'resource', method: 'del', content: `delete menu resources ${ids.join(',')}`, params: { ids } }, (q) => repo.remove(q, ids));
    return ok(r, req.locale);
  });

  /** The caller's own menu tree (spec §7 `/service/mine/resource`): what menuFor decides. */
  app.get('/service/mine/resource', { schema: { tags: ['mine'] } }, async (req) => ok(await menuFor(db, req.scope), req.locale));
};
