/**
 * The role editor's permission tree (spec §6): menu entries (operable resources) with the
 * function codes of their object (view/new/edit/remove) under them, as one checkable tree.
 * Pure conversion between what GET /service/role/permissionTree and a role hold
 * (resourceIds + funcs) and the tree's checked leaf keys.
 */
import type { PermissionNode } from '@coldwatch/contract';

const VERBS = ['view', 'new', 'edit', 'remove'] as const;

/** A menu entry of the permission tree (the contract's roleApi.permissionTree). */
export type PermNode = PermissionNode;

/** A node of the antd tree. */
export interface PermTreeNode {
  key: string;
  title: string;
  /** 'menu' = a menu entry (resource), 'func' = a function code under it. */
  kind: 'menu' | 'func';
  resourceId: number;
  func?: string;
  children?: PermTreeNode[];
}

/** Normalises one entry of the server's answer (names differ between versions: funcs as codes or objects, or only funcObject). */
export const menuKey = (id: number) => `m:${id}`;
export const funcKey = (id: number, func: string) => `f:${id}:${func}`;

/** The verb of a function code ('view' | 'new' | 'edit' | 'remove'), or undefined for others (viewMonitorPointRealTime is 'view'). */
export function funcVerb(func: string): (typeof VERBS)[number] | undefined {
  return VERBS.find((v) => func.startsWith(v) && func.length > v.length && /[A-Z]/.test(func[v.length]));
}

/** Builds the antd tree; `funcTitle(code)` names a function leaf, `menuTitle(node)` an entry. */
export function buildPermTree(nodes: PermNode[], menuTitle: (n: PermNode) => string, funcTitle: (code: string, entry: PermNode) => string): PermTreeNode[] {
  return nodes.map((n) => {
    const funcLeaves: PermTreeNode[] = n.funcs.map((c) => ({ key: funcKey(n.id, c), title: funcTitle(c, n), kind: 'func', resourceId: n.id, func: c }));
    const kids = [...buildPermTree(n.children, menuTitle, funcTitle), ...funcLeaves];
    return { key: menuKey(n.id), title: menuTitle(n), kind: 'menu', resourceId: n.id, children: kids.length ? kids : undefined };
  });
}

function walk(nodes: PermTreeNode[], fn: (n: PermTreeNode) => void) {
  for (const n of nodes) {
    fn(n);
    if (n.children) walk(n.children, fn);
  }
}

/** Every key of the tree (for "expand all" / "select all"). */
export function allKeys(tree: PermTreeNode[]): string[] {
  const out: string[] = [];
  walk(tree, (n) => out.push(n.key));
  return out;
}

/**
 * The checked leaf keys for a role: a function leaf is checked when its entry is one of the
 * role's resources and the role holds the code; a menu entry without children is checked when
 * it is one of the resources. Parents follow from their leaves (antd's conduction).
 */
export function toCheckedKeys(tree: PermTreeNode[], resourceIds: readonly number[], funcs: readonly string[]): string[] {
  const res = new Set(resourceIds.map(Number));
  res.add(0); // the 'other functions' node holds codes no entry carries
  const fs = new Set(funcs);
  const out: string[] = [];
  walk(tree, (n) => {
    if (n.children?.length) return;
    if (n.kind === 'func' ? res.has(n.resourceId) && fs.has(n.func!) : res.has(n.resourceId)) out.push(n.key);
  });
  return out;
}

/**
 * What a role holds for a set of checked keys: every menu entry (a node without sub-entries)
 * that is checked or has a checked function, and the codes of the checked function leaves.
 * Sections (entries with sub-entries) are not operable resources by themselves — the menu
 * shows a section when one of its entries is shown, and a section may sit above the role's
 * level — so a section is kept only when the role already had it (`keepSections`) and one of
 * its entries is still granted.
 */
export function fromCheckedKeys(tree: PermTreeNode[], checked: readonly string[], keepSections: readonly number[] = []): { resourceIds: number[]; funcs: string[] } {
  const set = new Set(checked);
  const keep = new Set(keepSections.map(Number));
  const resourceIds = new Set<number>();
  const funcs = new Set<string>();
  const visit = (n: PermTreeNode, parentChecked: boolean): boolean => {
    const on = parentChecked || set.has(n.key);
    if (n.kind === 'func') {
      if (on) funcs.add(n.func!);
      return on;
    }
    const isSection = (n.children ?? []).some((c) => c.kind === 'menu');
    let any = on && !n.children?.length;
    for (const c of n.children ?? []) if (visit(c, on)) any = true;
    if (any && (!isSection || keep.has(n.resourceId))) resourceIds.add(n.resourceId);
    return any;
  };
  tree.forEach((n) => visit(n, false));
  resourceIds.delete(0); // the 'other functions' node (id 0) is no menu resource
  return { resourceIds: [...resourceIds].sort((a, b) => a - b), funcs: [...funcs].sort() };
}
