import { Code, CustomerCode, USER_TYPE, type CustomerAddBody, type CustomerUpdateBody, type ProxyCustomer } from '@coldwatch/contract';
import type { Db, Queryable } from '../../platform/db/client.js';
import { scopeWhere, type Scope } from '../../platform/auth/scope.js';
import { AppError, conflict, notFound } from '../../platform/http/errors.js';
import { hashPassword } from '../../platform/auth/password.js';
import { governedCustomers } from '../../platform/auth/funcs.js';
import { assignRole, createDefaultRoles } from '../../platform/seed/roles.js';
import { PLATFORM_CODE } from '../../platform/seed/root.js';
import { likeParam, mapUnique, msCol, pageQuery } from '../dm/records.js';

/*
 * Customers (spec §3 Customer, §4 cancel/activate/delete, §5 rules, §8 create answers). Only
 * platform users reach these calls (access level 2), and their scope is every customer; the
 * scope filter is applied anyway so that a narrower scope can never see more.
 */

const COLS = `c.id, c.name, c.short_name AS "shortName", c.code, c.status, c.type, c.org_type AS "orgType", c.area,
  c.area_code AS "areaCode", c.address, c.contact, c.phone, coalesce(c.email, '') AS email,
  c.notify_email AS "notifyEmail", c.notify_sms AS "notifySms", c.description,
  (SELECT u.account FROM app_user u WHERE u.customer_id = c.id AND u.default_account ORDER BY u.id LIMIT 1) AS "adminAccount",
  (SELECT count(*)::int FROM app_user u WHERE u.customer_id = c.id) AS "userCount", ${msCol('c.created_at', 'createdAt')}`;

export interface CustomerFilter {
  iDisplayStart: number;
  iDisplayLength: number;
  name?: string;
  code?: string;
  status?: number;
  type?: string;
  orgType?: string;
}

export function page(db: Db, scope: Scope, f: CustomerFilter) {
  const params: unknown[] = [];
  const where = [scopeWhere(scope, 'c.id', params)];
  if (f.name) where.push(`(c.name ILIKE $${params.push(likeParam(f.name))} OR c.short_name ILIKE $${params.length})`);
  if (f.code) where.push(`c.code ILIKE $${params.push(likeParam(f.code))}`);
  if (f.status !== undefined) where.push(`c.status = $${params.push(f.status)}`);
  if (f.type) where.push(`c.type = $${params.push(f.type)}`);
  if (f.orgType) where.push(`c.org_type = $${params.push(f.orgType)}`);
  return pageQuery(db, { select: COLS, from: 'customer c', where, orderBy: 'c.id' }, params, f);
}

export async function detail(db: Queryable, scope: Scope, id: number) {
  const params: unknown[] = [id];
  const rows = await db.query(`SELECT ${COLS} FROM customer c WHERE c.id = $1 AND ${scopeWhere(scope, 'c.id', params)}`, params);
  return rows[0];
}

// ---- uniqueness (spec §5: name, code, e-mail, mobile) ---------------------------------------

interface UniqueFields {
  name: string;
  code: string;
  email: string;
  phone: string;
  account?: string;
}

/**
 * §5 uniqueness, answered with the §8 codes. The administrator of a customer carries the
 * customer's e-mail and phone as its own, so those are unique among customers and users
 * alike; a customer's own users are not its competitors on update. The unique constraints
 * (0001, 0006) are the last word; this check gives the common case its answer up front.
 */
async function checkUnique(q: Queryable, b: UniqueFields, exceptId = 0) {
  const hit = async (sql: string, params: unknown[]) => (await q.query(sql, params)).length > 0;
  if (await hit('SELECT 1 FROM customer WHERE name = $1 AND id <> $2', [b.name, exceptId])) throw conflict(CustomerCode.NAME_EXISTS, 'errors.customer.nameExists');
  if (await hit('SELECT 1 FROM customer WHERE code = $1 AND id <> $2', [b.code, exceptId])) throw conflict(CustomerCode.CODE_EXISTS, 'errors.customer.codeExists');
  if (
    b.email &&
    (await hit(
      `SELECT 1 FROM customer WHERE lower(email) = lower($1) AND id <> $2
       UNION ALL SELECT 1 FROM app_user WHERE lower(email) = lower($1) AND customer_id <> $2`,
      [b.email, exceptId],
    ))
  )
    throw conflict(CustomerCode.EMAIL_EXISTS, 'errors.customer.emailExists');
  if (
    b.phone &&
    (await hit(`SELECT 1 FROM customer WHERE phone = $1 AND id <> $2 UNION ALL SELECT 1 FROM app_user WHERE mobile = $1 AND customer_id <> $2`, [b.phone, exceptId]))
  )
    throw conflict(CustomerCode.MOBILE_EXISTS, 'errors.customer.mobileExists');
  if (b.account && (await hit('SELECT 1 FROM app_user WHERE lower(account) = lower($1)', [b.account])))
    throw conflict(CustomerCode.ACCOUNT_EXISTS, 'errors.customer.accountExists');
}

