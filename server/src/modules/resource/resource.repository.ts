import { ALL_FUNCS, Code, MENU_CODE, type ResourceBody, type ResourceRow, type ResourceTreeNode } from '@coldwatch/contract';
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Queryable } from '../../platform/db/client.js';
import { system } from '../../platform/db/kysely.js';
import { contains, paged, type PageInput } from '../../platform/db/query.js';
import { AppError, conflict, notFound, paramError } from '../../platform/http/errors.js';
import { mapUnique } from '../shared/records.js';
import { entryFuncs } from './menu.service.js';

/**
 * Menu resources (spec §3, `/sys/resource`): the whole table, for root only (the routes check
 * that); no customer scope — the menu is the product's, shared by every customer.
 */
function resourceSelect(q: Queryable) {
  return system(q)
    .selectFrom('menu_resource as m')
    .select([
      'm.id',
      'm.parent_id as parentId',
      'm.code',
      'm.name',
      'm.url',
      'm.icon',
      'm.hidden',
      'm.enabled',
      sql<ResourceRow['visible']>`m.visible`.as('visible'),
      'm.func_object as funcObject',
      'm.extra_code as extraCode',
      'm.access_level as accessLevel',
      'm.sort',
      'm.builtin',
    ]);
}
const withFuncs = (r: Omit<ResourceRow, 'funcCodes'>): ResourceRow => ({ ...r, funcCodes: entryFuncs(r.code, r.funcObject) });

export async function page(q: Queryable, f: PageInput & { name?: string; code?: string; parentId?: number }) {
  const query = resourceSelect(q).where((eb) => {
    const and: Expression<SqlBool>[] = [];
    if (f.name) and.push(eb('m.name', 'ilike', contains(f.name)));
    if (f.code) and.push(eb('m.code', 'ilike', contains(f.code)));
    if (f.parentId) and.push(eb('m.parent_id', '=', f.parentId));
    return eb.and(and);
  });
  const p = await paged(query, f, { sortable: SORTABLE, by: ['m.sort', 'm.id'] });
  return { ...p, rows: p.rows.map(withFuncs) };
}

const SORTABLE = { name: 'm.name', code: 'm.code', sort: 'm.sort' };

export async function detail(q: Queryable, id: number): Promise<ResourceRow | undefined> {
  const r = await resourceSelect(q).where('m.id', '=', id).executeTakeFirst();
  return r && withFuncs(r);
}

/** Every resource as a tree (disabled ones included), in menu order. */
export async function tree(q: Queryable): Promise<ResourceTreeNode[]> {
  const rows = (await resourceSelect(q).orderBy('m.sort').orderBy('m.id').execute()).map(withFuncs);
  const nodes = new Map(rows.map((r) => [r.id, { ...r, children: [] as ResourceTreeNode[] }]));
  const roots: ResourceTreeNode[] = [];
  for (const n of nodes.values()) (n.parentId !== null && nodes.get(n.parentId) ? nodes.get(n.parentId)!.children : roots).push(n);
  return roots;
}

const fail = (key: string) => new AppError(Code.FAILED, key);
const uniqueAnswers = {
  menu_resource_name_key: conflict(MENU_CODE.NAME_EXISTS, 'errors.menu.nameExists'),
  menu_resource_code_key: conflict(MENU_CODE.CODE_EXISTS, 'errors.menu.codeExists'),
};

/** Name and code unique (407, 408), parent present, function object known. */
async function check(q: Queryable, b: ResourceBody, id = 0) {
  const k = system(q);
  const other = (col: 'name' | 'code', v: string) => k.selectFrom('menu_resource').select('id').where(col, '=', v).where('id', '<>', id).executeTakeFirst();
  if (await other('name', b.name)) throw uniqueAnswers.menu_resource_name_key;
  if (await other('code', b.code)) throw uniqueAnswers.menu_resource_code_key;
  if (b.parentId !== null && !(await k.selectFrom('menu_resource').select('id').where('id', '=', b.parentId).executeTakeFirst())) throw fail('errors.menu.parentMissing');
  if (b.funcObject !== null && !ALL_FUNCS.includes(`view${b.funcObject}`)) throw paramError('errors.menu.funcObject', { funcObject: 'errors.menu.funcObject' });
}

export async function add(q: Queryable, b: ResourceBody): Promise<{ id: number }> {
  await check(q, b);
  return mapUnique(async () => {
    const r = await system(q).insertInto('menu_resource').values({ ...columns(b), builtin: false }).returning('id').executeTakeFirstOrThrow();
    return { id: r.id };
  }, uniqueAnswers);
}

/** Ids of an entry and everything below it. */
async function subtree(q: Queryable, ids: number[]): Promise<number[]> {
  const rows = await system(q)
    .withRecursive('t(id)', (w) =>
      w.selectFrom('menu_resource').select('menu_resource.id').where('menu_resource.id', 'in', ids).union(w.selectFrom('menu_resource as m').innerJoin('t', 't.id', 'm.parent_id').select('m.id')),
    )
    .selectFrom('t')
    .select('t.id')
    .execute();
  return rows.map((r) => r.id);
}

const columns = (b: ResourceBody) => ({
  parent_id: b.parentId,
  code: b.code,
  name: b.name,
  url: b.url,
  icon: b.icon,
  hidden: b.hidden,
  enabled: b.enabled,
  visible: b.visible,
  func_object: b.funcObject,
  extra_code: b.extraCode,
  access_level: b.accessLevel,
  sort: b.sort,
});

export async function update(q: Queryable, b: ResourceBody & { id: number }): Promise<{ id: number }> {
  const cur = await detail(q, b.id);
  if (!cur) throw notFound();
  if (cur.builtin && b.code !== cur.code) throw fail('errors.menu.builtinCode');
  await check(q, b, b.id);
  if (b.parentId !== null && (await subtree(q, [b.id])).includes(b.parentId)) throw fail('errors.menu.parentLoop');
  return mapUnique(async () => {
    await system(q).updateTable('menu_resource').set(columns(b)).where('id', '=', b.id).execute();
    return { id: b.id };
  }, uniqueAnswers);
}

/**
 * Deletes entries and everything below them (spec: deleting a parent deletes its children).
 * Built-in entries come from the product's menu and would be re-created at the next start:
 * they cannot be deleted (disable them instead), nor can a parent holding one.
 */
export async function remove(q: Queryable, ids: number[]): Promise<{ deleted: number }> {
  const k = system(q);
  const found = await k.selectFrom('menu_resource').select('id').where('id', 'in', ids).forUpdate().execute();
  if (found.length !== new Set(ids).size) throw notFound();
  const all = await subtree(q, ids);
  if (await k.selectFrom('menu_resource').select('id').where('id', 'in', all).where('builtin', '=', true).executeTakeFirst()) throw fail('errors.menu.builtinDelete');
  await k.deleteFrom('menu_resource').where('id', 'in', all).execute();
  return { deleted: all.length };
}
