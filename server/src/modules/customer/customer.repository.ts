import { Code, CustomerCode, USER_TYPE, type CustomerAddBody, type CustomerRow, type CustomerUpdateBody, type ProxyCustomer } from '@coldwatch/contract';
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { crossTenant } from '../../platform/db/kysely.js';
import { scoped } from '../../platform/db/scoped.js';
import { contains, countOf, msOf, paged, type PageInput } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';
import { AppError, conflict, notFound } from '../../platform/http/errors.js';
import { hashPassword } from '../../platform/auth/password.js';
import { governedCustomers } from '../../platform/auth/funcs.js';
import { assignRole, createDefaultRoles } from '../../platform/seed/roles.js';
import { PLATFORM_CODE } from '../../platform/seed/root.js';
import { mapUnique } from '../shared/records.js';

/*
 * Customers (spec §3 Customer, §4 cancel/activate/delete, §5 rules, §8 create answers). Only
 * platform users reach these calls (access level 2), and their scope is every customer; the
 * scope filter is applied anyway so that a narrower scope can never see more.
 */

function customerSelect(k: Kysely<DB>) {
  return k.selectFrom('customer as c').select((eb) => [
    'c.id',
    'c.name',
    'c.short_name as shortName',
    'c.code',
    'c.status',
    sql<CustomerRow['type']>`c.type`.as('type'),
    sql<CustomerRow['orgType']>`c.org_type`.as('orgType'),
    'c.area',
    'c.area_code as areaCode',
    'c.address',
    'c.contact',
    'c.phone',
    sql<string>`coalesce(c.email, '')`.as('email'),
    'c.notify_email as notifyEmail',
    'c.notify_sms as notifySms',
    'c.description',
    eb.selectFrom('app_user as u').select('u.account').whereRef('u.customer_id', '=', 'c.id').where('u.default_account', '=', true).orderBy('u.id').limit(1).$asScalar().as('adminAccount'),
    countOf(eb.selectFrom('app_user as u').whereRef('u.customer_id', '=', 'c.id')).as('userCount'),
    msOf('c.created_at').as('createdAt'),
  ]);
}

export interface CustomerFilter extends PageInput {
  name?: string;
  code?: string;
  status?: number;
  type?: string;
  orgType?: string;
}

const SORTABLE = { name: 'c.name', code: 'c.code', status: 'c.status', createdAt: 'c.created_at' };

export function page(q: Queryable, scope: Scope, f: CustomerFilter) {
  const query = customerSelect(scoped(q, scope)).where((eb) => {
    const and: Expression<SqlBool>[] = [];
    if (f.name) and.push(eb.or([eb('c.name', 'ilike', contains(f.name)), eb('c.short_name', 'ilike', contains(f.name))]));
    if (f.code) and.push(eb('c.code', 'ilike', contains(f.code)));
    if (f.status !== undefined) and.push(eb('c.status', '=', f.status));
    if (f.type) and.push(eb('c.type', '=', f.type));
    if (f.orgType) and.push(eb('c.org_type', '=', f.orgType));
    return eb.and(and);
  });
  return paged(query, f, { sortable: SORTABLE, by: 'c.id' });
}

