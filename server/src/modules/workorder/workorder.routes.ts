import multipart from '@fastify/multipart';
import { WORK_ORDER_PICTURE_MAX_BYTES, workOrderApi, type WorkOrderAction } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import type { Queryable } from '../../platform/db/client.js';
import type { Scope } from '../../platform/auth/scope.js';
import { notFound } from '../../platform/http/errors.js';
import { serve } from '../../platform/http/route.js';
import { readImageLogged } from '../../platform/http/upload.js';
import { tellWorkOrderStep } from '../../alarm/workOrderNotices.js';
import * as repo from './workorder.repository.js';
import { addPicture, picture, raiseStep, takeStep } from './workorder.steps.js';

/**
 * Spec §2 /order/workOrder (menu workOrder, function object WorkOrder; docs/workorders.md). Raising
 * needs newWorkOrder, cancelling removeWorkOrder, every other step editWorkOrder; each step, its
 * system-log row and its e-mails to the other side are one transaction.
 */
export const workOrderRoutes: Module = async (app, { db }) => {
  await app.register(multipart, { throwFileSizeLimit: false, limits: { files: 1, fields: 10 } });
  const view = { funcs: ['viewWorkOrder'] };

  serve(app, workOrderApi.page, view, async (req) => repo.pageOrders(db, req.scope, req.query));
  serve(app, workOrderApi.detail, view, async (req) => repo.detail(db, req.scope, req.query.id));
  serve(app, workOrderApi.counts, view, async (req) => repo.counts(db, req.scope));

  serve(app, workOrderApi.add, { funcs: ['newWorkOrder'] }, async (req) =>
    mutate(db, req, { module: 'workOrder', method: 'add', content: `raise a ${req.body.category} work order on ${req.body.subjectKind} ${req.body.subjectId}`, params: req.body }, async (q) => {
      const o = await repo.raise(q, req.scope, req.body);
      await raiseStep(q, req.scope, o, req.body.description);
      await tell(q, req.scope, o.id, 'raise', 'customer', '', 0);
      return { id: o.id };
    }),
  );

  /** The other side hears of the step (alarm/workOrderNotices.ts), in the step's transaction. */
  async function tell(q: Queryable, scope: Scope, id: number, action: WorkOrderAction, side: 'customer' | 'provider', note: string, status: number, rating?: number) {
    const o = await repo.orderOf(q, scope, id);
    await tellWorkOrderStep(q, o, { action, side, by: scope.name || scope.account, note, rating, status });
  }

  const steps = ['accept', 'reject', 'record', 'done', 'confirm', 'evaluate', 'cancel'] as const;
  for (const action of steps) {
    const funcs = action === 'cancel' ? ['removeWorkOrder'] : ['editWorkOrder'];
    serve(app, workOrderApi[action], { funcs }, async (req) => {
      const b = req.body as { id: number; note: string; rating?: number };
      return mutate(db, req, { module: 'workOrder', method: action, content: `${action} work order ${b.id}`, params: b }, async (q) => {
        const done = await takeStep(q, req.scope, action, b);
        await tell(q, req.scope, b.id, action, done.side, b.note, done.status, b.rating);
        return { id: b.id };
      });
    });
  }

  // Pictures belong to what is raised (the customer's), or to the work recorded (the provider's, who holds the codes too).
  serve(app, workOrderApi.picture, { funcs: ['newWorkOrder'] }, async (req) => {
    const entry = { module: 'workOrder', method: 'picture', content: `add a picture to work order ${req.query.id}` };
    const img = await readImageLogged(db, req, WORK_ORDER_PICTURE_MAX_BYTES, 'errors.upload.tooLarge20m', entry);
    return mutate(db, req, { ...entry, params: { id: req.query.id, size: img.data.length, mime: img.mime } }, (q) => addPicture(q, req.scope, req.query.id, img));
  });

  serve(app, workOrderApi.image, view, async (req, reply) => {
    const f = await picture(db, req.scope, req.query.id);
    if (!f) throw notFound();
    reply.type(f.mime).header('cache-control', 'private, max-age=86400').header('content-disposition', 'inline; filename="picture"');
    return f.data;
  });
};
