import type { Queryable } from '../../platform/db/client.js';
import { scopeWhere, type Scope } from '../../platform/auth/scope.js';
import { pageResult } from '../../platform/http/paging.js';
import { msCol } from '../dm/records.js';

/** A role as the page and the detail answer it (spec §3 Role). */
export interface RoleRow {
  id: number;
  customerId: number;
  customerName: string;
  name: string;
  status: number;
  type: 'admin' | 'normal';
  level: number;
  isDefault: boolean;
  delegable: boolean;
  description: string;
  userCount: number;
  createdAt: number;
}

export interface RoleDetail extends RoleRow {
  funcs: string[];
  resourceIds: number[];
  proxyCustomerIds: number[];
  sceneIds: number[];
}

const COLS = `r.id, r.customer_id AS "customerId", c.name AS "customerName", r.name, r.status, r.type, r.level,
  r.is_default AS "isDefault", r.delegable, r.description,
  (SELECT count(*)::int FROM user_role ur WHERE ur.role_id = r.id) AS "userCount", ${msCol('r.created_at', 'createdAt')}`;

export interface PageFilters {
  iDisplayStart: number;
  iDisplayLength: number;
  name?: string;
  status?: number;
  type?: 'admin' | 'normal';
  customerId?: number;
}

export async function page(q: Queryable, scope: Scope, f: PageFilters) {
  const params: unknown[] = [];
  const where = [scopeWhere(scope, 'r.customer_id', params)];
  if (f.name) {
    params.push(`%${f.name}%`);
    where.push(`r.name ILIKE $${params.length}`);
  }
  if (f.status !== undefined) {
    params.push(f.status);
    where.push(`r.status = $${params.length}`);
  }
  if (f.type) {
    params.push(f.type);
    where.push(`r.type = $${params.length}`);
  }
  if (f.customerId) {
    params.push(f.customerId);
    where.push(`r.customer_id = $${params.length}`);
  }
  const w = where.join(' AND ');
  const [{ n }] = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM role r WHERE ${w}`, params);
  params.push(f.iDisplayLength, f.iDisplayStart);
  const rows = await q.query<RoleRow>(
    `SELECT ${COLS} FROM role r JOIN customer c ON c.id = r.customer_id WHERE ${w} ORDER BY r.customer_id, r.id LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  return pageResult(rows, n, f);
}

/** One role of the caller's scope (undefined: missing or another customer's). */
export async function detail(q: Queryable, scope: Scope, id: number): Promise<RoleDetail | undefined> {
  const params: unknown[] = [id];
  const [row] = await q.query<RoleRow>(
    `SELECT ${COLS} FROM role r JOIN customer c ON c.id = r.customer_id WHERE r.id = $1 AND ${scopeWhere(scope, 'r.customer_id', params)}`,
    params,
  );
  if (!row) return undefined;
  const col = async (sql: string) => (await q.query<{ v: any }>(sql, [id])).map((x) => x.v);
  return {
    ...row,
    funcs: await col('SELECT func AS v FROM role_func WHERE role_id = $1 ORDER BY func'),
    resourceIds: await col('SELECT resource_id AS v FROM role_resource WHERE role_id = $1 ORDER BY resource_id'),
    proxyCustomerIds: await col('SELECT governed_id AS v FROM role_proxy_customer WHERE role_id = $1 ORDER BY governed_id'),
    sceneIds: await col('SELECT scene_id AS v FROM role_scene WHERE role_id = $1 ORDER BY scene_id'),
  };
}

export interface RoleWrite {
  customerId: number;
  name: string;
  status: number;
  type: 'admin' | 'normal';
  level: number;
  isDefault: boolean;
  delegable: boolean;
  description: string;
  funcs: string[];
  resourceIds: number[];
  proxyCustomerIds: number[];
  sceneIds: number[];
}

export async function insert(q: Queryable, w: RoleWrite): Promise<number> {
  const [{ id }] = await q.query<{ id: number }>(
    `INSERT INTO role (customer_id, name, status, type, level, is_default, delegable, description)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [w.customerId, w.name, w.status, w.type, w.level, w.isDefault, w.delegable, w.description],
  );
  await writeLinks(q, id, w);
  return id;
}

export async function update(q: Queryable, id: number, w: RoleWrite): Promise<void> {
  await q.query(
    `UPDATE role SET name = $2, status = $3, level = $4, is_default = $5, delegable = $6, description = $7 WHERE id = $1`,
    [id, w.name, w.status, w.level, w.isDefault, w.delegable, w.description],
  );
  for (const t of ['role_func', 'role_resource', 'role_proxy_customer', 'role_scene']) await q.query(`DELETE FROM ${t} WHERE role_id = $1`, [id]);
  await writeLinks(q, id, w);
}

async function writeLinks(q: Queryable, id: number, w: RoleWrite) {
  if (w.funcs.length) await q.query('INSERT INTO role_func (role_id, func) SELECT $1, unnest($2::text[])', [id, [...new Set(w.funcs)]]);
  if (w.resourceIds.length) await q.query('INSERT INTO role_resource (role_id, resource_id) SELECT $1, unnest($2::int[])', [id, [...new Set(w.resourceIds)]]);
  if (w.proxyCustomerIds.length) await q.query('INSERT INTO role_proxy_customer (role_id, governed_id) SELECT $1, unnest($2::int[])', [id, [...new Set(w.proxyCustomerIds)]]);
  if (w.sceneIds.length) await q.query('INSERT INTO role_scene (role_id, scene_id) SELECT $1, unnest($2::int[])', [id, [...new Set(w.sceneIds)]]);
}
