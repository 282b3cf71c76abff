import type { MenuNode, PickNode, ShortcutEntry } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import { paramError } from '../../platform/http/errors.js';
import type { Scope } from '../../platform/auth/scope.js';
import { leaves, visibleMenu } from './shortcut.service.js';

/** A user's shortcuts are rows of its own customer, whatever customers it governs. */
const own = (q: Queryable, scope: Scope) => scoped(q, { customerIds: [scope.homeCustomerId] });

async function storedIds(q: Queryable, scope: Scope): Promise<number[]> {
  const rows = await own(q, scope).selectFrom('shortcut').select('resource_id').where('user_id', '=', scope.userId).orderBy('sort').orderBy('resource_id').execute();
  return rows.map((r) => r.resource_id);
}

const entry = (n: MenuNode): ShortcutEntry => ({ id: n.id, code: n.code, name: n.name, url: n.url, icon: n.icon });

/** The caller's shortcuts in its order; entries its menu no longer shows (a role lost them) are left out. */
export async function list(q: Queryable, scope: Scope): Promise<ShortcutEntry[]> {
  const byId = new Map(leaves(await visibleMenu(q, scope)).map((n) => [n.id, n]));
  return (await storedIds(q, scope)).flatMap((id) => {
    const n = byId.get(id);
    return n ? [entry(n)] : [];
  });
}

/** The visible menu with each entry that is already a shortcut marked `check: true`. */
export async function pickTree(q: Queryable, scope: Scope): Promise<PickNode[]> {
  const chosen = new Set(await storedIds(q, scope));
  const mark = (nodes: MenuNode[]): PickNode[] =>
    nodes.map((n) => ({ ...entry(n), check: !n.children.length && chosen.has(n.id), children: mark(n.children) }));
  return mark(await visibleMenu(q, scope));
}

/** Replaces the caller's shortcuts with ids, in that order; every id must be an entry of its visible menu. */
export async function replace(q: Queryable, scope: Scope, ids: number[]): Promise<ShortcutEntry[]> {
  const byId = new Map(leaves(await visibleMenu(q, scope)).map((n) => [n.id, n]));
  if (ids.some((id) => !byId.has(id))) throw paramError('errors.shortcut.notInMenu', { ids: 'errors.shortcut.notInMenu' });
  const k = own(q, scope);
  await k.deleteFrom('shortcut').where('user_id', '=', scope.userId).execute();
  if (ids.length) {
    await k
      .insertInto('shortcut')
      .values(ids.map((resource_id, i) => ({ customer_id: scope.homeCustomerId, user_id: scope.userId, resource_id, sort: i + 1 })))
      .execute();
  }
  return ids.map((id) => entry(byId.get(id)!));
}
