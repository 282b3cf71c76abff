import { randomInt } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { Code, USER_CODE, USER_TYPE, userTypeRank, type PersonalBody, type UserAddBody, type UserUpdateBody } from '@coldwatch/contract';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { crossTenant } from '../../platform/db/kysely.js';
import { scoped } from '../../platform/db/scoped.js';
import { targetCustomer, type Scope } from '../../platform/auth/scope.js';
import { ROOT_USER_ID } from '../../platform/auth/funcs.js';
import { hashPassword } from '../../platform/auth/password.js';
import { endUserSessions } from '../../platform/auth/session.js';
import { AppError, conflict, noPermission, notFound } from '../../platform/http/errors.js';
import { fieldErrors, type ValidationEntry } from '../../platform/http/envelope.js';
import { mapUnique } from '../shared/records.js';
import { checkSceneGrant } from '../shared/sceneGrant.js';
import { scopedUser, scopedUsers, type UserRow } from './user.repository.js';

/*
 * The user rules of spec §5/§6, all enforced here whatever the web does:
 * role(s), account, mobile required; status required (414); valid e-mail (412); account (416),
 * user name (417, within the customer), mobile (418) and e-mail (419) unique; the user type
 * follows the roles' level and never exceeds the caller's; roles and scenes must be the user's
 * customer's; a default account is neither deleted nor cancelled; nobody outside the scope is
 * seen or changed (404). Delegable roles (spec §3/§6): an administrator-type caller (user type 1
 * or 3, or root) assigns any role of the customer; any other caller assigns only roles marked
 * delegable whose level its own user type reaches (500102, errors.user.roleNotDelegable); on
 * update, roles the user already holds may be kept.
 */

const fail = (key: string) => new AppError(Code.FAILED, key);

/**
 * The §8 answer of a request body that failed validation: 414 for a missing or bad status,
 * 412 for a bad e-mail, otherwise the ordinary 400. Routes with user bodies validate with
 * `attachValidation` and call this first.
 */
export function userValidationError(req: FastifyRequest): Error | undefined {
  const err: (Error & { validation?: readonly ValidationEntry[] }) | undefined = req.validationError;
  if (!err) return undefined;
  const details = fieldErrors(err.validation ?? []);
  const fields = new Set(Object.keys(details));
  if (fields.has('status')) return new AppError(USER_CODE.statusEmpty, 'errors.user.statusEmpty', 200, details);
  if (fields.has('email')) return new AppError(USER_CODE.badEmail, 'errors.rule.email', 200, details);
  return err;
}

/** The §5 uniqueness answers, in the §8 order: account 416, user name 417 (within its customer), mobile 418, e-mail 419. */
export async function checkUnique(
  q: Queryable,
  u: { account?: string; name: string; mobile: string; email: string; customerId: number },
  exceptId = 0,
) {
  // Account, mobile and e-mail are unique across customers: the check sees every user, and answers only "taken".
  const all = crossTenant(q, 'account, mobile and e-mail are unique across customers');
  const taken = (where: (eb: ExpressionBuilder<DB, 'app_user'>) => Expression<SqlBool>) =>
    all.selectFrom('app_user').select('id').where(where).where('id', '<>', exceptId).executeTakeFirst();
  if (u.account !== undefined && (await taken((eb) => eb('account', '=', u.account!)))) throw conflict(USER_CODE.accountExists, 'errors.user.accountExists');
  if (await taken((eb) => eb.and([eb('customer_id', '=', u.customerId), eb('name', '=', u.name)]))) throw conflict(USER_CODE.nameExists, 'errors.user.nameExists');
  if (await taken((eb) => eb('mobile', '=', u.mobile))) throw conflict(USER_CODE.mobileExists, 'errors.user.mobileExists');
  if (u.email && (await taken((eb) => eb(eb.fn('lower', ['email']), '=', u.email.toLowerCase())))) throw conflict(USER_CODE.emailExists, 'errors.user.emailExists');
}

