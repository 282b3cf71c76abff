import { invalidRuleApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { notFound } from '../../platform/http/errors.js';
import { serve } from '../../platform/http/route.js';
import * as repo from './invalidrule.repository.js';

/**
 * Spec §2 /abnormal/invalidRule (menu invalidRule, function object InvalidRule): rules that make
 * chosen carriers' readings invalid for a time (docs/alarms.md "Invalid rules"). Every change is
 * in the system log with its parameters, and takes effect from now: what a rule excluded before
 * stays as it was (invalid_rule_version, alarm/excluded.ts).
 */
export const invalidRuleRoutes: Module = (app, { db }) => {
  serve(app, invalidRuleApi.page, { funcs: ['viewInvalidRule'] }, async (req) => repo.page(db, req.scope, req.query));
  serve(app, invalidRuleApi.detail, { funcs: ['viewInvalidRule'] }, async (req) => (await repo.detail(db, req.scope, req.query.id)) ?? Promise.reject(notFound()));

  serve(app, invalidRuleApi.add, { funcs: ['newInvalidRule'] }, async (req) =>
    mutate(db, req, { module: 'invalidRule', method: 'add', content: `add invalid rule ${req.body.name} (${req.body.kind})`, params: req.body }, (q) => repo.add(q, req.scope, req.body)),
  );
  serve(app, invalidRuleApi.update, { funcs: ['editInvalidRule'] }, async (req) =>
    mutate(db, req, { module: 'invalidRule', method: 'update', content: `update invalid rule ${req.body.id} (${req.body.name})`, params: req.body }, (q) => repo.update(q, req.scope, req.body)),
  );
  serve(app, invalidRuleApi.status, { funcs: ['editInvalidRule'] }, async (req) =>
    mutate(
      db,
      req,
      { module: 'invalidRule', method: req.body.enabled ? 'enable' : 'disable', content: `${req.body.enabled ? 'enable' : 'disable'} invalid rules ${req.body.ids.join(',')}`, params: req.body },
      (q) => repo.setEnabled(q, req.scope, req.body.ids, req.body.enabled),
    ),
  );
  serve(app, invalidRuleApi.del, { funcs: ['removeInvalidRule'] }, async (req) =>
    mutate(db, req, { module: 'invalidRule', method: 'del', content: `delete invalid rules ${req.query.ids.join(',')}`, params: req.query }, (q) => repo.remove(q, req.scope, req.query.ids)),
  );
};
