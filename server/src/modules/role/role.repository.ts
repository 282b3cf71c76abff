import type { RoleDetail, RoleRow } from '@coldwatch/contract';
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { contains, countOf, msOf, paged, type PageInput } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';

function roleSelect(k: Kysely<DB>) {
  return k
    .selectFrom('role as r')
    .innerJoin('customer as c', 'c.id', 'r.customer_id')
    .select((eb) => [
      'r.id',
      'r.customer_id as customerId',
      'c.name as customerName',
      'r.name',
      'r.status',
      sql<RoleRow['type']>`r.type`.as('type'),
      'r.level',
      'r.is_default as isDefault',
      'r.delegable',
      'r.description',
      countOf(eb.selectFrom('user_role as ur').whereRef('ur.role_id', '=', 'r.id')).as('userCount'),
      msOf('r.created_at').as('createdAt'),
    ]);
}

export interface PageFilters extends PageInput {
  name?: string;
  status?: number;
  type?: 'admin' | 'normal';
  customerId?: number;
}

const SORTABLE = { name: 'r.name', level: 'r.level', status: 'r.status', createdAt: 'r.created_at' };

export function page(q: Queryable, scope: Scope, f: PageFilters) {
  const query = roleSelect(scoped(q, scope)).where((eb) => {
    const and: Expression<SqlBool>[] = [];
    if (f.name) and.push(eb('r.name', 'ilike', contains(f.name)));
    if (f.status !== undefined) and.push(eb('r.status', '=', f.status));
    if (f.type) and.push(eb('r.type', '=', f.type));
    if (f.customerId) and.push(eb('r.customer_id', '=', f.customerId));
    return eb.and(and);
  });
  return paged(query, f, { sortable: SORTABLE, by: ['r.customer_id', 'r.id'] });
}

/** One role of the caller's scope (undefined: missing or another customer's). */
export async function detail(q: Queryable, scope: Scope, id: number): Promise<RoleDetail | undefined> {
  const k = scoped(q, scope);
  const row: RoleRow | undefined = await roleSelect(k).where('r.id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  // One after another: q may be a transaction's single connection.
  const funcs = await k.selectFrom('role_func').select('func').where('role_id', '=', id).orderBy('func').execute();
  const resources = await k.selectFrom('role_resource').select('resource_id').where('role_id', '=', id).orderBy('resource_id').execute();
  const proxies = await k.selectFrom('role_proxy_customer').select('governed_id').where('role_id', '=', id).orderBy('governed_id').execute();
  const scenes = await k.selectFrom('role_scene').select('scene_id').where('role_id', '=', id).orderBy('scene_id').execute();
  return {
    ...row,
    funcs: funcs.map((x) => x.func),
    resourceIds: resources.map((x) => x.resource_id),
    proxyCustomerIds: proxies.map((x) => x.governed_id),
    sceneIds: scenes.map((x) => x.scene_id),
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

export async function insert(q: Queryable, scope: Scope, w: RoleWrite): Promise<number> {
  const k = scoped(q, scope);
  const { id } = await k
    .insertInto('role')
    .values({ customer_id: w.customerId, name: w.name, status: w.status, type: w.type, level: w.level, is_default: w.isDefault, delegable: w.delegable, description: w.description })
    .returning('id')
    .executeTakeFirstOrThrow();
  await writeLinks(k, id, w);
  return id;
}

export async function update(q: Queryable, scope: Scope, id: number, w: RoleWrite): Promise<void> {
  const k = scoped(q, scope);
  await k
    .updateTable('role')
    .set({ name: w.name, status: w.status, level: w.level, is_default: w.isDefault, delegable: w.delegable, description: w.description })
    .where('id', '=', id)
    .execute();
  for (const t of ['role_func', 'role_resource', 'role_proxy_customer', 'role_scene'] as const) await k.deleteFrom(t).where('role_id', '=', id).execute();
  await writeLinks(k, id, w);
}

async function writeLinks(k: Kysely<DB>, id: number, w: RoleWrite) {
  const base = { role_id: id, customer_id: w.customerId };
  const each = <T>(xs: T[]) => [...new Set(xs)];
  if (w.funcs.length) await k.insertInto('role_func').values(each(w.funcs).map((func) => ({ ...base, func }))).execute();
  if (w.resourceIds.length) await k.insertInto('role_resource').values(each(w.resourceIds).map((resource_id) => ({ ...base, resource_id }))).execute();
  if (w.proxyCustomerIds.length) await k.insertInto('role_proxy_customer').values(each(w.proxyCustomerIds).map((governed_id) => ({ ...base, governed_id }))).execute();
  if (w.sceneIds.length) await k.insertInto('role_scene').values(each(w.sceneIds).map((scene_id) => ({ ...base, scene_id }))).execute();
}
