import { shortcutApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { serve } from '../../platform/http/route.js';
import * as repo from './shortcut.repository.js';

/**
 * Shortcuts of spec §2/§3 (ids of menu entries, in the caller's order): the shortcut bar,
 * and the dialog that picks them from the caller's menu tree. A session is all they need.
 */
export const shortcutRoutes: Module = (app, { db }) => {
  serve(app, shortcutApi.list, {}, async (req) => repo.list(db, req.scope));
  serve(app, shortcutApi.menu, {}, async (req) => repo.pickTree(db, req.scope));
  serve(app, shortcutApi.set, {}, async (req) => {
    const { ids } = req.body;
    return mutate(db, req, { module: 'shortcut', method: 'addShortcut', content: `set shortcuts ${ids.join(',')}`, params: { ids } }, (q) => repo.replace(q, req.scope, ids));
  });
};
