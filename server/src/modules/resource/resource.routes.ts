import type { FastifyRequest } from 'fastify';
import { resourceApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { noPermission, notFound } from '../../platform/http/errors.js';
import { serve } from '../../platform/http/route.js';
import { ROOT_USER_ID } from '../../platform/auth/funcs.js';
import { menuFor } from './menu.service.js';
import * as repo from './resource.repository.js';

/** Spec §6: menu-resource management is for the user whose id is 1 only — platform administrators included get 500102. */
function rootOnly(req: FastifyRequest) {
  if (req.scope?.userId !== ROOT_USER_ID) throw noPermission();
}

/** Menu resources (`/sys/resource`, spec §3, §5, §8 407/408) and the caller's own menu. */
export const resourceRoutes: Module = (app, { db }) => {
  serve(app, resourceApi.page, { funcs: ['viewUrl'] }, async (req) => (rootOnly(req), repo.page(db, req.query)));
  serve(app, resourceApi.detail, { funcs: ['viewUrl'] }, async (req) => (rootOnly(req), (await repo.detail(db, req.query.id)) ?? Promise.reject(notFound())));
  serve(app, resourceApi.tree, { funcs: ['viewUrl'] }, async (req) => (rootOnly(req), repo.tree(db)));

  serve(app, resourceApi.add, { funcs: ['newUrl'] }, async (req) => {
    rootOnly(req);
    return mutate(db, req, { module: 'resource', method: 'add', content: `add menu resource ${req.body.code}`, params: req.body }, (q) => repo.add(q, req.body));
  });

  serve(app, resourceApi.update, { funcs: ['editUrl'] }, async (req) => {
    rootOnly(req);
    return mutate(db, req, { module: 'resource', method: 'update', content: `update menu resource ${req.body.id}`, params: req.body }, (q) => repo.update(q, req.body));
  });

  serve(app, resourceApi.del, { funcs: ['removeUrl'] }, async (req) => {
    rootOnly(req);
    const { ids } = req.query;
    return mutate(db, req, { module: 'resource', method: 'del', content: `delete menu resources ${ids.join(',')}`, params: { ids } }, (q) => repo.remove(q, ids));
  });

  /** The caller's own menu tree (spec §7 `/service/mine/resource`): what menuFor decides. */
  serve(app, resourceApi.mine, {}, async (req) => menuFor(db, req.scope));
};
