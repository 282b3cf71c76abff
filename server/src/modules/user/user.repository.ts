import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { crossTenant } from '../../platform/db/kysely.js';
import { scoped } from '../../platform/db/scoped.js';
import { contains, msOf, paged, type PageInput } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';
import { notFound } from '../../platform/http/errors.js';
import { operableResourceIds } from '../resource/menu.service.js';

export interface UserRow {
  id: number;
  customer_id: number;
  account: string;
  name: string;
  gender: number;
  password_hash: string;
  status: number;
  user_type: number;
  is_admin: boolean;
  guide_on: boolean;
  locale: string | null;
  mobile: string | null;
  email: string | null;
  remarks: string;
  default_account: boolean;
  proxy_customer_id: number | null;
  avatar: string | null;
  signature: string | null;
  created_at: Date;
  customer_status: number;
  customer_name: string;
  customer_code: string;
  customer_type: string;
  time_zone: string;
}

/** The whole user row with its customer's facts (login, session, the caller's own pages). */
function userSelect(k: Kysely<DB>) {
  return k
    .selectFrom('app_user as u')
    .innerJoin('customer as c', 'c.id', 'u.customer_id')
    .selectAll('u')
    .select(['c.status as customer_status', 'c.name as customer_name', 'c.code as customer_code', 'c.type as customer_type', 'c.time_zone']);
}

/** Login finds the account before any scope exists; a session finds its own user by id. */
const anyUser = (q: Queryable) => crossTenant(q, 'login and session: the account is looked up before a scope exists');

export const findByAccount = (q: Queryable, account: string): Promise<UserRow | undefined> => userSelect(anyUser(q)).where('u.account', '=', account).executeTakeFirst();
export const findById = (q: Queryable, id: number): Promise<UserRow | undefined> => userSelect(anyUser(q)).where('u.id', '=', id).executeTakeFirst();