const isRoot = (scope: Scope) => scope.userId === ROOT_USER_ID;

/** The caller may act on a user of this type: never above its own reach; root (id 1) only by root. */
function checkReach(scope: Scope, userType: number, userId?: number) {
  if (userId === ROOT_USER_ID && !isRoot(scope)) throw notFound();
  if (!isRoot(scope) && userTypeRank(userType) > userTypeRank(scope.userType)) throw noPermission();
}

interface Derived {
  customerId: number;
  userType: number;
  isAdmin: boolean;
  proxyCustomerId: number | null;
}

/** Administrator-type accounts (user types 1 and 3, and root) may assign any role of their customer(s). */
const assignsAnyRole = (scope: Scope) => isRoot(scope) || scope.userType === USER_TYPE.customerAdmin || scope.userType === USER_TYPE.platformAdmin;

/** A role level a non-administrator's user type reaches: proxy (-1) up to 0, others up to their own type; -1 only for proxies. */
function typeReachesLevel(userType: number, level: number): boolean {
  if (userType === USER_TYPE.proxy) return level <= 0;
  return level >= 0 && level <= userType;
}

/**
 * The delegable-role rule: a caller that is not administrator-type may hand on only roles marked
 * delegable and within its own user type's level. Roles in `kept` (already the user's) are not
 * handed on and pass unchecked.
 */
function checkDelegable(scope: Scope, roles: { id: number; level: number; delegable: boolean }[], kept: number[] = []) {
  if (assignsAnyRole(scope)) return;
  for (const r of roles) {
    if (kept.includes(r.id)) continue;
    if (!r.delegable || !typeReachesLevel(scope.userType, r.level)) throw new AppError(Code.NO_PERMISSION, 'errors.user.roleNotDelegable');
  }
}

/** Roles, user type, scenes and proxy customer of a new or edited user, checked against the customer and the caller. */
async function derive(q: Queryable, scope: Scope, b: UserAddBody | UserUpdateBody, customerId: number, kept: number[] = []): Promise<Derived> {
  const k = scoped(q, scope);
  const roleIds = [...new Set(b.roleIds)];
  const roles = await k.selectFrom('role').select(['id', 'customer_id', 'type', 'level', 'delegable']).where('id', 'in', roleIds).execute();
  if (roles.length !== roleIds.length || roles.some((r) => r.customer_id !== customerId)) throw fail('errors.user.roleForeign');
  checkDelegable(scope, roles, kept);
  // Spec §6: the user type follows the roles' level; a proxy role makes a proxy user.
  const levels = roles.map((r) => r.level);
  const userType = levels.includes(USER_TYPE.proxy) ? USER_TYPE.proxy : Math.max(...levels);
  const cust = await k.selectFrom('customer').select('type').where('id', '=', customerId).executeTakeFirst();
  if (userType >= USER_TYPE.platformUser && cust?.type !== 'platform') throw fail('errors.user.platformTypeOutside');
  checkReach(scope, userType);
  const isAdmin = roles.some((r) => r.type === 'admin') || userType === USER_TYPE.customerAdmin || userType === USER_TYPE.platformAdmin;

  const sceneIds = [...new Set(b.sceneIds)];
  if (sceneIds.length) {
    const scenes = await k.selectFrom('scene').select('customer_id').where('id', 'in', sceneIds).execute();
    if (scenes.length !== sceneIds.length || scenes.some((s) => s.customer_id !== customerId)) throw fail('errors.foreign.scene');
  }
  await checkUserSceneGrant(q, scope, sceneIds, roleIds, kept);

  let proxyCustomerId: number | null = null;
  if (b.proxyCustomerId) {
    const governed = await k.selectFrom('role_proxy_customer').select('role_id').where('role_id', 'in', roleIds).where('governed_id', '=', b.proxyCustomerId).executeTakeFirst();
    if (userType !== USER_TYPE.proxy || !governed) throw fail('errors.user.proxyCustomer');
    proxyCustomerId = b.proxyCustomerId;
  }
  return { customerId, userType, isAdmin, proxyCustomerId };
}

