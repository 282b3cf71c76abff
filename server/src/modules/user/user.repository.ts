import type { Db, Queryable } from '../../platform/db/client.js';
import { scopeWhere, type Scope } from '../../platform/auth/scope.js';
import { notFound } from '../../platform/http/errors.js';
import { likeParam, msCol, pageQuery } from '../dm/records.js';

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

const SELECT = `SELECT u.*, c.status AS customer_status, c.name AS customer_name, c.code AS customer_code, c.type AS customer_type, c.time_zone
                  FROM app_user u JOIN customer c ON c.id = u.customer_id`;

export const findByAccount = (db: Queryable, account: string): Promise<UserRow | undefined> => db.query<UserRow>(`${SELECT} WHERE u.account = $1`, [account]).then((r) => r[0]);
export const findById = (db: Queryable, id: number): Promise<UserRow | undefined> => db.query<UserRow>(`${SELECT} WHERE u.id = $1`, [id]).then((r) => r[0]);

/** A user of the caller's scope, or 404 (a foreign user looks like a missing one). */
export async function scopedUser(q: Queryable, scope: Scope, id: number, lock = false): Promise<UserRow> {
  const params: unknown[] = [id];
  const rows = await q.query<UserRow>(`${SELECT} WHERE u.id = $1 AND ${scopeWhere(scope, 'u.customer_id', params)}${lock ? ' FOR UPDATE OF u' : ''}`, params);
  if (!rows[0]) throw notFound();
  return rows[0];
}

/** All ids in scope or the whole call is refused with 404 (batch changes are all or nothing). */
export async function scopedUsers(q: Queryable, scope: Scope, ids: number[]): Promise<UserRow[]> {
  const params: unknown[] = [ids];
  const rows = await q.query<UserRow>(`${SELECT} WHERE u.id = ANY($1::int[]) AND ${scopeWhere(scope, 'u.customer_id', params)} FOR UPDATE OF u`, params);
  if (rows.length !== new Set(ids).size) throw notFound();
  return rows;
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

const COLS = `u.id, u.account, u.name, u.gender, u.status, u.user_type AS "userType", u.is_admin AS "isAdmin", u.mobile, u.email, u.remarks,
  u.customer_id AS "customerId", c.name AS "customerName", u.default_account AS "defaultAccount",
  u.proxy_customer_id AS "proxyCustomerId", pc.name AS "proxyCustomerName",
  COALESCE((SELECT json_agg(json_build_object('id', r.id, 'name', r.name, 'type', r.type, 'level', r.level) ORDER BY r.id)
              FROM user_role ur JOIN role r ON r.id = ur.role_id WHERE ur.user_id = u.id), '[]'::json) AS roles,
  ARRAY(SELECT us.scene_id FROM user_scene us WHERE us.user_id = u.id ORDER BY us.scene_id) AS "sceneIds",
  (u.avatar IS NOT NULL) AS "hasAvatar", (u.signature IS NOT NULL) AS "hasSignature", ${msCol('u.created_at', 'createdAt')}`;
const FROM = 'app_user u JOIN customer c ON c.id = u.customer_id LEFT JOIN customer pc ON pc.id = u.proxy_customer_id';

export interface UserFilter {
  iDisplayStart: number;
  iDisplayLength: number;
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
  [k: string]: unknown;
}

export function page(db: Db, scope: Scope, f: UserFilter) {
  const params: unknown[] = [];
  const where = [scopeWhere(scope, 'u.customer_id', params)];
  if (f.account) where.push(`u.account ILIKE $${params.push(likeParam(f.account))}`);
  if (f.name) where.push(`u.name ILIKE $${params.push(likeParam(f.name))}`);
  if (f.mobile) where.push(`u.mobile ILIKE $${params.push(likeParam(f.mobile))}`);
  if (f.status !== undefined) where.push(`u.status = $${params.push(f.status)}`);
  if (f.customerId) where.push(`u.customer_id = $${params.push(f.customerId)}`);
  if (f.roleId) where.push(`EXISTS (SELECT 1 FROM user_role x WHERE x.user_id = u.id AND x.role_id = $${params.push(f.roleId)})`);
  return pageQuery<UserListRow>(db, { select: COLS, from: FROM, where, orderBy: 'u.id' }, params, f);
}

/** One user with roles, associated architecture and operable resources (the union of its active roles' resources). */
export async function detail(db: Queryable, scope: Scope, id: number) {
  const params: unknown[] = [id];
  const rows = await db.query<UserListRow>(`SELECT ${COLS} FROM ${FROM} WHERE u.id = $1 AND ${scopeWhere(scope, 'u.customer_id', params)}`, params);
  if (!rows[0]) throw notFound();
  const res = await db.query<{ id: number }>(
    `SELECT DISTINCT rr.resource_id AS id FROM user_role ur JOIN role r ON r.id = ur.role_id JOIN role_resource rr ON rr.role_id = r.id
      WHERE ur.user_id = $1 AND r.status = 1 ORDER BY 1`,
    [id],
  );
  const row = rows[0];
  return { ...row, roleIds: row.roles.map((r) => r.id), resourceIds: res.map((r) => r.id) };
}

/** The customers a proxy user may switch to (spec §3 user info switchScope): its active proxy roles' active customers. */
export async function switchScope(db: Queryable, userId: number, currentCustomerId: number) {
  const rows = await db.query<{ id: number; name: string; code: string }>(
    `SELECT DISTINCT c.id, c.name, c.code FROM user_role ur JOIN role r ON r.id = ur.role_id
       JOIN role_proxy_customer rpc ON rpc.role_id = r.id JOIN customer c ON c.id = rpc.governed_id
      WHERE ur.user_id = $1 AND r.status = 1 AND c.status = 1 ORDER BY c.id`,
    [userId],
  );
  return rows.map((c) => ({ ...c, current: c.id === currentCustomerId }));
}

export type FileKind = 'avatar' | 'signature';

/** Replaces the user's file of this kind; app_user.avatar / .signature point at the new one. */
export async function saveFile(q: Queryable, user: { id: number; customer_id: number }, kind: FileKind, mime: string, data: Buffer) {
  await q.query('DELETE FROM stored_file WHERE user_id = $1 AND kind = $2', [user.id, kind]);
  const [row] = await q.query<{ id: number }>(
    'INSERT INTO stored_file (customer_id, user_id, kind, mime, size, data) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
    [user.customer_id, user.id, kind, mime, data.length, data],
  );
  await q.query(`UPDATE app_user SET ${kind === 'avatar' ? 'avatar' : 'signature'} = $2 WHERE id = $1`, [user.id, String(row.id)]);
  return { id: row.id, size: data.length, mime };
}

export async function getFile(q: Queryable, userId: number, kind: FileKind) {
  const row = (
    await q.query<{ id: number; mime: string; size: number; data: Uint8Array; created_at: Date }>(
      'SELECT id, mime, size, data, created_at FROM stored_file WHERE user_id = $1 AND kind = $2',
      [userId, kind],
    )
  )[0];
  return row && { ...row, data: Buffer.from(row.data) };
}
