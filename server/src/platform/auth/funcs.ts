import { ALL_FUNCS, flattenMenu, reachesLevel } from '@coldwatch/contract';
import type { Queryable } from '../db/client.js';
import { crossTenant } from '../db/kysely.js';
import { sql, type Expression } from 'kysely';

/**
 * The access level of spec §6 a function code needs: the lowest level among the menu
 * entries that carry its object (a function outside the menu is open to every user type).
 */
const FUNC_LEVEL = new Map<string, number>();
for (const e of flattenMenu()) {
  if (!e.object) continue;
  for (const verb of ['view', 'new', 'edit', 'remove']) {
    const f = `${verb}${e.object}`;
    const level = e.level ?? 0;
    FUNC_LEVEL.set(f, Math.min(FUNC_LEVEL.get(f) ?? 9, level));
  }
}
export const funcLevel = (f: string) => FUNC_LEVEL.get(f) ?? 0;

/** Every function a user type may hold at most; roles can grant no more than this. */
export const reachableFuncs = (userType: number, isRoot: boolean) => ALL_FUNCS.filter((f) => reachesLevel(funcLevel(f), userType, isRoot));

/** Root (the user whose id is 1, spec §6) holds everything. */
export const ROOT_USER_ID = 1;

/*
 * Facts a session's scope is made of, each written once as a SQL expression of a user id:
 * resolveSession (session.ts) runs them inside the one statement that reads the session, so a
 * request costs one query; governedCustomers runs one for a single user.
 */

/** The functions of the user's active roles (before cutToUserType), as text[]. */
export const roleFuncsSql = (userId: Expression<number>) =>
  sql<string[]>`(SELECT coalesce(array_agg(DISTINCT rf.func), '{}') FROM user_role ur
     JOIN role r ON r.id = ur.role_id AND r.status = 1 JOIN role_func rf ON rf.role_id = r.id
    WHERE ur.user_id = ${userId})`;

/** The active customers a proxy user governs: the union of its active proxy roles' customers (spec §6 role level -1), as int[]. */
export const governedSql = (userId: Expression<number>) =>
  sql<number[]>`(SELECT coalesce(array_agg(DISTINCT rpc.governed_id ORDER BY rpc.governed_id), '{}') FROM user_role ur
     JOIN role r ON r.id = ur.role_id AND r.status = 1 JOIN role_proxy_customer rpc ON rpc.role_id = r.id
     JOIN customer c ON c.id = rpc.governed_id AND c.status = 1
    WHERE ur.user_id = ${userId})`;

/** A user's functions: the union of its active roles' functions, cut to what its user type may reach. */
export function cutToUserType(funcs: string[], userId: number, userType: number): string[] {
  if (userId === ROOT_USER_ID) return ALL_FUNCS;
  const reach = new Set(reachableFuncs(userType, false));
  return funcs.filter((f) => reach.has(f));
}

/** The customers a proxy user governs. */
export async function governedCustomers(q: Queryable, userId: number): Promise<number[]> {
  const { rows } = await sql<{ ids: number[] }>`SELECT ${governedSql(sql.val(userId))} AS ids`.execute(crossTenant(q, "a proxy's governed customers make its scope"));
  return rows[0].ids;
}
