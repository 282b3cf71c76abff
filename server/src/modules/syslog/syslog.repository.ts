import type { Db } from '../../platform/db/client.js';
import { scopeWhere, type Scope } from '../../platform/auth/scope.js';
import { likeParam, msCol, pageQuery } from '../dm/records.js';

export interface SysLogFilter {
  iDisplayStart: number;
  iDisplayLength: number;
  module?: string;
  operator?: string;
  method?: string;
  result?: number;
  content?: string;
  startTime?: number;
  endTime?: number;
  customerId?: number;
}

const COLS = `l.id, ${msCol('l.created_at', 'time')}, l.module, l.operator, l.method, l.content, l.params, l.result,
  l.customer_id AS "customerId", cu.name AS "customerName"`;
// Rows written before a session exists (a failed login) carry no customer: only platform users see them.
const FROM = 'sys_log l LEFT JOIN customer cu ON cu.id = l.customer_id';

/** The system log of spec §3, newest first, cut to the caller's customers. */
export function page(db: Db, scope: Scope, f: SysLogFilter) {
  const params: unknown[] = [];
  const where = [scopeWhere(scope, 'l.customer_id', params)];
  if (f.customerId) where.push(`l.customer_id = $${params.push(f.customerId)}`);
  if (f.module) where.push(`l.module = $${params.push(f.module)}`);
  if (f.method) where.push(`l.method = $${params.push(f.method)}`);
  if (f.operator) where.push(`l.operator ILIKE $${params.push(likeParam(f.operator))}`);
  if (f.result !== undefined) where.push(`l.result = $${params.push(f.result)}`);
  if (f.content) where.push(`l.content ILIKE $${params.push(likeParam(f.content))}`);
  if (f.startTime !== undefined) where.push(`l.created_at >= $${params.push(new Date(f.startTime))}`);
  if (f.endTime !== undefined) where.push(`l.created_at <= $${params.push(new Date(f.endTime))}`);
  return pageQuery(db, { select: COLS, from: FROM, where, orderBy: 'l.created_at DESC, l.id DESC' }, params, f);
}

/** The module names present in the caller's part of the log, for the search bar's select. */
export async function modules(db: Db, scope: Scope): Promise<string[]> {
  const params: unknown[] = [];
  const rows = await db.query<{ module: string }>(`SELECT DISTINCT l.module FROM sys_log l WHERE ${scopeWhere(scope, 'l.customer_id', params)} ORDER BY 1`, params);
  return rows.map((r) => r.module);
}
