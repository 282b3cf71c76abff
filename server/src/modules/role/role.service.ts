import { ALL_FUNCS, Code, ROLE_CODE, reachesLevel, type RoleBody, type RoleDetail, type RoleType } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import { system } from '../../platform/db/kysely.js';
import { scoped } from '../../platform/db/scoped.js';
import { countOf } from '../../platform/db/query.js';
import { canSee, isPlatform, type Scope } from '../../platform/auth/scope.js';
import { ROOT_USER_ID, reachableFuncs } from '../../platform/auth/funcs.js';
import { AppError, conflict, noPermission, notFound, paramError } from '../../platform/http/errors.js';
import { delegableFuncs, menuFor, treeIds } from '../resource/menu.service.js';
import * as repo from './role.repository.js';
import { checkSceneGrant } from '../shared/sceneGrant.js';

/*
 * The role rules of spec §5/§6/§8, all decided here on the server:
 *  - the role's customer is the caller's (408); platform users may name any existing customer;
 *  - name unique per customer (409); operable resources required (413); a proxy role (level -1)
 *    governs at least one customer (415), each one the caller can see;
 *  - only 'normal' roles are created by hand: the admin type comes only with customer creation,
 *    and a role's type never changes;
 *  - the level fits the customer (platform customer 2..3, others -1..1) and the caller's own level;
 *  - functions and operable resources: only what the caller holds itself (500102), and within
 *    the role's level; on update, what the role already had may be kept;
 *  - default roles cannot be deleted; deleting roles deletes the users left without a role,
 *    only with confirm=true; every customer keeps at least one role.
 */

const isRootScope = (s: Scope) => s.userId === ROOT_USER_ID;
const fail = (key: string) => new AppError(Code.FAILED, key);

/** Role types the caller may create by hand (spec §6: an administrator or system-level user creates only normal roles). */
export function creatableTypes(_scope: Scope): RoleType[] {
  return ['normal'];
}

/** Highest role level a caller's user type may hand out (root and platform admins: 3). */
function callerReaches(scope: Scope, level: number): boolean {
  if (isRootScope(scope)) return true;
  switch (scope.userType) {
    case 3: return true;
    case 2: return level <= 2;
    case 1: return level <= 1;
    case -1: return level <= 0;
    default: return level === 0;
  }
}

/** Role levels the caller may give a role of a customer (platform customer: 2, 3; others: -1, 0, 1). */
export function creatableLevels(scope: Scope, platformCustomer: boolean): number[] {
  return (platformCustomer ? [2, 3] : [-1, 0, 1]).filter((l) => callerReaches(scope, l));
}

function customerOf(q: Queryable, scope: Scope, id: number): Promise<{ id: number; type: string } | undefined> {
  return scoped(q, scope).selectFrom('customer').select(['id', 'type']).where('id', '=', id).executeTakeFirst();
}

/** The customer a role is created for: the caller's own (408 otherwise), or any existing one for a platform user. */
export async function roleCustomer(q: Queryable, scope: Scope, requested?: number): Promise<{ id: number; type: string }> {
  const id = requested ?? scope.customerId;
  if (id !== scope.customerId && !isPlatform(scope)) throw conflict(ROLE_CODE.CUSTOMER_MISMATCH, 'errors.role.customerMismatch');
  const c = await customerOf(q, scope, id);
  if (!c) throw notFound();
  return c;
}

