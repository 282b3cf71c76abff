import { USER_TYPE } from '@coldwatch/contract';
import type { Db, Queryable } from '../db/client.js';
import { hashPassword } from '../auth/password.js';
import { assignRole, createDefaultRoles } from './roles.js';

export const PLATFORM_CODE = 'PLATFORM';

/** The platform customer, its default roles and its root administrator `admin` (user id 1 on a new database). Idempotent. */
export async function ensureRoot(db: Db, password: string): Promise<{ customerId: number; userId: number }> {
  return db.tx(async (q) => {
    let c = (await q.query<{ id: number }>('SELECT id FROM customer WHERE code = $1', [PLATFORM_CODE]))[0];
    let roles: { adminRoleId: number } | undefined;
    if (!c) {
      [c] = await q.query<{ id: number }>(
        `INSERT INTO customer(name, short_name, code, type, org_type) VALUES ('Coldwatch Platform', 'Platform', $1, 'platform', '09') RETURNING id`,
        [PLATFORM_CODE],
      );
      roles = await createDefaultRoles(q, c.id, true);
    }
    let u = (await q.query<{ id: number }>('SELECT id FROM app_user WHERE account = $1', ['admin']))[0];
    if (!u) {
      [u] = await q.query<{ id: number }>(
        `INSERT INTO app_user(customer_id, account, name, password_hash, user_type, is_admin, default_account)
         VALUES ($1, 'admin', 'Administrator', $2, $3, true, true) RETURNING id`,
        [c.id, await hashPassword(password), USER_TYPE.platformAdmin],
      );
      if (roles) await assignRole(q, u.id, roles.adminRoleId);
    }
    return { customerId: c.id, userId: u.id };
  });
}

/** A customer with its default roles and its administrator account; used by the demo seed and by tests. */
export async function createCustomerWithAdmin(
  db: Queryable,
  opts: { name: string; code: string; account: string; password: string; orgType?: string; isAdmin?: boolean },
): Promise<{ customerId: number; userId: number; adminRoleId: number; operatorRoleId: number }> {
  const [c] = await db.query<{ id: number }>(
    `INSERT INTO customer(name, short_name, code, type, org_type) VALUES ($1, $1, $2, 'customer', $3) RETURNING id`,
    [opts.name, opts.code, opts.orgType ?? '02'],
  );
  const roles = await createDefaultRoles(db, c.id, false);
  const admin = opts.isAdmin !== false;
  const [u] = await db.query<{ id: number }>(
    `INSERT INTO app_user(customer_id, account, name, password_hash, user_type, is_admin, default_account) VALUES ($1, $2, $2, $3, $4, $5, $5) RETURNING id`,
    [c.id, opts.account, await hashPassword(opts.password), admin ? USER_TYPE.customerAdmin : USER_TYPE.customerUser, admin],
  );
  await assignRole(db, u.id, admin ? roles.adminRoleId : roles.operatorRoleId);
  return { customerId: c.id, userId: u.id, ...roles };
}
