import { z } from 'zod';
import type { Module } from '../index.js';
import { mutate } from '../../platform/audit/audit.js';
import { ok } from '../../platform/http/envelope.js';
import { ROOT_USER_ID } from '../../platform/auth/funcs.js';
import * as repo from './param.repository.js';
import { PARAMS, PARAM_KEYS, type ParamKey } from './param.repository.js';

/** {key, value}: a known key, and a value valid for it (numbers may come as numbers or strings). */
const updateBody = z
  .object({
    key: z.enum(PARAM_KEYS as [ParamKey, ...ParamKey[]], { error: 'errors.param.unknownKey' }),
    value: z.union([z.string().trim(), z.number()]).transform(String),
  })
  .superRefine((b, ctx) => {
    const p = PARAMS[b.key];
    if (p && !p.valid(b.value)) ctx.addIssue({ code: 'custom', path: ['value'], message: p.error });
  });

/**
 * Server-side parameters (spec §2 /sys/paramsetup, §7 `/service/share/param`): the login rule
 * `single_session` ('on' makes a new login end the account's other sessions, 500104) and
 * `sensor_history_retention_days` (1..3650, read by the ingest writer).
 * - `GET /service/share/param`: every signed-in user reads them (global, no customer data),
 *   with `editable` = whether the caller may change them.
 * - `PUT /service/param/update`: `editParam` (level 2, menu `param`: platform users whose role
 *   grants it, and root); everyone else 500102.
 */
export const paramRoutes: Module = (app, { db }) => {
  const tags = ['param'];
  const mayEdit = (s: { userId: number; funcs: Set<string> }) => s.userId === ROOT_USER_ID || s.funcs.has('editParam');

  app.get('/service/share/param', { schema: { tags } }, async (req) =>
    ok({ ...(await repo.list(db)), editable: mayEdit(req.scope) }, req.locale),
  );

  app.put('/service/param/update', { config: { funcs: ['editParam'] }, schema: { body: updateBody, tags } }, async (req) => {
    const { key, value } = req.body;
    const r = await mutate(db, req, { module: 'param', method: 'update', content: `set ${key} = ${value}`, params: { key, value } }, (q) => repo.set(q, key, value));
    return ok(r, req.locale);
  });
};
