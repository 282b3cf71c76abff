import type { Queryable } from '../../platform/db/client.js';
import { paramError } from '../../platform/http/errors.js';
import type { Scope } from '../../platform/auth/scope.js';
import { leaves, visibleMenu, type MenuNode } from './shortcut.service.js';

/** At most this many shortcuts per user: the shortcut bar holds one row. */
export const MAX_SHORTCUTS = 12;

export interface ShortcutEntry {
  id: number;
  code: string;
  name: string;
  url: string;
  icon: string;
}

async function storedIds(q: Queryable, userId: number): Promise<number[]> {
  const rows = await q.query<{ resource_id: number }>('SELECT resource_id FROM shortcut WHERE user_id = $1 ORDER BY sort, resource_id', [userId]);
  return rows.map((r) => r.resource_id);
}

/** The caller's shortcuts in its order; entries its menu no longer shows (a role lost them) are left out. */
export async function list(q: Queryable, scope: Scope): Promise<ShortcutEntry[]> {
  const byId = new Map(leaves(await visibleMenu(q, scope)).map((n) => [n.id, n]));
  return (await storedIds(q, scope.userId)).flatMap((id) => {
    const n = byId.get(id);
    return n ? [{ id: n.id, code: n.code, name: n.name, url: n.url, icon: n.icon }] : [];
  });
}

export type PickNode = Omit<MenuNode, 'children'> & { check: boolean; children: PickNode[] };

/** The visible menu with each entry that is already a shortcut marked `check: true`. */
export async function pickTree(q: Queryable, scope: Scope): Promise<PickNode[]> {
  const chosen = new Set(await storedIds(q, scope.userId));
  const mark = (nodes: MenuNode[]): PickNode[] =>
    nodes.map((n) => ({ id: n.id, code: n.code, name: n.name, url: n.url, icon: n.icon, check: !n.children.length && chosen.has(n.id), children: mark(n.children) }));
  return mark(await visibleMenu(q, scope));
}

/** Replaces the caller's shortcuts with ids, in that order; every id must be an entry of its visible menu. */
export async function replace(q: Queryable, scope: Scope, ids: number[]): Promise<ShortcutEntry[]> {
  const byId = new Map(leaves(await visibleMenu(q, scope)).map((n) => [n.id, n]));
  if (ids.some((id) => !byId.has(id))) throw paramError('errors.shortcut.notInMenu', { ids: 'errors.shortcut.notInMenu' });
  await q.query('DELETE FROM shortcut WHERE user_id = $1', [scope.userId]);
  if (ids.length) {
    await q.query(
      'INSERT INTO shortcut (user_id, resource_id, sort) SELECT $1, id, ord::int FROM unnest($2::int[]) WITH ORDINALITY AS t(id, ord)',
      [scope.userId, ids],
    );
  }
  return ids.map((id) => {
    const n = byId.get(id)!;
    return { id: n.id, code: n.code, name: n.name, url: n.url, icon: n.icon };
  });
}
