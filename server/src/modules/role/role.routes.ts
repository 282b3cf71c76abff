import { z } from 'zod';
import { roleBody, roleUpdateBody, ROLE_TYPES } from '@coldwatch/contract';
import type { Module } from '../index.js';
import { mutate } from '../../platform/audit/audit.js';
import { ok } from '../../platform/http/envelope.js';
import { notFound } from '../../platform/http/errors.js';
import { idsQuery, pageQuery } from '../../platform/http/paging.js';
import { permissionTree } from '../resource/menu.service.js';
import * as repo from './role.repository.js';
import { checkRole, creatableLevels, creatableTypes, deleteRoles, roleCustomer } from './role.service.js';

const id = z.coerce.number().int().positive();
const pageFilters = pageQuery({
  name: z.string().trim().max(50).optional(),
  status: z.coerce.number().int().min(0).max(1).optional(),
  type: z.enum(ROLE_TYPES).optional(),
  customerId: id.optional(),
});

/** Roles (`/user/userLimits`, spec §3 Role, §5, §6, §8 408/409/413/415). */
export const roleRoutes: Module = (app, { db }) => {
  const tags = ['role'];

  app.get('/service/role/page', { config: { funcs: ['viewRole'] }, schema: { querystring: pageFilters, tags } }, async (req) =>
    ok(await repo.page(db, req.scope, req.query), req.locale),
  );

  app.get('/service/role/detail', { config: { funcs: ['viewRole'] }, schema: { querystring: z.object({ id }), tags } }, async (req) => {
    const row = await repo.detail(db, req.scope, req.query.id);
    if (!row) throw notFound();
    return ok(row, req.locale);
  });

  /** The role editor's tree: menu entries with the function codes the caller may delegate. */
  app.get('/service/role/permissionTree', { config: { funcs: ['viewRole'] }, schema: { tags } }, async (req) =>
    ok(await permissionTree(db, req.scope), req.locale),
  );

  /** Role types and levels the caller may give a new role of the customer (default: its own). */
  app.get('/service/share/roleType', { config: { funcs: ['viewRole'] }, schema: { querystring: z.object({ customerId: id.optional() }), tags } }, async (req) => {
    const c = await roleCustomer(db, req.scope, req.query.customerId);
    return ok({ types: creatableTypes(req.scope), levels: creatableLevels(req.scope, c.type === 'platform') }, req.locale);
  });

  app.post('/service/role/add', { config: { funcs: ['newRole'] }, schema: { body: roleBody, tags } }, async (req) => {
    const r = await mutate(db, req, { module: 'role', method: 'add', content: `add role ${req.body.name}`, params: req.body }, async (q) => {
      const w = await checkRole(q, req.scope, req.body);
      return { id: await repo.insert(q, w) };
    });
    return ok(r, req.locale);
  });

  app.put('/service/role/update', { config: { funcs: ['editRole'] }, schema: { body: roleUpdateBody, tags } }, async (req) => {
    const r = await mutate(db, req, { module: 'role', method: 'update', content: `update role ${req.body.id}`, params: req.body }, async (q) => {
      const existing = await repo.detail(q, req.scope, req.body.id);
      if (!existing) throw notFound();
      const w = await checkRole(q, req.scope, req.body, existing);
      await repo.update(q, existing.id, w);
      return { id: existing.id };
    });
    return ok(r, req.locale);
  });

  const delQuery = idsQuery.extend({ confirm: z.enum(['true', 'false']).optional() });
  app.delete('/service/role/del', { config: { funcs: ['removeRole'] }, schema: { querystring: delQuery, tags } }, async (req) => {
    const { ids, confirm } = req.query;
    const r = await mutate(db, req, { module: 'role', method: 'del', content: `delete roles ${ids.join(',')}`, params: { ids, confirm } }, (q) =>
      deleteRoles(q, req.scope, ids, confirm === 'true'),
    );
    return ok(r, req.locale);
  });
};
