import { paramApi, recordRetentionRefusal } from '@coldwatch/contract';
import { paramError } from '../../platform/http/errors.js';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { serve } from '../../platform/http/route.js';
import { ROOT_USER_ID } from '../../platform/auth/funcs.js';
import * as repo from './param.repository.js';

/**
 * Server-side parameters (spec §2 /sys/paramsetup, §7 `/service/share/param`; keys and rules
 * in the contract's PARAMS).
 * - `GET /service/share/param`: every signed-in user reads them (global, no customer data),
 *   with `editable` = whether the caller may change them.
 * - `PUT /service/param/update`: `editParam` (level 2, menu `param`: platform users whose role
 *   grants it, and root); everyone else 500102. The records' retention is held to the GxP
 *   floor and the audit log to at least the sensor history (recordRetentionRefusal): 400.
 */
export const paramRoutes: Module = (app, { db, bus, config }) => {
  const mayEdit = (s: { userId: number; funcs: Set<string> }) => s.userId === ROOT_USER_ID || s.funcs.has('editParam');

  serve(app, paramApi.list, {}, async (req) => ({ ...(await repo.list(db)), editable: mayEdit(req.scope), gxpRecords: config.gxpRecords }));

  serve(app, paramApi.update, { funcs: ['editParam'] }, async (req) => {
    const { key, value } = req.body;
    const entry = { module: 'param', method: 'update', content: `set ${key} = ${value}`, params: { key, value } };
    const r = await mutate(db, req, entry, async (q) => {
      // Changes take turns (listForChange): two at once cannot together leave the log shorter than the history.
      const refusal = recordRetentionRefusal(key, value, await repo.listForChange(q), config.gxpRecords);
      if (refusal) throw paramError(refusal, { value: refusal });
      return repo.set(q, key, value);
    });
    // After the commit: the CSP of every replica follows at once (tileOrigin.ts listens; platform/cluster carries it to the others).
    bus.emit('param', { key, value });
    return r;
  });
};
