import { monitorTaskApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { serve } from '../../platform/http/route.js';
import * as repo from './monitortask.repository.js';

/**
 * Spec §2 /arch/task (menu monitorTask, function object DetectionTask): the monitor tasks of the
 * caller's customers. A change is in the system log; it takes effect at the next presence scan
 * and the next ingest batch, which read the task through the offline rule (alarm/offline.ts).
 */
export const monitorTaskRoutes: Module = (app, { db }) => {
  serve(app, monitorTaskApi.page, { funcs: ['viewDetectionTask'] }, async (req) => repo.pageTasks(db, req.scope, req.query));
  serve(app, monitorTaskApi.update, { funcs: ['editDetectionTask'] }, async (req) =>
    mutate(
      db,
      req,
      { module: 'monitorTask', method: 'update', content: `set the ${req.body.family} task to ${req.body.intervalValue} ${req.body.intervalUnit}, ${req.body.status ? 'running' : 'stopped'}`, params: req.body },
      (q) => repo.setTask(q, req.scope, req.body),
    ),
  );
  serve(app, monitorTaskApi.del, { funcs: ['editDetectionTask'] }, async (req) =>
    mutate(db, req, { module: 'monitorTask', method: 'reset', content: `tasks ${req.query.ids.join(',')} back to the platform default`, params: req.query }, (q) =>
      repo.resetTasks(q, req.scope, req.query.ids),
    ),
  );
};
