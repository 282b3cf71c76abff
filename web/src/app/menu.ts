import { MENU, reachesLevel, USER_TYPE, type MenuEntry } from '@coldwatch/contract';
import type { MenuNode } from './auth';

/**
 * The left menu of spec §2 built from the server's menu (pageInfo.menu: sections → entries),
 * cut to the routes this web build implements: an entry whose url has no page is left out
 * (rather than leading to a dead page), and a section without any implemented entry too.
 * Hidden entries (home, detail pages) are never listed.
 */
export interface SideEntry {
  /** Menu key: the url of an entry, `section:<code>` of a section. */
  key: string;
  code: string;
  name: string;
  url: string;
  icon?: string;
  children?: SideEntry[];
}

export function sideMenuModel(menu: readonly MenuNode[], implemented: ReadonlySet<string>): SideEntry[] {
  const walk = (nodes: readonly MenuNode[]): SideEntry[] =>
    nodes.flatMap((n): SideEntry[] => {
      if (n.hidden) return [];
      if (n.children?.length) {
        const children = walk(n.children);
        return children.length ? [{ key: `section:${n.code}`, code: n.code, name: n.name, url: n.url, icon: n.icon, children }] : [];
      }
      return implemented.has(n.url) ? [{ key: n.url, code: n.code, name: n.name, url: n.url, icon: n.icon }] : [];
    });
  return walk(menu);
}

/** Every code of a menu tree (hidden entries included). */
export function menuCodes(menu: readonly MenuNode[]): Set<string> {
  const out = new Set<string>();
  const walk = (nodes: readonly MenuNode[]) =>
    nodes.forEach((n) => {
      out.add(n.code);
      if (n.children) walk(n.children);
    });
  walk(menu);
  return out;
}

/** The section key and entry of a path in the model (to open its section and select it). */
export function findEntry(model: readonly SideEntry[], path: string): { section?: string; entry?: SideEntry } {
  for (const e of model) {
    if (e.children) {
      const hit = e.children.find((c) => c.url === path);
      if (hit) return { section: e.key, entry: hit };
    } else if (e.url === path) return { entry: e };
  }
  return {};
}

/**
 * A menu from the contract's menu tree for a server that does not send one yet: an entry
 * shows when the user type reaches its level and visibility and holds its view code.
 */
export function contractMenu(ctx: { can: (...c: string[]) => boolean; userType: number; isRoot: boolean }): MenuNode[] {
  let id = 0;
  const visible = (e: MenuEntry) => {
    if (ctx.isRoot) return true;
    if (e.code === 'resource') return false;
    if (e.visible === 'admin' && ![USER_TYPE.customerAdmin, USER_TYPE.platformAdmin].includes(ctx.userType as 1 | 3)) return false;
    if (e.visible === 'system' && ctx.userType < USER_TYPE.platformUser) return false;
    if (!reachesLevel(e.level ?? 0, ctx.userType, false)) return false;
    return !e.object || ctx.can(`view${e.object}`);
  };
  const walk = (entries: readonly MenuEntry[]): MenuNode[] =>
    entries.flatMap((e): MenuNode[] => {
      if (!visible(e)) return [];
      const children = e.children ? walk(e.children) : undefined;
      if (e.children && !children?.length) return [];
      return [{ id: ++id, code: e.code, name: e.code, url: e.url, icon: e.icon ?? '', hidden: !!e.hidden, children: children ?? [] }];
    });
  return walk(MENU);
}

/** Leaves of a (pick) tree that have an implemented route, in tree order. */
export function implementedLeaves<T extends { url: string; children?: T[] }>(nodes: readonly T[], implemented: ReadonlySet<string>): T[] {
  return nodes.flatMap((n) => (n.children?.length ? implementedLeaves(n.children, implemented) : implemented.has(n.url) ? [n] : []));
}

/** A pick tree cut to implemented leaves (sections without one dropped). */
export function pruneTree<T extends { url: string; hidden?: boolean; children?: T[] }>(nodes: readonly T[], implemented: ReadonlySet<string>): T[] {
  return nodes.flatMap((n): T[] => {
    if (n.hidden) return [];
    if (n.children?.length) {
      const children = pruneTree(n.children, implemented);
      return children.length ? [{ ...n, children }] : [];
    }
    return implemented.has(n.url) ? [{ ...n, children: undefined }] : [];
  });
}

/** Moves `from` to the position of `to` (drag and drop reorder). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return list.slice();
  const next = list.slice();
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

/**
 * Spec §2 user menu: edit profile, edit password, system wizard and device enrollment (for those
 * who may add devices), switch proxy customer (account type -1 only), login QR code, language,
 * home settings (/homepageset), logout.
 */
export function userMenuKeys(userType: number | undefined, canSetUp = false): string[] {
  return ['profile', 'password', ...(canSetUp ? ['wizard', 'enroll'] : []), ...(userType === USER_TYPE.proxy ? ['proxy'] : []), 'loginQr', 'language', 'homeSettings', 'logout'];
}
