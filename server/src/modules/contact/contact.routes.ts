import { z } from 'zod';
import { contactAddBody, contactUpdateBody } from '@coldwatch/contract';
import type { Module } from '../index.js';
import { mutate } from '../../platform/audit/audit.js';
import { ok } from '../../platform/http/envelope.js';
import { notFound } from '../../platform/http/errors.js';
import { idsQuery, pageQuery } from '../../platform/http/paging.js';
import * as repo from './contact.repository.js';

const id = z.coerce.number().int().positive();
const pageFilters = pageQuery({
  name: z.string().trim().max(30).optional(),
  phone: z.string().trim().max(20).optional(),
  groupName: z.string().trim().max(50).optional(),
});

/** Alarm contacts of spec §3 (name, gender, phone, e-mail, alarm level, group). */
export const contactRoutes: Module = (app, { db }) => {
  const tags = ['contact'];

  app.get('/service/contact/page', { config: { funcs: ['viewContact'] }, schema: { querystring: pageFilters, tags } }, async (req) =>
    ok(await repo.page(db, req.scope, req.query), req.locale),
  );

  app.get('/service/contact/detail', { config: { funcs: ['viewContact'] }, schema: { querystring: z.object({ id }), tags } }, async (req) => {
    const row = await repo.detail(db, req.scope, req.query.id);
    if (!row) throw notFound();
    return ok(row, req.locale);
  });

  app.post('/service/contact/add', { config: { funcs: ['newContact'] }, schema: { body: contactAddBody, tags } }, async (req) => {
    const r = await mutate(db, req, { module: 'contact', method: 'add', content: `add contact ${req.body.name}`, params: req.body }, (q) => repo.add(q, req.scope, req.body));
    return ok(r, req.locale);
  });

  app.put('/service/contact/update', { config: { funcs: ['editContact'] }, schema: { body: contactUpdateBody, tags } }, async (req) => {
    const r = await mutate(db, req, { module: 'contact', method: 'update', content: `update contact ${req.body.id}`, params: req.body }, (q) => repo.update(q, req.scope, req.body));
    return ok(r, req.locale);
  });

  app.delete('/service/contact/del', { config: { funcs: ['removeContact'] }, schema: { querystring: idsQuery, tags } }, async (req) => {
    const { ids } = req.query;
    const r = await mutate(db, req, { module: 'contact', method: 'del', content: `delete contacts ${ids.join(',')}`, params: { ids } }, (q) => repo.remove(q, req.scope, ids));
    return ok(r, req.locale);
  });
};