/** A user of the caller's scope, or 404 (a foreign user looks like a missing one). */
export async function scopedUser(q: Queryable, scope: Scope, id: number, lock = false): Promise<UserRow> {
  let query = userSelect(scoped(q, scope)).where('u.id', '=', id);
  if (lock) query = query.forUpdate('u');
  const row = await query.executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** All ids in scope or the whole call is refused with 404 (batch changes are all or nothing). */
export async function scopedUsers(q: Queryable, scope: Scope, ids: number[]): Promise<UserRow[]> {
  const rows = await userSelect(scoped(q, scope)).where('u.id', 'in', ids).forUpdate('u').execute();
  if (rows.length !== new Set(ids).size) throw notFound();
  return rows;
}

/** Changes columns of the caller's own row. */
export async function setOwn(q: Queryable, scope: Scope, set: { guide_on?: boolean; locale?: string; password_hash?: string }) {
  await scoped(q, { customerIds: [scope.homeCustomerId] }).updateTable('app_user').set(set).where('id', '=', scope.userId).execute();
}

/** The caller's own password hash, its row locked for the change. */
export async function lockPasswordHash(q: Queryable, scope: Scope): Promise<string | undefined> {
  const row = await scoped(q, { customerIds: [scope.homeCustomerId] }).selectFrom('app_user').select('password_hash').where('id', '=', scope.userId).forUpdate().executeTakeFirst();
  return row?.password_hash;
}

export const avatarUrl = (u: Pick<UserRow, 'id' | 'avatar'>) => (u.avatar ? `/service/mine/avatar?id=${u.id}&v=${u.avatar}` : null);

/** The user as the web sees it: never the hash. */
export const publicUser = (u: UserRow) => ({
  id: u.id,
  account: u.account,
  name: u.name,
  gender: u.gender,
  status: u.status,
  customerId: u.customer_id,
  customerName: u.customer_name,
  customerCode: u.customer_code,
  timeZone: u.time_zone,
  userType: u.user_type,
  isAdmin: u.is_admin,
  defaultAccount: u.default_account,
  proxyCustomerId: u.proxy_customer_id,
  guideOn: u.guide_on,
  locale: u.locale,
  mobile: u.mobile,
  email: u.email,
  remarks: u.remarks,
  avatar: avatarUrl(u),
  hasSignature: !!u.signature,
  createdAt: u.created_at ? new Date(u.created_at).getTime() : null,
});

function listSelect(k: Kysely<DB>) {
  return k
    .selectFrom('app_user as u')
    .innerJoin('customer as c', 'c.id', 'u.customer_id')
    .leftJoin('customer as pc', 'pc.id', 'u.proxy_customer_id')
    .select((eb) => [
      'u.id',
      'u.account',
      'u.name',
      'u.gender',
      'u.status',
      'u.user_type as userType',
      'u.is_admin as isAdmin',
      'u.mobile',
      'u.email',
      'u.remarks',
      'u.customer_id as customerId',
      'c.name as customerName',
      'u.default_account as defaultAccount',
      'u.proxy_customer_id as proxyCustomerId',
      'pc.name as proxyCustomerName',
      eb
        .selectFrom('user_role as ur')
        .innerJoin('role as r', 'r.id', 'ur.role_id')
        .whereRef('ur.user_id', '=', 'u.id')
        .select(sql<UserListRow['roles']>`COALESCE(json_agg(json_build_object('id', r.id, 'name', r.name, 'type', r.type, 'level', r.level) ORDER BY r.id), '[]'::json)`.as('x'))
        .$asScalar()
        .as('roles'),
      sql<number[]>`ARRAY(${eb.selectFrom('user_scene as us').select('us.scene_id').whereRef('us.user_id', '=', 'u.id').orderBy('us.scene_id')})`.as('sceneIds'),
      sql<boolean>`(u.avatar IS NOT NULL)`.as('hasAvatar'),
      sql<boolean>`(u.signature IS NOT NULL)`.as('hasSignature'),
      msOf('u.created_at').as('createdAt'),
    ]);
}

export interface UserFilter extends PageInput {
  account?: string;
  name?: string;
  mobile?: string;
  status?: number;
  customerId?: number;
  roleId?: number;
}

export interface UserListRow {
  id: number;
  roles: { id: number; name: string; type: string; level: number }[];
  sceneIds: number[];
}

const SORTABLE = { account: 'u.account', name: 'u.name', status: 'u.status', createdAt: 'u.created_at' };

export function page(q: Queryable, scope: Scope, f: UserFilter) {
  const query = listSelect(scoped(q, scope)).where((eb) => {
    const and: Expression<SqlBool>[] = [];
    if (f.account) and.push(eb('u.account', 'ilike', contains(f.account)));
    if (f.name) and.push(eb('u.name', 'ilike', contains(f.name)));
    if (f.mobile) and.push(eb('u.mobile', 'ilike', contains(f.mobile)));
    if (f.status !== undefined) and.push(eb('u.status', '=', f.status));
    if (f.customerId) and.push(eb('u.customer_id', '=', f.customerId));
    if (f.roleId) and.push(eb.exists(eb.selectFrom('user_role as x').select('x.role_id').whereRef('x.user_id', '=', 'u.id').where('x.role_id', '=', f.roleId)));
    return eb.and(and);
  });
  return paged(query, f, { sortable: SORTABLE, by: 'u.id' });
}

/** One user with roles, associated architecture and operable resources (the union of its active roles' resources). */
export async function detail(q: Queryable, scope: Scope, id: number) {
  const k = scoped(q, scope);
  const row = await listSelect(k).where('u.id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  const res = await operableResourceIds(k, id).orderBy('rr.resource_id').execute();
  return { ...row, roleIds: row.roles.map((r) => r.id), resourceIds: res.map((r) => r.resource_id) };
}

/** The customers a proxy user may switch to (spec §3 user info switchScope): its active proxy roles' active customers. */
export async function switchScope(q: Queryable, userId: number, currentCustomerId: number) {
  // The governed customers are what the switch grants: read across customers, for the caller's own roles only.
  const rows = await crossTenant(q, 'a proxy user\'s governed customers are outside its current scope')
    .selectFrom('user_role as ur')
    .innerJoin('role as r', 'r.id', 'ur.role_id')
    .innerJoin('role_proxy_customer as rpc', 'rpc.role_id', 'r.id')
    .innerJoin('customer as c', 'c.id', 'rpc.governed_id')
    .select(['c.id', 'c.name', 'c.code'])
    .distinct()
    .where('ur.user_id', '=', userId)
    .where('r.status', '=', 1)
    .where('c.status', '=', 1)
    .orderBy('c.id')
    .execute();
  return rows.map((c) => ({ ...c, current: c.id === currentCustomerId }));
}

export type FileKind = 'avatar' | 'signature';

/** Replaces the user's file of this kind; app_user.avatar / .signature point at the new one. */
export async function saveFile(q: Queryable, user: { id: number; customer_id: number }, kind: FileKind, mime: string, data: Buffer) {
  const k = scoped(q, { customerIds: [user.customer_id] });
  await k.deleteFrom('stored_file').where('user_id', '=', user.id).where('kind', '=', kind).execute();
  const row = await k
    .insertInto('stored_file')
    .values({ customer_id: user.customer_id, user_id: user.id, kind, mime, size: data.length, data })
    .returning('id')
    .executeTakeFirstOrThrow();
  await k.updateTable('app_user').set(kind === 'avatar' ? { avatar: String(row.id) } : { signature: String(row.id) }).where('id', '=', user.id).execute();
  return { id: row.id, size: data.length, mime };
}

/** A user's file; the caller has checked that the user is itself or in its scope. */
export async function getFile(q: Queryable, userId: number, kind: FileKind) {
  const row = await crossTenant(q, 'the owner was checked against the scope by the caller')
    .selectFrom('stored_file')
    .select(['id', 'mime', 'size', 'data', 'created_at'])
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return row && { ...row, data: Buffer.from(row.data) };
}
