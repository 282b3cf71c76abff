import { reachesLevel, USER_TYPE } from '@coldwatch/contract';
import type { Queryable } from '../db/client.js';
import { reachableFuncs } from '../auth/funcs.js';

/**
 * The default roles every customer gets when it is created (spec §4/§6): an administrator
 * role holding every function its level reaches, and an operator role that may look at
 * everything its level reaches and change nothing. Default roles cannot be deleted.
 */
export async function createDefaultRoles(q: Queryable, customerId: number, platform: boolean): Promise<{ adminRoleId: number; operatorRoleId: number }> {
  const adminType = platform ? USER_TYPE.platformAdmin : USER_TYPE.customerAdmin;
  const userType = platform ? USER_TYPE.platformUser : USER_TYPE.customerUser;
  const admin = await insertRole(q, customerId, platform ? 'Platform administrator' : 'Administrator', 'admin', adminType, reachableFuncs(adminType, false));
  const operatorFuncs = reachableFuncs(userType, false).filter((f) => f.startsWith('view'));
  const operator = await insertRole(q, customerId, platform ? 'Platform operator' : 'Operator', 'normal', userType, operatorFuncs);
  return { adminRoleId: admin, operatorRoleId: operator };
}

async function insertRole(q: Queryable, customerId: number, name: string, type: 'admin' | 'normal', level: number, funcs: string[]): Promise<number> {
  const [{ id }] = await q.query<{ id: number }>(
    `INSERT INTO role (customer_id, name, type, level, is_default) VALUES ($1, $2, $3, $4, true) RETURNING id`,
    [customerId, name, type, level],
  );
  await q.query('INSERT INTO role_func (role_id, func) SELECT $1, unnest($2::text[])', [id, funcs]);
  // Operable resources: every menu entry the role's level reaches.
  const resources = await q.query<{ id: number; access_level: number }>('SELECT id, access_level FROM menu_resource');
  const ids = resources.filter((r) => reachesLevel(r.access_level, level, false)).map((r) => r.id);
  if (ids.length) await q.query('INSERT INTO role_resource (role_id, resource_id) SELECT $1, unnest($2::int[])', [id, ids]);
  return id;
}

export const assignRole = (q: Queryable, userId: number, roleId: number) =>
  q.query('INSERT INTO user_role (user_id, role_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [userId, roleId]);
