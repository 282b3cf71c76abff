import { recordPointApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { scoped } from '../../platform/db/scoped.js';
import { serve } from '../../platform/http/route.js';
import { signedStep } from '../exception/signing.js';
import { setTimes, timesPage } from './recordpoint.repository.js';
import { checkSign, recordPage, sign } from './recordpoint.service.js';

/**
 * Spec §2 /arch/temprecord (menu collectRecord, function object RecordPoint): collect records,
 * their record times and their signed approval (docs/records.md). A carrier outside the caller's
 * scope or scene limit is 404, like a missing one.
 */
export const recordPointRoutes: Module = (app, { db }) => {
  serve(app, recordPointApi.page, { funcs: ['viewRecordPoint'] }, async (req) => {
    // Days are the caller's customer's calendar days.
    const cu = await scoped(db, req.scope).selectFrom('customer').select('time_zone').where('id', '=', req.scope.customerId).executeTakeFirst();
    return recordPage(db, req.scope, req.query, cu?.time_zone ?? '+08:00');
  });
  serve(app, recordPointApi.times, { funcs: ['viewRecordPoint'] }, async (req) => timesPage(db, req.scope, req.query));
  serve(app, recordPointApi.setTimes, { funcs: ['editRecordPoint'] }, async (req) =>
    mutate(db, req, { module: 'recordPoint', method: 'times', content: `record times of carrier ${req.body.carrierId}: ${req.body.times.join(' ')}`, params: req.body }, (q) =>
      setTimes(q, req.scope, req.body.carrierId, req.body.times),
    ),
  );
  serve(app, recordPointApi.sign, { funcs: ['editRecordPoint'] }, async (req) => {
    const { sign: signature, ...b } = req.body;
    const entry = { module: 'recordPoint', method: b.decision === 'approved' ? 'approve' : 'reject', content: `${b.decision} the record of carrier ${b.carrierId} on ${b.day}`, params: b };
    return signedStep(
      db,
      req,
      entry,
      signature,
      async () => void (await checkSign(db, req.scope, b.carrierId, b.day)),
      (q, signer) => sign(q, req.scope, signer, b),
    );
  });
};
