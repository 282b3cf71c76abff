import { ALL_FUNCS, flattenMenu, reachesLevel } from '@coldwatch/contract';
import type { Queryable } from '../db/client.js';
import { crossTenant } from '../db/kysely.js';

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

/** A user's functions: the union of its active roles' functions, cut to what its user type may reach. */
export async function userFuncs(q: Queryable, userId: number, userType: number): Promise<string[]> {
  const isRoot = userId === ROOT_USER_ID;
  if (isRoot) return ALL_FUNCS;
  const rows = await crossTenant(q, 'a session\'s functions are resolved before its scope exists')
    .selectFrom('user_role as ur')
    .innerJoin('role as r', 'r.id', 'ur.role_id')
    .innerJoin('role_func as rf', 'rf.role_id', 'r.id')
    .select('rf.func')
    .distinct()
    .where('ur.user_id', '=', userId)
    .where('r.status', '=', 1)
    .execute();
  const reach = new Set(reachableFuncs(userType, false));
  return rows.map((r) => r.func).filter((f) => reach.has(f));
}

/** The customers a proxy user governs: the union of its active proxy roles' customers (spec §6 role level -1). */
export async function governedCustomers(q: Queryable, userId: number): Promise<number[]> {
  const rows = await crossTenant(q, 'a proxy\'s governed customers make its scope')
    .selectFrom('user_role as ur')
    .innerJoin('role as r', 'r.id', 'ur.role_id')
    .innerJoin('role_proxy_customer as rpc', 'rpc.role_id', 'r.id')
    .innerJoin('customer as c', 'c.id', 'rpc.governed_id')
    .select('rpc.governed_id as customer_id')
    .distinct()
    .where('ur.user_id', '=', userId)
    .where('r.status', '=', 1)
    .where('c.status', '=', 1)
    .execute();
  return rows.map((r) => r.customer_id);
}
