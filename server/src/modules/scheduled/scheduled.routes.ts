import { scheduledApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { serve } from '../../platform/http/route.js';
import * as repo from './scheduled.repository.js';

/**
 * /sys/scheduled: the periodic jobs for the platform's administrators. Reading needs the
 * parameters' view function, "run now" their edit function (both platform level, menu `scheduled`).
 */
export const scheduledRoutes: Module = (app, deps) => {
  const { db } = deps;
  serve(app, scheduledApi.list, { funcs: ['viewParam'] }, async () => repo.list(db));

  serve(app, scheduledApi.run, { funcs: ['editParam'] }, async (req) => {
    const { name } = req.query;
    const r = await mutate(db, req, { module: 'scheduled', method: 'run', content: `run job ${name} now`, params: { name } }, (q) => repo.runNow(q, name));
    void deps.jobs?.kick();
    return r;
  });
};
