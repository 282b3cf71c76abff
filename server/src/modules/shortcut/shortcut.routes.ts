import { z } from 'zod';
import type { Module } from '../index.js';
import { mutate } from '../../platform/audit/audit.js';
import { ok } from '../../platform/http/envelope.js';
import * as repo from './shortcut.repository.js';
import { MAX_SHORTCUTS } from './shortcut.repository.js';

const addBody = z.object({
  ids: z
    .array(z.coerce.number().int().positive())
    .max(MAX_SHORTCUTS, { error: 'errors.shortcut.tooMany' })
    .refine((ids) => new Set(ids).size === ids.length, { error: 'errors.shortcut.duplicate' }),
});

/**
 * Shortcuts of spec §2/§3 (ids of menu entries, in the caller's order): the shortcut bar,
 * and the dialog that picks them from the caller's menu tree. A session is all they need.
 */
export const shortcutRoutes: Module = (app, { db }) => {
  const tags = ['mine'];

  app.get('/service/mine/shortcut', { schema: { tags } }, async (req) => ok(await repo.list(db, req.scope), req.locale));

  app.get('/service/mine/shortcutMenu', { schema: { tags } }, async (req) => ok(await repo.pickTree(db, req.scope), req.locale));

  app.post('/service/mine/addShortcut', { schema: { body: addBody, tags } }, async (req) => {
    const { ids } = req.body;
    const r = await mutate(db, req, { module: 'shortcut', method: 'addShortcut', content: `set shortcuts ${ids.join(',')}`, params: { ids } }, (q) =>
      repo.replace(q, req.scope, ids),
    );
    return ok(r, req.locale);
  });
};
