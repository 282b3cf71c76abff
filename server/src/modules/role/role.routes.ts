import { roleApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { notFound } from '../../platform/http/errors.js';
import { serve } from '../../platform/http/route.js';
import { permissionTree } from '../resource/menu.service.js';
import * as repo from './role.repository.js';
import { checkRole, creatableLevels, creatableTypes, deleteRoles, roleCustomer } from './role.service.js';

/** Roles (`/user/userLimits`, spec §3 Role, §5, §6, §8 408/409/413/415). */
export const roleRoutes: Module = (app, { db }) => {
  const view = { funcs: ['viewRole'] };

  serve(app, roleApi.page, view, async (req) => repo.page(db, req.scope, req.query));
  serve(app, roleApi.detail, view, async (req) => (await repo.detail(db, req.scope, req.query.id)) ?? Promise.reject(notFound()));

  /** The role editor's tree: menu entries with the function codes the caller may delegate. */
  serve(app, roleApi.permissionTree, view, async (req) => permissionTree(db, req.scope));

  /** Role types and levels the caller may give a new role of the customer (default: its own). */
  serve(app, roleApi.roleType, view, async (req) => {
    const c = await roleCustomer(db, req.scope, req.query.customerId);
    return { types: creatableTypes(req.scope), levels: creatableLevels(req.scope, c.type === 'platform') };
  });

  serve(app, roleApi.add, { funcs: ['newRole'] }, async (req) =>
    mutate(db, req, { module: 'role', method: 'add', content: `add role ${req.body.name}`, params: req.body }, async (q) => {
      const w = await checkRole(q, req.scope, req.body);
      return { id: await repo.insert(q, req.scope, w) };
    }),
  );

  serve(app, roleApi.update, { funcs: ['editRole'] }, async (req) =>
    mutate(db, req, { module: 'role', method: 'update', content: `update role ${req.body.id}`, params: req.body }, async (q) => {
      const existing = await repo.detail(q, req.scope, req.body.id);
      if (!existing) throw notFound();
      const w = await checkRole(q, req.scope, req.body, existing);
      await repo.update(q, req.scope, existing.id, w);
      return { id: existing.id };
    }),
  );

  serve(app, roleApi.del, { funcs: ['removeRole'] }, async (req) => {
    const { ids, confirm } = req.query;
    return mutate(db, req, { module: 'role', method: 'del', content: `delete roles ${ids.join(',')}`, params: { ids, confirm } }, (q) =>
      deleteRoles(q, req.scope, ids, confirm === 'true'),
    );
  });
};
