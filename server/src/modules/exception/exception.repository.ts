import { Code, EXCEPTION_STATUS } from '@coldwatch/contract';
import type { Db, Queryable } from '../../platform/db/client.js';
import { carrierWhere, scopeWhere, type Scope } from '../../platform/auth/scope.js';
import { AppError, notFound } from '../../platform/http/errors.js';
import { pageResult } from '../../platform/http/paging.js';

const msCol = (col: string, as: string) => `(extract(epoch from ${col}) * 1000)::bigint AS "${as}"`;

/**
 * An exception row as the API answers it. durationS of an ongoing exception runs up to now,
 * so the list shows how long it has lasted so far.
 */
const COLS = `e.id, e.customer_id AS "customerId", cu.name AS "customerName",
  e.carrier_id AS "carrierId", c.name AS "carrierName", e.sensor_id AS "sensorId", s.dev_no AS "devNo",
  e.gateway_id AS "gatewayId", e.type, e.category, e.status, e.ongoing,
  ${msCol('e.start_ts', 'startTs')}, ${msCol('e.end_ts', 'endTs')},
  COALESCE(e.duration_s, CASE WHEN e.ongoing THEN GREATEST(0, extract(epoch from now() - e.start_ts))::int END) AS "durationS",
  e.first_value AS "firstValue", e.peak_value AS "peakValue", e.limit_min AS "limitMin", e.limit_max AS "limitMax",
  e.reason, e.measures, ${msCol('e.created_at', 'createdAt')}`;
const FROM = `exception_record e JOIN customer cu ON cu.id = e.customer_id
  LEFT JOIN carrier c ON c.id = e.carrier_id LEFT JOIN sensor s ON s.id = e.sensor_id`;

export interface ExceptionFilter {
  iDisplayStart: number;
  iDisplayLength: number;
  status?: number;
  type?: string;
  category?: string;
  carrierId?: number;
  devNo?: string;
  ongoing?: boolean;
  startTime?: number;
  endTime?: number;
}

/**
 * Scene limit of an exception (docs/permissions.md "Scene limit"): judged by its carrier, or
 * when it has none by the carrier its sensor or gateway is bound to. 'TRUE' when unlimited.
 */
export function exceptionLimitWhere(scope: Scope, alias: string, params: unknown[]): string {
  if (scope.sceneIds === null) return 'TRUE';
  const carrierOf = `COALESCE(${alias}.carrier_id, (SELECT ls.carrier_id FROM sensor ls WHERE ls.id = ${alias}.sensor_id),
    (SELECT lg.carrier_id FROM gateway lg WHERE lg.id = ${alias}.gateway_id))`;
  return carrierWhere(scope, carrierOf, params);
}

function filters(scope: Scope, f: Omit<ExceptionFilter, 'iDisplayStart' | 'iDisplayLength'>, params: unknown[]) {
  const where = [scopeWhere(scope, 'e.customer_id', params), exceptionLimitWhere(scope, 'e', params)];
  if (f.status !== undefined) where.push(`e.status = $${params.push(f.status)}`);
  if (f.type) where.push(`e.type = $${params.push(f.type)}`);
  if (f.category) where.push(`e.category = $${params.push(f.category)}`);
  if (f.carrierId) where.push(`e.carrier_id = $${params.push(f.carrierId)}`);
  if (f.devNo) where.push(`s.dev_no ILIKE $${params.push(`%${f.devNo.replace(/[\\%_]/g, (m) => `\\${m}`)}%`)}`);
  if (f.ongoing !== undefined) where.push(`e.ongoing = $${params.push(f.ongoing)}`);
  // A time range selects the exceptions that were going on at some point inside it; end_ts
  // is the first reading back in range, so an exception ending at startTime is not included.
  if (f.endTime !== undefined) where.push(`e.start_ts <= $${params.push(new Date(f.endTime))}`);
  if (f.startTime !== undefined) where.push(`(e.ongoing OR e.end_ts IS NULL OR e.end_ts > $${params.push(new Date(f.startTime))})`);
  return where;
}

/** Newest first. */
export async function page(db: Db, scope: Scope, f: ExceptionFilter) {
  const params: unknown[] = [];
  const where = filters(scope, f, params).join(' AND ');
  const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${FROM} WHERE ${where}`, params);
  const rows = await db.query(
    `SELECT ${COLS} FROM ${FROM} WHERE ${where} ORDER BY e.start_ts DESC, e.id DESC
      LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, f.iDisplayLength, f.iDisplayStart],
  );
  return pageResult(rows, n, f);
}