export function detail(q: Queryable, scope: Scope, id: number): Promise<CustomerRow | undefined> {
  return customerSelect(scoped(q, scope)).where('c.id', '=', id).executeTakeFirst();
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
  // Unique across every customer: the check sees them all and answers only "taken".
  const k = crossTenant(q, 'customer name, code, e-mail, phone and accounts are unique across customers');
  const customerHas = (where: (eb: ExpressionBuilder<DB, 'customer'>) => Expression<SqlBool>) =>
    k.selectFrom('customer').select('id').where(where).where('id', '<>', exceptId).executeTakeFirst();
  const otherUserHas = (where: (eb: ExpressionBuilder<DB, 'app_user'>) => Expression<SqlBool>) =>
    k.selectFrom('app_user').select('id').where(where).where('customer_id', '<>', exceptId).executeTakeFirst();
  const lower = (eb: ExpressionBuilder<DB, 'customer' | 'app_user'>, col: 'email' | 'account') => eb.fn<string>('lower', [col]);
  if (await customerHas((eb) => eb('name', '=', b.name))) throw conflict(CustomerCode.NAME_EXISTS, 'errors.customer.nameExists');
  if (await customerHas((eb) => eb('code', '=', b.code))) throw conflict(CustomerCode.CODE_EXISTS, 'errors.customer.codeExists');
  const email = b.email.toLowerCase();
  if (email && ((await customerHas((eb) => eb(lower(eb, 'email'), '=', email))) || (await otherUserHas((eb) => eb(lower(eb, 'email'), '=', email)))))
    throw conflict(CustomerCode.EMAIL_EXISTS, 'errors.customer.emailExists');
  if (b.phone && ((await customerHas((eb) => eb('phone', '=', b.phone))) || (await otherUserHas((eb) => eb('mobile', '=', b.phone)))))
    throw conflict(CustomerCode.MOBILE_EXISTS, 'errors.customer.mobileExists');
  const account = b.account?.toLowerCase();
  if (account && (await k.selectFrom('app_user').select('id').where((eb) => eb(lower(eb, 'account'), '=', account)).executeTakeFirst()))
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

/** The columns a customer form writes. */
const columns = (b: Omit<CustomerUpdateBody, 'id'> & { account?: string }) => ({
  name: b.name,
  short_name: b.shortName,
  code: b.code,
  org_type: b.orgType,
  area: b.area,
  area_code: b.areaCode,
  address: b.address,
  contact: b.contact,
  phone: b.phone,
  email: b.email || null,
  notify_email: b.notifyEmail,
  notify_sms: b.notifySms,
  description: b.description,
});

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
    // A new customer is in nobody's scope yet: creating it is the one write that makes a tenant.
    const k = crossTenant(q, 'creating a customer makes the tenant');
    const c = await k.insertInto('customer').values({ type: b.type, ...columns(b) }).returning('id').executeTakeFirstOrThrow();
    const platform = b.type === 'platform';
    const roles = await createDefaultRoles(q, c.id, platform);
    const u = await scoped(q, { customerIds: [c.id] })
      .insertInto('app_user')
      .values({
        customer_id: c.id,
        account: b.account,
        name: (b.contact || b.account).slice(0, 50),
        password_hash: await hashPassword(b.password),
        mobile: b.phone || null,
        email: b.email || null,
        user_type: platform ? USER_TYPE.platformAdmin : USER_TYPE.customerAdmin,
        is_admin: true,
        default_account: true,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await assignRole(q, u.id, roles.adminRoleId);
    return { id: c.id, account: b.account, userId: u.id };
  }, UNIQUE_ANSWERS);
}

export async function update(q: Queryable, scope: Scope, b: CustomerUpdateBody) {
  await lockVisible(q, scope, [b.id]);
  await checkUnique(q, b, b.id);
  await mapUnique(
    () =>
      scoped(q, scope).updateTable('customer').set(columns(b)).where('id', '=', b.id).execute(),
    UNIQUE_ANSWERS,
  );
  return { id: b.id };
}

