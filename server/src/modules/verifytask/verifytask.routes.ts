import { verifyTaskApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { serve } from '../../platform/http/route.js';
import * as repo from './verifytask.repository.js';

/**
 * Spec §2 /arch/verificationTask (menu verificationTask, function object VerifyTask): the
 * verification tasks of the caller's customers, their actions, and each task's mapping figures.
 * Every change is in the system log; the job `verify-task` moves tasks along their times.
 */
export const verifyTaskRoutes: Module = (app, { db }) => {
  const log = (method: string, content: string, params: unknown) => ({ module: 'verifyTask', method, content, params });
  serve(app, verifyTaskApi.page, { funcs: ['viewVerifyTask'] }, async (req) => repo.pageTasks(db, req.scope, req.query));
  serve(app, verifyTaskApi.detail, { funcs: ['viewVerifyTask'] }, async (req) => repo.detail(db, req.scope, req.query.id));
  serve(app, verifyTaskApi.add, { funcs: ['newVerifyTask'] }, async (req) =>
    mutate(db, req, log('add', `verification task ${req.body.name}`, req.body), (q) => repo.addTask(q, req.scope, req.body)),
  );
  serve(app, verifyTaskApi.update, { funcs: ['editVerifyTask'] }, async (req) =>
    mutate(db, req, log('update', `verification task ${req.body.id} ${req.body.name}`, req.body), (q) => repo.updateTask(q, req.scope, req.body)),
  );
  serve(app, verifyTaskApi.del, { funcs: ['removeVerifyTask'] }, async (req) =>
    mutate(db, req, log('delete', `verification tasks ${req.query.ids.join(',')}`, req.query), (q) => repo.deleteTasks(q, req.scope, req.query.ids)),
  );
  serve(app, verifyTaskApi.start, { funcs: ['editVerifyTask'] }, async (req) =>
    mutate(db, req, log('start', `verification task ${req.query.id}: start recording`, req.query), (q) => repo.startRecording(q, req.scope, req.query.id)),
  );
  serve(app, verifyTaskApi.terminate, { funcs: ['editVerifyTask'] }, async (req) =>
    mutate(db, req, log('terminate', `verification task ${req.query.id}: terminated`, req.query), (q) => repo.terminate(q, req.scope, req.query.id)),
  );
};
