import { USER_TYPE, reachesLevel, type MenuNode, type PermissionNode } from '@coldwatch/contract';
import type { Kysely } from 'kysely';
import type { Db, Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { crossTenant, system } from '../../platform/db/kysely.js';
import type { Scope } from '../../platform/auth/scope.js';
import { ROOT_USER_ID, funcLevel } from '../../platform/auth/funcs.js';

/** The code of the menu-resource management entry: shown to root (user id 1) only (spec §6). */
export const RESOURCE_CODE = 'resource';

/** Spec §6 menu visibility: 'all'; 'admin' for admin-type users (types 1, 3 and root); 'system' for platform users (types 2, 3). */
export function visibleTo(visible: string, userType: number, isRoot: boolean): boolean {
  if (visible === 'admin') return isRoot || userType === USER_TYPE.customerAdmin || userType === USER_TYPE.platformAdmin;
  if (visible === 'system') return isRoot || userType === USER_TYPE.platformUser || userType === USER_TYPE.platformAdmin;
  return true;
}

function allResources(q: Queryable) {
  return system(q)
    .selectFrom('menu_resource')
    .select(['id', 'parent_id', 'code', 'name', 'url', 'icon', 'hidden', 'enabled', 'visible', 'func_object', 'access_level', 'sort'])
    .orderBy('sort')
    .orderBy('id')
    .execute();
}
type ResourceRow = Awaited<ReturnType<typeof allResources>>[number];

/**
 * The menu resources a user's active roles make operable (spec §3 role "operable resources"):
 * the union of their resources, read through `k`, whose scope the caller chooses.
 */
export function operableResourceIds(k: Kysely<DB>, userId: number) {
  return k
    .selectFrom('user_role as ur')
    .innerJoin('role as r', 'r.id', 'ur.role_id')
    .innerJoin('role_resource as rr', 'rr.role_id', 'r.id')
    .select('rr.resource_id')
    .distinct()
    .where('ur.user_id', '=', userId)
    .where('r.status', '=', 1);
}

/** The caller's own operable resources, whichever customer it currently works in. */
export async function operableResources(q: Queryable, userId: number): Promise<Set<number>> {
  const rows = await operableResourceIds(crossTenant(q, 'a user\'s own roles, whichever customer it currently works in'), userId).execute();
  return new Set(rows.map((r) => r.resource_id));
}

/** Whether an entry passes the per-entry checks (everything but the role's operable resources and the children rule). */
function entryAllowed(r: ResourceRow, scope: Scope, isRoot: boolean): boolean {
  if (!r.enabled) return false;
  if (r.code === RESOURCE_CODE && !isRoot) return false;
  if (!visibleTo(r.visible, scope.userType, isRoot)) return false;
  if (!reachesLevel(r.access_level, scope.userType, isRoot)) return false;
  if (r.func_object && !isRoot && !scope.funcs.has(`view${r.func_object}`)) return false;
  return true;
}

/**
 * Builds the tree: an entry is kept when it passes `keep`, its parent is kept, and — for an
 * entry that has children in the table (a section) — at least one child is kept. A leaf
 * (no children in the table) needs only `keep`.
 */
function buildTree(rows: ResourceRow[], keep: (r: ResourceRow) => boolean): MenuNode[] {
  const byParent = new Map<number | null, ResourceRow[]>();
  for (const r of rows) {
    const list = byParent.get(r.parent_id) ?? [];
    list.push(r);
    byParent.set(r.parent_id, list);
  }
  const walk = (parent: number | null): MenuNode[] => {
    const out: MenuNode[] = [];
    for (const r of byParent.get(parent) ?? []) {
      if (!keep(r)) continue;
      const hasChildren = (byParent.get(r.id) ?? []).length > 0;
      const children = hasChildren ? walk(r.id) : [];
      if (hasChildren && children.length === 0) continue;
      out.push({ id: r.id, code: r.code, name: r.name, url: r.url, icon: r.icon, hidden: r.hidden, children });
    }
    return out;
  };
  return walk(null);
}

/**
 * The caller's menu (spec §2, §6). An entry is shown when all of these hold:
 *  - it and every ancestor are enabled;
 *  - its visibility admits the caller: 'all'; 'admin' only for user types 1, 3 and root; 'system' only for types 2, 3;
 *  - its access level is reached by the caller's user type (`reachesLevel`, level 4 = root only);
 *  - the resource-management entry (`resource`) only for root (user id 1);
 *  - an entry with a function object only when the caller holds `view<Object>` (entries without object: no check);
 *  - for non-root users, a leaf entry must be among the operable resources of the user's active roles
 *    (union of `role_resource`); a section (an entry with children) is shown when at least one of its
 *    children is shown — it needs no operable-resource row of its own.
 * Root (user id 1) sees every enabled entry.
 */
export async function menuFor(db: Db | Queryable, scope: Scope, isRoot: boolean = scope.userId === ROOT_USER_ID): Promise<MenuNode[]> {
  const rows = await allResources(db);
  const operable = isRoot ? null : await operableResources(db, scope.userId);
  const parents = new Set(rows.map((r) => r.parent_id).filter((p): p is number => p !== null));
  return buildTree(rows, (r) => {
    if (!entryAllowed(r, scope, isRoot)) return false;
    if (operable && !parents.has(r.id) && !operable.has(r.id)) return false;
    return true;
  });
}

/** Every id of a tree, depth first. */
export const treeIds = (nodes: MenuNode[]): number[] => nodes.flatMap((n) => [n.id, ...treeIds(n.children)]);

/** Function codes outside the four verbs, carried by the entry that shows them. */
const EXTRA_FUNCS: Record<string, string[]> = {
  monitoringPoint: ['viewMonitorPointRealTime'],
  detailData: ['viewDetailData'],
};

/** Function codes an entry carries: the four verbs of its object plus its extra codes. */
export function entryFuncs(code: string, object: string | null): string[] {
  const own = object ? ['view', 'new', 'edit', 'remove'].map((v) => `${v}${object}`) : [];
  return [...own, ...(EXTRA_FUNCS[code] ?? [])];
}

/**
 * What the caller may delegate to a role: the functions it holds itself that its own level
 * reaches (root: every function). A role also cannot get functions above its own level; that
 * is checked when the role is saved (`reachableFuncs(level)`).
 */
export function delegableFuncs(scope: Scope, isRoot: boolean = scope.userId === ROOT_USER_ID): Set<string> {
  return new Set([...scope.funcs].filter((f) => isRoot || reachesLevel(funcLevel(f), scope.userType, false)));
}

/**
 * The role editor's tree (spec §6 "function codes per module in a permission tree"): the
 * caller's own menu (so only operable resources it holds itself) with, per entry, the function
 * codes of its object that the caller may delegate. Node ids are menu-resource ids, usable
 * as the role's operable resources. A code may sit on several entries (viewCarrier on every
 * carrier page); it is one code. Delegable codes no shown entry carries (alarm triggers, detection
 * tasks, downloads) come last under a node `{id: 0, code: 'other'}` — id 0 is not a menu resource.
 */
export async function permissionTree(db: Db | Queryable, scope: Scope, isRoot: boolean = scope.userId === ROOT_USER_ID): Promise<PermissionNode[]> {
  const menu = await menuFor(db, scope, isRoot);
  const rows = await allResources(db);
  const objectOf = new Map(rows.map((r) => [r.id, r.func_object]));
  const delegable = delegableFuncs(scope, isRoot);
  const conv = (nodes: MenuNode[]): PermissionNode[] =>
    nodes.map((n) => ({
      id: n.id,
      code: n.code,
      name: n.name,
      funcs: entryFuncs(n.code, objectOf.get(n.id) ?? null).filter((f) => delegable.has(f)),
      children: conv(n.children),
    }));
  const tree = conv(menu);
  const shown = new Set<string>();
  const collect = (nodes: PermissionNode[]) => nodes.forEach((n) => (n.funcs.forEach((f) => shown.add(f)), collect(n.children)));
  collect(tree);
  const carried = new Set(rows.flatMap((r) => entryFuncs(r.code, r.func_object)));
  const other = [...delegable].filter((f) => !shown.has(f) && !carried.has(f)).sort();
  if (other.length) tree.push({ id: 0, code: 'other', name: 'other', funcs: other, children: [] });
  return tree;
}
