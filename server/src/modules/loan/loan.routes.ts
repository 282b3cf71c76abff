import { loanApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { serve } from '../../platform/http/route.js';
import * as repo from './loan.repository.js';

/**
 * Lending of spec §2 /sys/deviceTransfer (docs/devices.md "Lending"): current loans and their
 * history (the owner's), lend, revoke. The job `loan-return` ends loans whose period ran out.
 * Ingest forgets the lent sensors after the commit, so their next reading is filed under the
 * new holder at once.
 */
export const loanRoutes: Module = (app, { db, bus }) => {
  serve(app, loanApi.page, { funcs: ['viewBorrow'] }, async (req) => repo.page(db, req.scope, req.query));

  serve(app, loanApi.lentOut, { funcs: ['viewSensor'] }, async (req) => repo.page(db, req.scope, { ...req.query, state: 'current' }));

  serve(app, loanApi.add, { funcs: ['newBorrow'] }, async (req) => {
    const b = req.body;
    const r = await mutate(db, req, { module: 'deviceTransfer', method: 'lend', content: `lend sensors ${b.sensorIds.join(',')} to customer ${b.borrowerId}`, params: b }, (q) =>
      repo.lend(q, req.scope, b),
    );
    bus.emit('directory', { sensors: r.devNos });
    return { lent: r.lent };
  });

  serve(app, loanApi.revoke, { funcs: ['editBorrow'] }, async (req) => {
    const r = await mutate(db, req, { module: 'deviceTransfer', method: 'revoke', content: `revoke loans ${req.body.ids.join(',')}`, params: req.body }, (q) =>
      repo.revoke(q, req.scope, req.body.ids),
    );
    bus.emit('directory', { sensors: r.devNos });
    return { revoked: r.ended };
  });
};
