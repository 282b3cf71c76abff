import { sql, type Expression, type SqlBool } from 'kysely';
import type { Queryable } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import { contains, inTimeRange, msOf, paged, type PageInput } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';

export interface SysLogFilter extends PageInput {
  module?: string;
  operator?: string;
  method?: string;
  result?: number;
  content?: string;
  startTime?: number;
  endTime?: number;
  customerId?: number;
}

/** The system log of spec §3, newest first, cut to the caller's customers. */
export function page(q: Queryable, scope: Scope, f: SysLogFilter) {
  // Rows written before a session exists (a failed login) carry no customer: only platform users see them.
  const k = scoped(q, scope);
  const query = k
    .selectFrom('sys_log as l')
    .leftJoin('customer as cu', 'cu.id', 'l.customer_id')
    .select([msOf('l.created_at').as('time'), 'l.id', 'l.module', 'l.operator', 'l.method', 'l.content', 'l.params', 'l.result', 'l.ip', 'l.customer_id as customerId', 'cu.name as customerName'])
    .where((eb) => {
      const and: Expression<SqlBool>[] = [];
      if (f.customerId) and.push(eb('l.customer_id', '=', f.customerId));
      if (f.module) and.push(eb('l.module', '=', f.module));
      if (f.method) and.push(eb('l.method', '=', f.method));
      if (f.operator) and.push(eb('l.operator', 'ilike', contains(f.operator)));
      if (f.result !== undefined) and.push(eb('l.result', '=', f.result));
      if (f.content) and.push(eb('l.content', 'ilike', contains(f.content)));
      and.push(...inTimeRange(eb, 'l.created_at', f));
      return eb.and(and);
    });
  return paged(query, f, { by: ['l.created_at desc', 'l.id desc'], windowedCountOn: k });
}

/** The module names present in the caller's part of the log, for the search bar's select. */
export async function modules(q: Queryable, scope: Scope): Promise<string[]> {
  const rows = await scoped(q, scope).selectFrom('sys_log').select('module').distinct().orderBy('module').execute();
  return rows.map((r) => r.module);
}

/**
 * The entries of one record (module and id): its add (the log names the id it made), updates,
 * switches and delete; `params.id` or `params.ids` name it. Newest first.
 */
export function ofRecord(q: Queryable, scope: Scope, module: string, id: number, f: PageInput) {
  const k = scoped(q, scope);
  const query = k
    .selectFrom('sys_log as l')
    .leftJoin('customer as cu', 'cu.id', 'l.customer_id')
    .select([msOf('l.created_at').as('time'), 'l.id', 'l.module', 'l.operator', 'l.method', 'l.content', 'l.params', 'l.result', 'l.ip', 'l.customer_id as customerId', 'cu.name as customerName'])
    .where('l.module', '=', module)
    .where('l.result', '=', 1)
    .where(sql<boolean>`(l.params->>'id' = ${String(id)} OR l.params->'ids' @> ${JSON.stringify([id])}::jsonb)`);
  return paged(query, f, { by: ['l.created_at desc', 'l.id desc'] });
}
