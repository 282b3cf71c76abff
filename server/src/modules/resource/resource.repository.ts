import { ALL_FUNCS, Code, MENU_CODE, type ResourceBody } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import { AppError, conflict, notFound, paramError } from '../../platform/http/errors.js';
import { pageResult } from '../../platform/http/paging.js';
import { mapUnique } from '../dm/records.js';
import { entryFuncs } from './menu.service.js';

/**
 * Menu resources (spec §3, `/sys/resource`): the whole table, for root only (the routes check
 * that); no customer scope — the menu is the product's, shared by every customer.
 */
export interface ResourceRow {
  id: number;
  parentId: number | null;
  code: string;
  name: string;
  url: string;
  icon: string;
  hidden: boolean;
  enabled: boolean;
  visible: 'all' | 'admin' | 'system';
  funcObject: string | null;
  /** The function codes the entry carries: view/new/edit/remove<Object> (and its extra codes). */
  funcCodes: string[];
  extraCode: string;
  accessLevel: number;
  sort: number;
  builtin: boolean;
}
export interface ResourceTreeNode extends ResourceRow {
  children: ResourceTreeNode[];
}

const COLS = `id, parent_id AS "parentId", code, name, url, icon, hidden, enabled, visible, func_object AS "funcObject",
  extra_code AS "extraCode", access_level AS "accessLevel", sort, builtin`;
const withFuncs = (r: Omit<ResourceRow, 'funcCodes'>): ResourceRow => ({ ...r, funcCodes: entryFuncs(r.code, r.funcObject) });

export async function page(q: Queryable, f: { iDisplayStart: number; iDisplayLength: number; name?: string; code?: string; parentId?: number }) {
  const params: unknown[] = [];
  const where: string[] = ['TRUE'];
  if (f.name) (params.push(`%${f.name}%`), where.push(`name ILIKE $${params.length}`));
  if (f.code) (params.push(`%${f.code}%`), where.push(`code ILIKE $${params.length}`));
  if (f.parentId) (params.push(f.parentId), where.push(`parent_id = $${params.length}`));
  const w = where.join(' AND ');
  const [{ n }] = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM menu_resource WHERE ${w}`, params);
  params.push(f.iDisplayLength, f.iDisplayStart);
  const rows = await q.query<Omit<ResourceRow, 'funcCodes'>>(
    `SELECT ${COLS} FROM menu_resource WHERE ${w} ORDER BY sort, id LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  return pageResult(rows.map(withFuncs), n, f);
}

export async function detail(q: Queryable, id: number): Promise<ResourceRow | undefined> {
  const [r] = await q.query<Omit<ResourceRow, 'funcCodes'>>(`SELECT ${COLS} FROM menu_resource WHERE id = $1`, [id]);
  return r && withFuncs(r);
}

/** Every resource as a tree (disabled ones included), in menu order. */
export async function tree(q: Queryable): Promise<ResourceTreeNode[]> {
  const rows = (await q.query<Omit<ResourceRow, 'funcCodes'>>(`SELECT ${COLS} FROM menu_resource ORDER BY sort, id`)).map(withFuncs);
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
  if ((await q.query('SELECT 1 FROM menu_resource WHERE name = $1 AND id <> $2', [b.name, id])).length) throw uniqueAnswers.menu_resource_name_key;
  if ((await q.query('SELECT 1 FROM menu_resource WHERE code = $1 AND id <> $2', [b.code, id])).length) throw uniqueAnswers.menu_resource_code_key;
  if (b.parentId !== null && !(await q.query('SELECT 1 FROM menu_resource WHERE id = $1', [b.parentId])).length) throw fail('errors.menu.parentMissing');
  if (b.funcObject !== null && !ALL_FUNCS.includes(`view${b.funcObject}`)) throw paramError('errors.menu.funcObject', { funcObject: 'errors.menu.funcObject' });
}

export async function add(q: Queryable, b: ResourceBody): Promise<{ id: number }> {
  await check(q, b);
  return mapUnique(async () => {
    const [r] = await q.query<{ id: number }>(
      `INSERT INTO menu_resource (parent_id, code, name, url, icon, hidden, enabled, visible, func_object, extra_code, access_level, sort, builtin)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, false) RETURNING id`,
      [b.parentId, b.code, b.name, b.url, b.icon, b.hidden, b.enabled, b.visible, b.funcObject, b.extraCode, b.accessLevel, b.sort],
    );
    return { id: r.id };
  }, uniqueAnswers);
}

/** Ids of an entry and everything below it. */
async function subtree(q: Queryable, ids: number[]): Promise<number[]> {
  const rows = await q.query<{ id: number }>(
    `WITH RECURSIVE t(id) AS (SELECT id FROM menu_resource WHERE id = ANY($1::int[])
       UNION SELECT m.id FROM menu_resource m JOIN t ON m.parent_id = t.id) SELECT id FROM t`,
    [ids],
  );
  return rows.map((r) => r.id);
}

export async function update(q: Queryable, b: ResourceBody & { id: number }): Promise<{ id: number }> {
  const cur = await detail(q, b.id);
  if (!cur) throw notFound();
  if (cur.builtin && b.code !== cur.code) throw fail('errors.menu.builtinCode');
  await check(q, b, b.id);
  if (b.parentId !== null && (await subtree(q, [b.id])).includes(b.parentId)) throw fail('errors.menu.parentLoop');
  return mapUnique(async () => {
    await q.query(
      `UPDATE menu_resource SET parent_id = $2, code = $3, name = $4, url = $5, icon = $6, hidden = $7, enabled = $8, visible = $9,
         func_object = $10, extra_code = $11, access_level = $12, sort = $13 WHERE id = $1`,
      [b.id, b.parentId, b.code, b.name, b.url, b.icon, b.hidden, b.enabled, b.visible, b.funcObject, b.extraCode, b.accessLevel, b.sort],
    );
    return { id: b.id };
  }, uniqueAnswers);
}

/**
 * Deletes entries and everything below them (spec: deleting a parent deletes its children).
 * Built-in entries come from the product's menu and would be re-created at the next start:
 * they cannot be deleted (disable them instead), nor can a parent holding one.
 */
export async function remove(q: Queryable, ids: number[]): Promise<{ deleted: number }> {
  const found = await q.query<{ id: number }>('SELECT id FROM menu_resource WHERE id = ANY($1::int[]) FOR UPDATE', [ids]);
  if (found.length !== new Set(ids).size) throw notFound();
  const all = await subtree(q, ids);
  const builtin = await q.query('SELECT 1 FROM menu_resource WHERE id = ANY($1::int[]) AND builtin', [all]);
  if (builtin.length) throw fail('errors.menu.builtinDelete');
  await q.query('DELETE FROM menu_resource WHERE id = ANY($1::int[])', [all]);
  return { deleted: all.length };
}
