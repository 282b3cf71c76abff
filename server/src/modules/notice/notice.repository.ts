import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { NOTICE_STATUS } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { contains, inTimeRange, msOf, msOrNull, paged, type PageInput } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';
import { notFound } from '../../platform/http/errors.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';

type From = DB & { n: DB['notice_log'] };

/** Scene limit of a notice: the notices of exceptions in the limit (a notice without exception, unlimited callers only). */
const noticeLimitOf = (eb: ExpressionBuilder<From, 'n'>, scope: Scope): Expression<SqlBool> => sceneLimit(eb, scope, 'notice_log', 'n');

export interface NoticeFilter extends PageInput {
  type?: string;
  channel?: string;
  status?: number;
  recipient?: string;
  exceptionId?: number;
  startTime?: number;
  endTime?: number;
}

/** The notice log (spec §3), newest first. */
export function page(q: Queryable, scope: Scope, f: NoticeFilter) {
  const k = scoped(q, scope);
  const query = k
    .selectFrom('notice_log as n')
    .innerJoin('customer as cu', 'cu.id', 'n.customer_id')
    .select([
      'n.id',
      'n.customer_id as customerId',
      'cu.name as customerName',
      'n.exception_id as exceptionId',
      'n.type',
      'n.channel',
      'n.recipient',
      'n.subject',
      'n.content',
      'n.status',
      'n.attempts',
      'n.result',
      msOrNull('n.send_time').as('sendTime'),
      msOrNull('n.next_attempt_at').as('nextAttemptAt'),
      msOf('n.created_at').as('createdAt'),
    ])
    .where((eb) => {
      const and = [noticeLimitOf(eb, scope)];
      if (f.type) and.push(eb('n.type', '=', f.type));
      if (f.channel) and.push(eb('n.channel', '=', f.channel));
      if (f.status !== undefined) and.push(eb('n.status', '=', f.status));
      if (f.recipient) and.push(eb('n.recipient', 'ilike', contains(f.recipient)));
      if (f.exceptionId) and.push(eb('n.exception_id', '=', f.exceptionId));
      and.push(...inTimeRange(eb, 'n.created_at', f));
      return eb.and(and);
    });
  return paged(query, f, { by: ['n.created_at desc', 'n.id desc'], windowedCountOn: k });
}

/**
 * Sends failed notices again (after SMTP_URL was set, or the mail server is back): they go
 * back to pending with a fresh attempt count and the notifier picks them up. Sent and
 * pending ones are left as they are, so a double click sends nothing twice.
 */
export async function retry(q: Queryable, scope: Scope, ids: number[]) {
  const k = scoped(q, scope);
  const found = await k
    .selectFrom('notice_log as n')
    .select(['n.id', 'n.status'])
    .where('n.id', 'in', ids)
    .where((eb) => noticeLimitOf(eb, scope))
    .forUpdate()
    .execute();
  if (found.length !== new Set(ids).size) throw notFound();
  const failed = found.filter((r) => r.status === NOTICE_STATUS.failed).map((r) => r.id);
  if (failed.length) {
    await k
      .updateTable('notice_log')
      .set({ status: NOTICE_STATUS.pending, attempts: 0, next_attempt_at: sql<Date>`now()`, result: '' })
      .where('id', 'in', failed)
      .execute();
  }
  return { retried: failed.length };
}