/** A scene-limited caller keeps the user it edits within its own limit: its scenes, and those of roles newly given. */
async function checkUserSceneGrant(q: Queryable, scope: Scope, sceneIds: number[], roleIds: number[], kept: number[]) {
  if (scope.sceneIds === null) return;
  const roleScenes = roleIds.length ? await scoped(q, scope).selectFrom('role_scene').select(['role_id', 'scene_id']).where('role_id', 'in', roleIds).execute() : [];
  const given = roleScenes.filter((r) => !kept.includes(r.role_id)).map((r) => r.scene_id);
  checkSceneGrant(scope, [...sceneIds, ...given], sceneIds.length + roleScenes.length);
}

async function setLinks(q: Queryable, scope: Scope, user: { id: number; customerId: number }, roleIds: number[], sceneIds: number[]) {
  const k = scoped(q, scope);
  const base = { user_id: user.id, customer_id: user.customerId };
  await k.deleteFrom('user_role').where('user_id', '=', user.id).execute();
  if (roleIds.length) await k.insertInto('user_role').values([...new Set(roleIds)].map((role_id) => ({ ...base, role_id }))).execute();
  await k.deleteFrom('user_scene').where('user_id', '=', user.id).execute();
  if (sceneIds.length) await k.insertInto('user_scene').values([...new Set(sceneIds)].map((scene_id) => ({ ...base, scene_id }))).execute();
}

/** A temporary password that satisfies the password rule (letters and digits, 6-20): 10 characters, both kinds present. */
export function temporaryPassword(): string {
  const letters = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ';
  const digits = '23456789';
  const all = letters + digits;
  const chars = [letters[randomInt(letters.length)], digits[randomInt(digits.length)]];
  while (chars.length < 10) chars.push(all[randomInt(all.length)]);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join('');
}

const nullIfEmpty = (s: string) => (s === '' ? null : s);

/** The columns a user form writes as they are. */
const columns = (b: UserAddBody | UserUpdateBody) => ({
  name: b.name,
  gender: b.gender,
  mobile: b.mobile,
  email: nullIfEmpty(b.email),
  status: b.status,
  remarks: b.remarks,
});

export async function addUser(q: Queryable, scope: Scope, b: UserAddBody): Promise<{ id: number; password?: string }> {
  const customerId = targetCustomer(scope, b.customerId);
  const d = await derive(q, scope, b, customerId);
  await checkUnique(q, { account: b.account, name: b.name, mobile: b.mobile, email: b.email, customerId });
  const generated = b.password ? undefined : temporaryPassword();
  const hash = await hashPassword(b.password ?? generated!);
  const row = await mapUnique(
    () =>
      scoped(q, scope)
        .insertInto('app_user')
        .values({ customer_id: customerId, account: b.account, password_hash: hash, user_type: d.userType, is_admin: d.isAdmin, proxy_customer_id: d.proxyCustomerId, ...columns(b) })
        .returning('id')
        .executeTakeFirstOrThrow(),
    { account: conflict(USER_CODE.accountExists, 'errors.user.accountExists') },
  );
  await setLinks(q, scope, { id: row.id, customerId }, b.roleIds, b.sceneIds);
  return generated ? { id: row.id, password: generated } : { id: row.id };
}