/** Checks a role body against every rule and returns what is written. `existing` on update. */
export async function checkRole(q: Queryable, scope: Scope, body: Omit<RoleBody, 'type'> & { type?: RoleType }, existing?: RoleDetail): Promise<repo.RoleWrite> {
  const root = isRootScope(scope);
  // Customer (408): a role stays with its customer; a new one is the caller's unless a platform user acts for another.
  let customer: { id: number; type: string };
  if (existing) {
    if (body.customerId !== undefined && body.customerId !== existing.customerId) throw conflict(ROLE_CODE.CUSTOMER_MISMATCH, 'errors.role.customerMismatch');
    customer = (await customerOf(q, scope, existing.customerId))!;
  } else customer = await roleCustomer(q, scope, body.customerId);
  const platformCustomer = customer.type === 'platform';

  // Type: only normal by hand; never changed.
  const type = body.type ?? existing?.type ?? 'normal';
  if (existing ? type !== existing.type : !creatableTypes(scope).includes(type)) throw fail('errors.role.onlyNormal');

  // Level.
  const level = body.level ?? existing?.level ?? (platformCustomer ? 2 : 0);
  if (!creatableLevels(scope, platformCustomer).includes(level)) throw fail('errors.role.level');

  // Name unique per customer (409).
  const k = scoped(q, scope);
  const same = await k.selectFrom('role').select('id').where('customer_id', '=', customer.id).where('name', '=', body.name).where('id', '<>', existing?.id ?? 0).executeTakeFirst();
  if (same) throw conflict(ROLE_CODE.SAME_NAME, 'errors.role.sameName');

  // Operable resources (413): required, held by the caller, within the role's level.
  const resourceIds = [...new Set(body.resourceIds)];
  if (!resourceIds.length) throw conflict(ROLE_CODE.RESOURCES_EMPTY, 'errors.role.resourcesEmpty');
  const resources = await system(q).selectFrom('menu_resource').select(['id', 'access_level']).where('id', 'in', resourceIds).execute();
  if (resources.length !== resourceIds.length) throw notFound();
  const held = new Set([...treeIds(await menuFor(q, scope, root)), ...(existing?.resourceIds ?? [])]);
  if (resourceIds.some((id) => !held.has(id))) throw noPermission();
  if (resources.some((r) => !reachesLevel(r.access_level, level, false))) throw fail('errors.role.aboveLevel');

  // Functions: known codes, held by the caller (or already the role's), within the role's level.
  const funcs = [...new Set(body.funcs)];
  const known = new Set(ALL_FUNCS);
  if (funcs.some((f) => !known.has(f))) throw paramError('errors.role.unknownFunc');
  const mine = delegableFuncs(scope, root);
  const had = new Set(existing?.funcs ?? []);
  if (funcs.some((f) => !mine.has(f) && !had.has(f))) throw noPermission();
  const reach = new Set(reachableFuncs(level, false));
  if (funcs.some((f) => !reach.has(f))) throw fail('errors.role.aboveLevel');

  // Proxy customers (415): a level -1 role governs at least one customer the caller can see.
  const proxyCustomerIds = level === -1 ? [...new Set(body.proxyCustomerIds)] : [];
  if (level === -1) {
    if (!proxyCustomerIds.length) throw conflict(ROLE_CODE.NO_AGENT, 'errors.role.noAgent');
    const found = await k.selectFrom('customer').select('id').where('id', 'in', proxyCustomerIds).execute();
    if (found.length !== proxyCustomerIds.length || proxyCustomerIds.some((id) => !canSee(scope, id))) throw notFound();
  }

  // Associated architecture: scenes of the role's own customer.
  const sceneIds = [...new Set(body.sceneIds)];
  if (sceneIds.length) {
    const scenes = await k.selectFrom('scene').select(['id', 'customer_id']).where('id', 'in', sceneIds).execute();
    // Another customer's scene is outside the caller's scope and so not found: the same answer as the user form's.
    if (scenes.length !== sceneIds.length || scenes.some((s) => s.customer_id !== customer.id)) throw fail('errors.foreign.scene');
  }
  checkSceneGrant(scope, sceneIds);

  // Default flag: once default, only root may lift it (default roles cannot be deleted).
  const isDefault = existing?.isDefault && !root ? true : body.isDefault;

  return {
    customerId: customer.id,
    name: body.name,
    status: body.status,
    type,
    level,
    isDefault,
    delegable: body.delegable,
    description: body.description,
    funcs,
    resourceIds,
    proxyCustomerIds,
    sceneIds,
  };
}

/**
 * Deletes roles of the caller's scope in one transaction (the caller's `q`). Default roles
 * cannot be deleted; every customer keeps at least one role; the users the roles leave
 * without any role are deleted with them, which needs `confirm` (the web asks first) and
 * never removes the caller itself or root. Users that keep another role only lose this one.
 */
export async function deleteRoles(q: Queryable, scope: Scope, ids: number[], confirm: boolean): Promise<{ roles: number; users: number }> {
  const k = scoped(q, scope);
  const rows = await k.selectFrom('role').select(['id', 'customer_id', 'is_default']).where('id', 'in', ids).forUpdate().execute();
  if (rows.length !== new Set(ids).size) throw notFound();
  if (rows.some((r) => r.is_default)) throw fail('errors.role.defaultRole');
  for (const cid of new Set(rows.map((r) => r.customer_id))) {
    const left = await k.selectFrom('role').select('id').where('customer_id', '=', cid).where('id', 'not in', ids).executeTakeFirst();
    if (!left) throw fail('errors.role.keepOne');
  }
  const holders = await k
    .selectFrom('user_role as ur')
    .select((eb) => ['ur.user_id', countOf(eb.selectFrom('user_role as o').whereRef('o.user_id', '=', 'ur.user_id').where('o.role_id', 'not in', ids)).as('others')])
    .where('ur.role_id', 'in', ids)
    .groupBy('ur.user_id')
    .execute();
  if (holders.length && !confirm) throw fail('errors.role.confirmUsers');
  const orphans = holders.filter((h) => h.others === 0).map((h) => h.user_id);
  if (orphans.includes(scope.userId) || orphans.includes(ROOT_USER_ID)) throw fail('errors.role.deletesSelf');
  if (orphans.length) await k.deleteFrom('app_user').where('id', 'in', orphans).execute();
  await k.deleteFrom('role').where('id', 'in', ids).execute();
  return { roles: rows.length, users: orphans.length };
}
