import type { MenuNode } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { Scope } from '../../platform/auth/scope.js';
import { menuFor } from '../resource/menu.service.js';

/**
 * The entries a caller may pick shortcuts from: its visible menu (`menuFor`: visibility,
 * access level, view function, its roles' operable resources) without the hidden entries
 * (home is pinned anyway; hidden pages are reached from other pages, not from the menu).
 */
export async function visibleMenu(q: Queryable, scope: Scope): Promise<MenuNode[]> {
  const strip = (nodes: MenuNode[]): MenuNode[] =>
    nodes.flatMap((n) => {
      if (n.hidden) return [];
      const children = strip(n.children);
      if (n.children.length && !children.length) return [];
      return [{ ...n, children }];
    });
  return strip(await menuFor(q, scope));
}

/** The entries a shortcut may point at: the leaves of the visible menu that have a route. */
export function leaves(tree: MenuNode[]): MenuNode[] {
  return tree.flatMap((n) => (n.children.length ? leaves(n.children) : n.url ? [n] : []));
}