export async function updateUser(q: Queryable, scope: Scope, b: UserUpdateBody): Promise<{ id: number }> {
  const cur = await scopedUser(q, scope, b.id, true);
  checkReach(scope, cur.user_type, cur.id);
  const k = scoped(q, scope);
  const held = (await k.selectFrom('user_role').select('role_id').where('user_id', '=', cur.id).execute()).map((r) => r.role_id);
  const d = await derive(q, scope, b, cur.customer_id, held);
  if (b.status === 0 && cur.status !== 0) checkCancellable(scope, cur);
  await checkUnique(q, { account: b.account, name: b.name, mobile: b.mobile, email: b.email, customerId: cur.customer_id }, cur.id);
  await mapUnique(
    () =>
      k
        .updateTable('app_user')
        .set((eb) => ({
          account: b.account,
          user_type: d.userType,
          is_admin: d.isAdmin,
          proxy_customer_id: d.proxyCustomerId,
          ...columns(b),
          // A status changed by hand is no longer the customer's cancellation (customer activation restores only those).
          cancelled_by_customer: eb.case().when('status', '=', b.status).then(eb.ref('cancelled_by_customer')).else(false).end(),
        }))
        .where('id', '=', cur.id)
        .execute(),
    { account: conflict(USER_CODE.accountExists, 'errors.user.accountExists') },
  );
  await setLinks(q, scope, { id: cur.id, customerId: cur.customer_id }, b.roleIds, b.sceneIds);
  if (b.status === 0) await endUserSessions(q, cur.id);
  return { id: cur.id };
}

/** A default account cannot be deleted or cancelled; nor can the caller's own account. */
function checkCancellable(scope: Scope, u: UserRow) {
  if (u.default_account || u.id === ROOT_USER_ID) throw fail('errors.user.defaultAccount');
  if (u.id === scope.userId) throw fail('errors.user.self');
}

/** Deletes users; their sessions end with them (user_session cascades). */
export async function removeUsers(q: Queryable, scope: Scope, ids: number[]) {
  const users = await scopedUsers(q, scope, ids);
  for (const u of users) {
    checkReach(scope, u.user_type, u.id);
    checkCancellable(scope, u);
  }
  await endUserSessions(q, ids);
  await scoped(q, scope).deleteFrom('app_user').where('id', 'in', ids).execute();
  return { deleted: ids.length };
}

/** Cancels (0) or reactivates (1) users; a cancelled user's sessions end. */
export async function setStatus(q: Queryable, scope: Scope, ids: number[], status: 0 | 1) {
  const users = await scopedUsers(q, scope, ids);
  for (const u of users) {
    checkReach(scope, u.user_type, u.id);
    if (status === 0) checkCancellable(scope, u);
  }
  await scoped(q, scope).updateTable('app_user').set({ status, cancelled_by_customer: false }).where('id', 'in', ids).execute();
  if (status === 0) await endUserSessions(q, ids);
  return { updated: ids.length, status };
}

/** An administrator's reset: a new temporary password, shown once; the old one stops working and the user's sessions end. */
export async function resetPassword(q: Queryable, scope: Scope, id: number) {
  const u = await scopedUser(q, scope, id, true);
  checkReach(scope, u.user_type, u.id);
  const password = temporaryPassword();
  await scoped(q, scope).updateTable('app_user').set({ password_hash: await hashPassword(password) }).where('id', '=', u.id).execute();
  await endUserSessions(q, u.id);
  return { id: u.id, account: u.account, password };
}

/** The caller's own profile (spec §3 personal page): same formats and uniqueness as the user form. */
export async function updatePersonal(q: Queryable, scope: Scope, b: PersonalBody) {
  const own = scoped(q, { customerIds: [scope.homeCustomerId] });
  const u = await own.selectFrom('app_user').select(['id', 'customer_id']).where('id', '=', scope.userId).forUpdate().executeTakeFirst();
  if (!u) throw notFound();
  await checkUnique(q, { name: b.name, mobile: b.mobile, email: b.email, customerId: u.customer_id }, u.id);
  await own.updateTable('app_user').set({ name: b.name, gender: b.gender, mobile: b.mobile, email: nullIfEmpty(b.email) }).where('id', '=', u.id).execute();
  return { id: u.id };
}
