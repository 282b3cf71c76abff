import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { DB } from '../../platform/db/schema.gen.js';
import type { Scope } from '../../platform/auth/scope.js';
import { notFound } from '../../platform/http/errors.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';

/*
 * The devices that hang on a gateway without readings of their own (relays, displays, smart
 * bases), as alias `t` joined to their gateway `g`: their scene limit is their carrier's, as a
 * gateway's; their status is computed the same way; stopping, enabling and deleting displays and
 * bases is the same for each. The table comes from this closed list, never from input.
 */
export type BusTable = 'display' | 'base';

export const busLimit = (eb: ExpressionBuilder<any, any>, scope: Scope, alias = 't') => sceneLimit(eb, scope, 'gateway', alias);

/** Stopped (2) by a user, else online (1) or offline (0) as its gateway. */
export const busStatus = () => sql<number>`CASE WHEN t.status = 2 THEN 2 WHEN g.status = 1 THEN 1 ELSE 0 END`;

/** The list filter on that computed status. */
export function busStatusIs(eb: ExpressionBuilder<any, any>, status: number): Expression<SqlBool> {
  if (status === 2) return eb('t.status', '=', 2);
  return eb.and([eb('t.status', '<>', 2), eb('g.status', status === 1 ? '=' : '<>', 1)]);
}

/** Every id a device of the table in the caller's scope and limit; else 404. */
export async function busInScope(k: Kysely<DB>, scope: Scope, table: BusTable, ids: number[]) {
  const unique = [...new Set(ids)];
  const rows = await k
    .selectFrom(`${table} as t` as 'display as t')
    .select('t.id')
    .where('t.id', 'in', unique)
    .where((eb) => busLimit(eb, scope))
    .execute();
  if (rows.length !== unique.length) throw notFound();
}

export async function busSetStatus(k: Kysely<DB>, scope: Scope, table: BusTable, ids: number[], stopped: boolean): Promise<number> {
  await busInScope(k, scope, table, ids);
  const rows = await k
    .updateTable(`${table} as t` as 'display as t')
    .set({ status: stopped ? 2 : 0 })
    .where('t.id', 'in', ids)
    .where('t.status', stopped ? '<>' : '=', 2)
    .returning('t.id')
    .execute();
  return rows.length;
}

export async function busRemove(k: Kysely<DB>, scope: Scope, table: BusTable, ids: number[]) {
  await busInScope(k, scope, table, ids);
  const gone = await k.deleteFrom(`${table} as t` as 'display as t').where('t.id', 'in', ids).returning('t.id').execute();
  return { deleted: gone.length };
}
