import { USER_TYPE } from '@coldwatch/contract';
import type { Db } from '../db/client.js';
import { hashPassword } from '../auth/password.js';

export const PLATFORM_CODE = 'PLATFORM';

/** The platform customer and its root administrator `admin` (user id 1 on a new database). Idempotent. */
export async function ensureRoot(db: Db, password: string): Promise<{ customerId: number; userId: number }> {
  let c = await db.one<{ id: number }>('SELECT id FROM customer WHERE code = $1', [PLATFORM_CODE]);
  if (!c) {
    c = await db.one<{ id: number }>(
      `INSERT INTO customer(name, short_name, code, type, org_type) VALUES ('Coldwatch Platform', 'Platform', $1, 'platform', '09') RETURNING id`,
      [PLATFORM_CODE],
    );
  }
  let u = await db.one<{ id: number }>('SELECT id FROM app_user WHERE account = $1', ['admin']);
  if (!u) {
    u = await db.one<{ id: number }>(
      `INSERT INTO app_user(customer_id, account, name, password_hash, user_type, is_admin) VALUES ($1, 'admin', 'Administrator', $2, $3, true) RETURNING id`,
      [c!.id, await hashPassword(password), USER_TYPE.platformAdmin],
    );
  }
  return { customerId: c!.id, userId: u!.id };
}

/** A customer with its administrator account; used by the demo seed and by tests. */
export async function createCustomerWithAdmin(
  db: Db,
  opts: { name: string; code: string; account: string; password: string; orgType?: string; isAdmin?: boolean },
): Promise<{ customerId: number; userId: number }> {
  const c = await db.one<{ id: number }>(
    `INSERT INTO customer(name, short_name, code, type, org_type) VALUES ($1, $1, $2, 'customer', $3) RETURNING id`,
    [opts.name, opts.code, opts.orgType ?? '02'],
  );
  const u = await db.one<{ id: number }>(
    `INSERT INTO app_user(customer_id, account, name, password_hash, user_type, is_admin) VALUES ($1, $2, $2, $3, $4, $5) RETURNING id`,
    [c!.id, opts.account, await hashPassword(opts.password), opts.isAdmin === false ? USER_TYPE.customerUser : USER_TYPE.customerAdmin, opts.isAdmin !== false],
  );
  return { customerId: c!.id, userId: u!.id };
}