/** The home page's latest exceptions (spec §2/§9: five). */
export function latest(db: Db, scope: Scope, limit: number, status?: number) {
  const params: unknown[] = [];
  const where = filters(scope, { status }, params).join(' AND ');
  return db.query(`SELECT ${COLS} FROM ${FROM} WHERE ${where} ORDER BY e.start_ts DESC, e.id DESC LIMIT $${params.push(limit)}`, params);
}

/** Counts for the home page's exception widget. */
export async function stats(db: Db, scope: Scope, f: { startTime?: number; endTime?: number }) {
  const params: unknown[] = [];
  const where = filters(scope, f, params).join(' AND ');
  const rows = await db.query<{ status: number; category: string; ongoing: boolean; n: number }>(
    `SELECT e.status, e.category, e.ongoing, count(*)::int AS n FROM ${FROM} WHERE ${where} GROUP BY 1, 2, 3`,
    params,
  );
  const byCategory: Record<string, number> = {};
  const out = { total: 0, pending: 0, processed: 0, closed: 0, ongoing: 0, byCategory };
  for (const r of rows) {
    out.total += r.n;
    if (r.status === EXCEPTION_STATUS.pending) out.pending += r.n;
    else if (r.status === EXCEPTION_STATUS.processed) out.processed += r.n;
    else if (r.status === EXCEPTION_STATUS.closed) out.closed += r.n;
    if (r.ongoing) out.ongoing += r.n;
    byCategory[r.category] = (byCategory[r.category] ?? 0) + r.n;
  }
  return out;
}

/** One exception with the notices it caused. */
export async function detail(db: Db, scope: Scope, id: number) {
  const params: unknown[] = [id];
  const row = await db.one(`SELECT ${COLS} FROM ${FROM} WHERE e.id = $1 AND ${scopeWhere(scope, 'e.customer_id', params)} AND ${exceptionLimitWhere(scope, 'e', params)}`,
    params,
  );
  if (!row) return undefined;
  const notices = await db.query(
    `SELECT id, type, channel, recipient, status, attempts, result, ${msCol('send_time', 'sendTime')}, ${msCol('created_at', 'createdAt')}
       FROM notice_log WHERE exception_id = $1 ORDER BY id`,
    [id],
  );
  return { ...row, notices };
}

/** Locks the caller's exceptions by id; a foreign or missing one makes the whole call 404. */
async function lockScoped(q: Queryable, scope: Scope, ids: number[]) {
  const params: unknown[] = [ids];
  const rows = await q.query<{ id: number; status: number; ongoing: boolean }>(
    `SELECT e.id, e.status, e.ongoing FROM exception_record e WHERE e.id = ANY($1::bigint[]) AND ${scopeWhere(scope, 'e.customer_id', params)}
        AND ${exceptionLimitWhere(scope, 'e', params)} FOR UPDATE`,
    params,
  );
  if (rows.length !== new Set(ids).size) throw notFound();
  return rows;
}

/** Handling (spec §3 reason, measures): pending or processed → processed. A closed record is final. */
export async function handle(q: Queryable, scope: Scope, body: { id: number; reason: string; measures: string }) {
  const [row] = await lockScoped(q, scope, [body.id]);
  if (row.status === EXCEPTION_STATUS.closed) throw new AppError(Code.FAILED, 'errors.exception.closed');
  await q.query('UPDATE exception_record SET reason = $2, measures = $3, status = $4 WHERE id = $1', [
    body.id, body.reason, body.measures, EXCEPTION_STATUS.processed,
  ]);
  return { id: body.id, status: EXCEPTION_STATUS.processed };
}

/** Closing (spec §4): all or nothing; an ongoing exception cannot be closed while it lasts. */
export async function close(q: Queryable, scope: Scope, ids: number[]) {
  const rows = await lockScoped(q, scope, ids);
  if (rows.some((r) => r.ongoing)) throw new AppError(Code.FAILED, 'errors.exception.ongoing');
  await q.query('UPDATE exception_record SET status = $2 WHERE id = ANY($1::bigint[])', [ids, EXCEPTION_STATUS.closed]);
  return { closed: rows.length };
}
