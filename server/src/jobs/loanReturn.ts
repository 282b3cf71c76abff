import type { Db } from '../platform/db/client.js';
import type { Bus } from '../platform/events.js';
import { crossTenant } from '../platform/db/kysely.js';
import { dueLoans, endLoans } from '../modules/loan/loan.repository.js';

/** Loans whose period ran out end, every customer's (the job `loan-return`): the sensors go home. */
export async function returnDueLoans(db: Db, bus: Bus): Promise<number> {
  const due = await dueLoans(crossTenant(db, 'loans of every customer come due'));
  if (!due.length) return 0;
  const r = await db.tx((q) => endLoans(crossTenant(q, 'loans of every customer come due'), due.map((l) => l.id), 'expired', null));
  bus.emit('directory', { sensors: r.devNos });
  return r.ended;
}