/** Constraint name fragments → answers, for a race the pre-check did not see. */
const UNIQUE_ANSWERS = {
  app_user_account: conflict(CustomerCode.ACCOUNT_EXISTS, 'errors.customer.accountExists'),
  customer_email: conflict(CustomerCode.EMAIL_EXISTS, 'errors.customer.emailExists'),
  customer_phone: conflict(CustomerCode.MOBILE_EXISTS, 'errors.customer.mobileExists'),
  customer_code: conflict(CustomerCode.CODE_EXISTS, 'errors.customer.codeExists'),
  customer_name: conflict(CustomerCode.NAME_EXISTS, 'errors.customer.nameExists'),
};

// ---- create, update ------------------------------------------------------------------------

export type NewCustomer = Omit<CustomerAddBody, 'type'> & { type: 'platform' | 'customer' };

/**
 * A customer, its default roles (administrator and operator) and its administrator account,
 * on the caller's transaction: all of it or nothing (so the partial answers 201/202 of §8
 * cannot occur, docs/tenancy.md). The administrator of a platform-type customer is a platform
 * administrator (user type 3), of any other a customer administrator (user type 1).
 */
export async function create(q: Queryable, b: NewCustomer): Promise<{ id: number; account: string; userId: number }> {
  await checkUnique(q, b);
  return mapUnique(async () => {
    const [c] = await q.query<{ id: number }>(
      `INSERT INTO customer (name, short_name, code, type, org_type, area, area_code, address, contact, phone, email, notify_email, notify_sms, description)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
      [b.name, b.shortName, b.code, b.type, b.orgType, b.area, b.areaCode, b.address, b.contact, b.phone, b.email || null, b.notifyEmail, b.notifySms, b.description],
    );
    const platform = b.type === 'platform';
    const roles = await createDefaultRoles(q, c.id, platform);
    const [u] = await q.query<{ id: number }>(
      `INSERT INTO app_user (customer_id, account, name, password_hash, mobile, email, user_type, is_admin, default_account)
       VALUES ($1, $2, $3, $4, $5, $6, $7, true, true) RETURNING id`,
      [c.id, b.account, (b.contact || b.account).slice(0, 50), await hashPassword(b.password), b.phone || null, b.email || null, platform ? USER_TYPE.platformAdmin : USER_TYPE.customerAdmin],
    );
    await assignRole(q, u.id, roles.adminRoleId);
    return { id: c.id, account: b.account, userId: u.id };
  }, UNIQUE_ANSWERS);
}

export async function update(q: Queryable, scope: Scope, b: CustomerUpdateBody) {
  await lockVisible(q, scope, [b.id]);
  await checkUnique(q, b, b.id);
  await mapUnique(
    () =>
      q.query(
        `UPDATE customer SET name = $2, short_name = $3, code = $4, org_type = $5, area = $6, area_code = $7, address = $8, contact = $9,
                phone = $10, email = $11, notify_email = $12, notify_sms = $13, description = $14 WHERE id = $1`,
        [b.id, b.name, b.shortName, b.code, b.orgType, b.area, b.areaCode, b.address, b.contact, b.phone, b.email || null, b.notifyEmail, b.notifySms, b.description],
      ),
    UNIQUE_ANSWERS,
  );
  return { id: b.id };
}

/** The customers of ids, all visible to the caller, locked for the change; 404 when one is not. */
async function lockVisible(q: Queryable, scope: Scope, ids: number[]) {
  const params: unknown[] = [ids];
  const rows = await q.query<{ id: number; code: string; status: number }>(
    `SELECT id, code, status FROM customer c WHERE c.id = ANY($1::int[]) AND ${scopeWhere(scope, 'c.id', params)} ORDER BY id FOR UPDATE`,
    params,
  );
  if (rows.length !== new Set(ids).size) throw notFound();
  return rows;
}

/** The platform customer and the caller's own customer are never cancelled or deleted (that would lock the platform out). */
async function lockChangeable(q: Queryable, scope: Scope, ids: number[]) {
  const rows = await lockVisible(q, scope, ids);
  if (rows.some((r) => r.code === PLATFORM_CODE || r.id === scope.customerId)) throw new AppError(Code.FAILED, 'errors.customer.platformFixed');
  return rows;
}

// ---- cancel, activate, delete (spec §4) ----------------------------------------------------

/**
 * Cancel: the customer's status becomes 0 and its active roles and users, its running or
 * offline gateways and sensors (→ 2 stopped) and the alarm switches of its monitoring points
 * are turned off, each marked as turned off by the cancel so that activation restores exactly
 * those. The customer's sessions end; login answers "cancelled" until activation.
 */
export async function cancel(q: Queryable, scope: Scope, ids: number[]) {
  await lockChangeable(q, scope, ids);
  const changed = (await q.query<{ id: number }>('UPDATE customer SET status = 0 WHERE id = ANY($1::int[]) AND status = 1 RETURNING id', [ids])).map((r) => r.id);
  if (changed.length) {
    const p = [changed];
    await q.query('UPDATE role SET status = 0, cancelled_by_customer = true WHERE customer_id = ANY($1::int[]) AND status = 1', p);
    await q.query('UPDATE app_user SET status = 0, cancelled_by_customer = true WHERE customer_id = ANY($1::int[]) AND status = 1', p);
    await q.query('UPDATE gateway SET status_before_cancel = status, status = 2 WHERE customer_id = ANY($1::int[]) AND status <> 2', p);
    await q.query('UPDATE sensor SET status_before_cancel = status, status = 2 WHERE customer_id = ANY($1::int[]) AND status <> 2', p);
    await q.query('UPDATE carrier SET alarm_on = false, cancelled_by_customer = true WHERE customer_id = ANY($1::int[]) AND alarm_on', p);
    await q.query('DELETE FROM user_session WHERE user_id IN (SELECT id FROM app_user WHERE customer_id = ANY($1::int[]))', p);
  }
  return { cancelled: changed.length };
}

/** Activate: status 1 again, and exactly what the cancel turned off is turned back on. */
export async function activate(q: Queryable, scope: Scope, ids: number[]) {
  await lockVisible(q, scope, ids);
  const changed = (await q.query<{ id: number }>('UPDATE customer SET status = 1 WHERE id = ANY($1::int[]) AND status = 0 RETURNING id', [ids])).map((r) => r.id);
  if (changed.length) {
    const p = [changed];
    await q.query('UPDATE role SET status = 1, cancelled_by_customer = false WHERE customer_id = ANY($1::int[]) AND cancelled_by_customer', p);
    await q.query('UPDATE app_user SET status = 1, cancelled_by_customer = false WHERE customer_id = ANY($1::int[]) AND cancelled_by_customer', p);
    await q.query('UPDATE gateway SET status = status_before_cancel, status_before_cancel = NULL WHERE customer_id = ANY($1::int[]) AND status_before_cancel IS NOT NULL', p);
    await q.query('UPDATE sensor SET status = status_before_cancel, status_before_cancel = NULL WHERE customer_id = ANY($1::int[]) AND status_before_cancel IS NOT NULL', p);
    await q.query('UPDATE carrier SET alarm_on = true, cancelled_by_customer = false WHERE customer_id = ANY($1::int[]) AND cancelled_by_customer', p);
  }
  return { activated: changed.length };
}

/** Tables whose rows are kept when their customer is deleted: the system log is the audit trail, the deletion included. */
export const KEPT_ON_DELETE = ['sys_log'];

/**
 * Delete: the customers with everything that carries their customer_id, in the caller's
 * transaction. Tables whose customer_id references customer with ON DELETE CASCADE go with
 * the customer row; every other table with a customer_id column (readings, the alarm queue,
 * sessions, link tables) is found in the catalogue and emptied of the customers' rows first,
 * so a table added later is covered without touching this code.
 */
export async function remove(q: Queryable, scope: Scope, ids: number[]) {
  await lockChangeable(q, scope, ids);
  const loose = await q.query<{ relname: string }>(
    `SELECT c.relname FROM pg_class c JOIN pg_attribute att ON att.attrelid = c.oid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE att.attname = 'customer_id' AND NOT att.attisdropped AND c.relkind IN ('r', 'p') AND NOT c.relispartition
        AND n.nspname = current_schema() AND c.relname <> ALL($1::text[])
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k
                         WHERE k.conrelid = c.oid AND k.contype = 'f' AND k.confrelid = 'customer'::regclass
                           AND k.confdeltype = 'c' AND k.conkey = ARRAY[att.attnum]::int2[])
      ORDER BY 1`,
    [['customer', ...KEPT_ON_DELETE]],
  );
  // Readings go by their sensors first (the primary key's index), then by customer for any left behind.
  await q.query('DELETE FROM reading WHERE sensor_id IN (SELECT id FROM sensor WHERE customer_id = ANY($1::int[]))', [ids]);
  for (const t of loose) await q.query(`DELETE FROM "${t.relname}" WHERE customer_id = ANY($1::int[])`, [ids]);
  const gone = await q.query('DELETE FROM customer WHERE id = ANY($1::int[]) RETURNING id', [ids]);
  return { deleted: gone.length };
}

// ---- proxy customers (spec §6 role level -1) -----------------------------------------------

/** The customers a proxy user may switch to: its own and the active customers its proxy roles govern. */
export async function proxyCustomers(db: Db, scope: Scope): Promise<ProxyCustomer[]> {
  const governed = await governedCustomers(db, scope.userId);
  const own = await db.one<{ customer_id: number }>('SELECT customer_id FROM app_user WHERE id = $1', [scope.userId]);
  const ids = [...new Set([own!.customer_id, ...governed])];
  const rows = await db.query<{ id: number; name: string; code: string }>('SELECT id, name, code FROM customer WHERE id = ANY($1::int[]) ORDER BY id', [ids]);
  return rows.map((r) => ({ ...r, own: r.id === own!.customer_id, current: r.id === scope.customerId }));
}