/** The customers of ids, all visible to the caller, locked for the change; 404 when one is not. */
async function lockVisible(q: Queryable, scope: Scope, ids: number[]) {
  const rows = await scoped(q, scope).selectFrom('customer').select(['id', 'code', 'status']).where('id', 'in', ids).orderBy('id').forUpdate().execute();
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

/** The devices a cancelled customer's stop covers (and its activation gives back). */
const DEVICE_TABLES = ['gateway', 'sensor', 'relay', 'display', 'base'] as const;

/**
 * Cancel: the customer's status becomes 0 and its active roles and users, its running or
 * offline gateways and sensors (→ 2 stopped) and the alarm switches of its monitoring points
 * are turned off, each marked as turned off by the cancel so that activation restores exactly
 * those. The customer's sessions end; login answers "cancelled" until activation.
 */
export async function cancel(q: Queryable, scope: Scope, ids: number[]) {
  await lockChangeable(q, scope, ids);
  const k = scoped(q, scope);
  const changed = (await k.updateTable('customer').set({ status: 0 }).where('id', 'in', ids).where('status', '=', 1).returning('id').execute()).map((r) => r.id);
  if (changed.length) {
    await k.updateTable('role').set({ status: 0, cancelled_by_customer: true }).where('customer_id', 'in', changed).where('status', '=', 1).execute();
    await k.updateTable('app_user').set({ status: 0, cancelled_by_customer: true }).where('customer_id', 'in', changed).where('status', '=', 1).execute();
    for (const t of DEVICE_TABLES) await k.updateTable(t).set((eb) => ({ status_before_cancel: eb.ref('status'), status: 2 })).where('customer_id', 'in', changed).where('status', '<>', 2).execute();
    await k.updateTable('carrier').set({ alarm_on: false, cancelled_by_customer: true }).where('customer_id', 'in', changed).where('alarm_on', '=', true).execute();
    await k.deleteFrom('user_session').where('customer_id', 'in', changed).execute();
  }
  return { cancelled: changed.length };
}

/** Activate: status 1 again, and exactly what the cancel turned off is turned back on. */
export async function activate(q: Queryable, scope: Scope, ids: number[]) {
  await lockVisible(q, scope, ids);
  const k = scoped(q, scope);
  const changed = (await k.updateTable('customer').set({ status: 1 }).where('id', 'in', ids).where('status', '=', 0).returning('id').execute()).map((r) => r.id);
  if (changed.length) {
    await k.updateTable('role').set({ status: 1, cancelled_by_customer: false }).where('customer_id', 'in', changed).where('cancelled_by_customer', '=', true).execute();
    await k.updateTable('app_user').set({ status: 1, cancelled_by_customer: false }).where('customer_id', 'in', changed).where('cancelled_by_customer', '=', true).execute();
    for (const t of DEVICE_TABLES) {
      await k
        .updateTable(t)
        .set((eb) => ({ status: sql<number>`${eb.ref('status_before_cancel')}`, status_before_cancel: null }))
        .where('customer_id', 'in', changed)
        .where('status_before_cancel', 'is not', null)
        .execute();
    }
    await k.updateTable('carrier').set({ alarm_on: true, cancelled_by_customer: false }).where('customer_id', 'in', changed).where('cancelled_by_customer', '=', true).execute();
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
  const all = crossTenant(q, 'deleting customers empties every table holding their rows');
  const { rows: loose } = await sql<{ relname: string }>`SELECT c.relname FROM pg_class c JOIN pg_attribute att ON att.attrelid = c.oid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE att.attname = 'customer_id' AND NOT att.attisdropped AND c.relkind IN ('r', 'p') AND NOT c.relispartition
        AND n.nspname = current_schema() AND c.relname <> ALL(${['customer', ...KEPT_ON_DELETE]}::text[])
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k
                         WHERE k.conrelid = c.oid AND k.contype = 'f' AND k.confrelid = 'customer'::regclass
                           AND k.confdeltype = 'c' AND k.conkey = ARRAY[att.attnum]::int2[])
      ORDER BY 1`.execute(all);
  // Readings go by their sensors first (the primary key's index), then by customer for any left behind.
  await all.deleteFrom('reading').where('sensor_id', 'in', (eb) => eb.selectFrom('sensor').select('id').where('customer_id', 'in', ids)).execute();
  for (const t of loose) await all.deleteFrom(t.relname as keyof DB).where(sql.ref('customer_id'), 'in', ids).execute();
  const gone = await scoped(q, scope).deleteFrom('customer').where('id', 'in', ids).returning('id').execute();
  return { deleted: gone.length };
}

// ---- proxy customers (spec §6 role level -1) -----------------------------------------------

/** The customers a proxy user may switch to: its own and the active customers its proxy roles govern. */
export async function proxyCustomers(q: Queryable, scope: Scope): Promise<ProxyCustomer[]> {
  // The switch's choices lie outside the current scope by design: the caller's own customer and those its proxy roles govern.
  const k = crossTenant(q, 'a proxy user chooses among customers outside its current scope');
  const governed = await governedCustomers(q, scope.userId);
  const own = (await k.selectFrom('app_user').select('customer_id').where('id', '=', scope.userId).executeTakeFirstOrThrow()).customer_id;
  const ids = [...new Set([own, ...governed])];
  const rows = await k.selectFrom('customer').select(['id', 'name', 'code']).where('id', 'in', ids).orderBy('id').execute();
  return rows.map((r) => ({ ...r, own: r.id === own, current: r.id === scope.customerId }));
}

/** The proxy user's current governed customer (null: its own). */
export async function setProxyCustomer(q: Queryable, scope: Scope, customerId: number | null) {
  await crossTenant(q, 'the caller\'s own row, whichever customer it currently works in')
    .updateTable('app_user')
    .set({ proxy_customer_id: customerId })
    .where('id', '=', scope.userId)
    .execute();
}
