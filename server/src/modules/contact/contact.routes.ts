import { contactApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { notFound } from '../../platform/http/errors.js';
import { serve } from '../../platform/http/route.js';
import * as repo from './contact.repository.js';

/** Contacts of spec §3: who gets a carrier's alarm notices. */
export const contactRoutes: Module = (app, { db }) => {
  serve(app, contactApi.page, { funcs: ['viewContact'] }, async (req) => repo.page(db, req.scope, req.query));

  serve(app, contactApi.detail, { funcs: ['viewContact'] }, async (req) => (await repo.detail(db, req.scope, req.query.id)) ?? Promise.reject(notFound()));

  serve(app, contactApi.add, { funcs: ['newContact'] }, async (req) =>
    mutate(db, req, { module: 'contact', method: 'add', content: `add contact ${req.body.name}`, params: req.body }, (q) => repo.add(q, req.scope, req.body)),
  );

  serve(app, contactApi.update, { funcs: ['editContact'] }, async (req) =>
    mutate(db, req, { module: 'contact', method: 'update', content: `update contact ${req.body.id}`, params: req.body }, (q) => repo.update(q, req.scope, req.body)),
  );

  serve(app, contactApi.del, { funcs: ['removeContact'] }, async (req) => {
    const { ids } = req.query;
    return mutate(db, req, { module: 'contact', method: 'del', content: `delete contacts ${ids.join(',')}`, params: { ids } }, (q) => repo.remove(q, req.scope, ids));
  });
};
