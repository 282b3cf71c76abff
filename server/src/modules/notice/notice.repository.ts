import { NOTICE_STATUS } from '@coldwatch/contract';
import type { Db, Queryable } from '../../platform/db/client.js';
import { scopeWhere, type Scope } from '../../platform/auth/scope.js';
import { notFound } from '../../platform/http/errors.js';
import { pageResult } from '../../platform/http/paging.js';
import { exceptionLimitWhere } from '../exception/exception.repository.js';

const msCol = (col: string, as: string) => `(extract(epoch from ${col}) * 1000)::bigint AS "${as}"`;

const COLS = `n.id, n.customer_id AS "customerId", n.exception_id AS "exceptionId", n.type, n.channel, n.recipient,
  n.subject, n.content, n.status, n.attempts, n.result,
  ${msCol('n.send_time', 'sendTime')}, ${msCol('n.next_attempt_at', 'nextAttemptAt')}, ${msCol('n.created_at', 'createdAt')}`;

/** Scene limit of a notice: the notices of exceptions in the limit (a notice without exception, unlimited callers only). */
function noticeLimitWhere(scope: Scope, params: unknown[]): string {
  if (scope.sceneIds === null) return 'TRUE';
  return `n.exception_id IN (SELECT le.id FROM exception_record le WHERE ${exceptionLimitWhere(scope, 'le', params)})`;
}

export interface NoticeFilter {
  iDisplayStart: number;
  iDisplayLength: number;
  type?: string;
  channel?: string;
  status?: number;
  recipient?: string;
  exceptionId?: number;
  startTime?: number;
  endTime?: number;
}

/** The notice log (spec §3), newest first. */
export async function page(db: Db, scope: Scope, f: NoticeFilter) {
  const params: unknown[] = [];
  const where = [scopeWhere(scope, 'n.customer_id', params), noticeLimitWhere(scope, params)];
  if (f.type) where.push(`n.type = $${params.push(f.type)}`);
  if (f.channel) where.push(`n.channel = $${params.push(f.channel)}`);
  if (f.status !== undefined) where.push(`n.status = $${params.push(f.status)}`);
  if (f.recipient) where.push(`n.recipient ILIKE $${params.push(`%${f.recipient.replace(/[\\%_]/g, (m) => `\\${m}`)}%`)}`);
  if (f.exceptionId) where.push(`n.exception_id = $${params.push(f.exceptionId)}`);
  if (f.startTime !== undefined) where.push(`n.created_at >= $${params.push(new Date(f.startTime))}`);
  if (f.endTime !== undefined) where.push(`n.created_at <= $${params.push(new Date(f.endTime))}`);
  const w = where.join(' AND ');
  const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM notice_log n WHERE ${w}`, params);
  const rows = await db.query(`SELECT ${COLS} FROM notice_log n WHERE ${w} ORDER BY n.created_at DESC, n.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, [
    ...params, f.iDisplayLength, f.iDisplayStart,
  ]);
  return pageResult(rows, n, f);
}

/**
 * Sends failed notices again (after SMTP_URL was set, or the mail server is back): they go
 * back to pending with a fresh attempt count and the notifier picks them up. Sent and
 * pending ones are left as they are, so a double click sends nothing twice.
 */
export async function retry(q: Queryable, scope: Scope, ids: number[]) {
  const params: unknown[] = [ids];
  const found = await q.query<{ id: number; status: number }>(
    `SELECT n.id, n.status FROM notice_log n WHERE n.id = ANY($1::bigint[]) AND ${scopeWhere(scope, 'n.customer_id', params)}
        AND ${noticeLimitWhere(scope, params)} FOR UPDATE`,
    params,
  );
  if (found.length !== new Set(ids).size) throw notFound();
  const failed = found.filter((r) => r.status === NOTICE_STATUS.failed).map((r) => r.id);
  if (failed.length) {
    await q.query(`UPDATE notice_log SET status = $2, attempts = 0, next_attempt_at = now(), result = '' WHERE id = ANY($1::bigint[])`, [
      failed, NOTICE_STATUS.pending,
    ]);
  }
  return { retried: failed.length };
}
