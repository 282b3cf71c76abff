import { homeApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { serve } from '../../platform/http/route.js';
import * as repo from './home.repository.js';

/**
 * Home settings (spec §2 /homepageset; docs/home.md): the caller's own home style, widgets and
 * sensors. A session is all they need; which widgets it may choose follows its functions.
 */
export const homeRoutes: Module = (app, { db }) => {
  serve(app, homeApi.get, {}, async (req) => repo.get(db, req.scope));
  serve(app, homeApi.set, {}, async (req) => {
    const b = req.body;
    const entry = { module: 'home', method: 'homeSetting', content: `home ${b.style}: ${b.widgets.join(',')}`, params: b };
    return mutate(db, req, entry, (q) => repo.set(q, req.scope, b));
  });
};
