import type { FastifyRequest } from 'fastify';
import { guideApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { isPlatform } from '../../platform/auth/scope.js';
import { noPermission } from '../../platform/http/errors.js';
import { serve } from '../../platform/http/route.js';
import * as repo from './guide.repository.js';

/** Spec §3: the guide is edited by platform staff; a customer's user, administrator or not, gets 500102. */
function staffOnly(req: FastifyRequest) {
  if (!isPlatform(req.scope)) throw noPermission();
}

/**
 * The guide (docs/help.md): share/guide for every signed-in user, guide/* for platform staff.
 * §6 names no function object for the guide: managing it goes with the platform's parameters
 * (viewParam to read the hidden parts, editParam to change it), and a customer's user is
 * refused even when a role gave it those.
 */
const READ = { funcs: ['viewParam'] };
const WRITE = { funcs: ['editParam'] };
export const guideRoutes: Module = (app, { db }) => {
  serve(app, guideApi.book, {}, async () => repo.book(db));
  serve(app, guideApi.groups, READ, async (req) => (staffOnly(req), repo.groups(db)));
  serve(app, guideApi.list, READ, async (req) => (staffOnly(req), repo.items(db, req.params.id)));
  const write = <T>(req: FastifyRequest, method: string, content: string, params: unknown, fn: Parameters<typeof mutate<T>>[3]) => {
    staffOnly(req);
    return mutate(db, req, { module: 'guide', method, content, params }, fn);
  };
  serve(app, guideApi.groupAdd, WRITE, async (req) => write(req, 'groupAdd', `add guide group ${req.body.code}`, req.body, (q) => repo.addGroup(q, req.body)));
  serve(app, guideApi.groupUpdate, WRITE, async (req) => write(req, 'groupUpdate', `update guide group ${req.body.id}`, req.body, (q) => repo.updateGroup(q, req.body)));
  serve(app, guideApi.groupDel, WRITE, async (req) => write(req, 'groupDel', `delete guide group ${req.params.id}`, req.params, (q) => repo.removeGroup(q, req.params.id)));
  serve(app, guideApi.add, WRITE, async (req) => write(req, 'add', `add guide article ${req.body.code}`, req.body, (q) => repo.addItem(q, req.body)));
  serve(app, guideApi.update, WRITE, async (req) => write(req, 'update', `update guide article ${req.body.id}`, req.body, (q) => repo.updateItem(q, req.body)));
  serve(app, guideApi.del, WRITE, async (req) => write(req, 'del', `delete guide article ${req.params.id}`, req.params, (q) => repo.removeItem(q, req.params.id)));
  serve(app, guideApi.status, WRITE, async (req) =>
    write(req, 'status', `set guide articles ${req.query.ids.join(',')} to status ${req.query.status}`, req.query, (q) => repo.setStatus(q, req.query.ids, req.query.status)),
  );
};
