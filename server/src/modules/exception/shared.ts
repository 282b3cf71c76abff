import { sql } from 'kysely';
import type { SharedException } from '@coldwatch/contract';
import type { Db } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import { notFound } from '../../platform/http/errors.js';
import { exceptionSelect, stepsOf } from './exception.repository.js';
import type { ExceptionLink } from '../../alarm/exceptionLink.js';
import { signatureImages } from './signing.js';

/**
 * What /exDetail shows for a genuine link: the one exception it names, read with the link's
 * customer as the whole scope (so nothing of another customer can answer even if an id were
 * wrong), its signed steps and their images, how many notices it caused, and nothing else: no
 * identifiers of carriers, devices, users or reasons that another call could take.
 */
export async function sharedException(db: Db, link: ExceptionLink): Promise<SharedException> {
  const scope = { customerIds: [link.customerId] };
  const k = scoped(db, scope);
  const row = await exceptionSelect(k).select('cu.time_zone as timeZone').where('e.id', '=', link.exceptionId).executeTakeFirst();
  // The exception went with its customer after the link was made.
  if (!row) throw notFound();
  const steps = await stepsOf(k, row.id);
  const notices = await k
    .selectFrom('notice_log')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('exception_id', '=', row.id)
    .executeTakeFirstOrThrow();
  const { customerId: _c, carrierId: _ca, sensorId: _s, gatewayId: _g, reasonId: _r, ...facts } = row;
  return {
    ...facts,
    steps: steps.map(({ userId: _u, reasonId: _sr, ...step }) => step),
    signatures: await signatureImages(db, scope, steps.map((s) => s.signatureId)),
    noticeCount: notices.n,
    expiresAt: link.exp,
  };
}
