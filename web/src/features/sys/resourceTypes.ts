import type { ResourceTreeNode } from '@coldwatch/contract';

/**
 * A menu resource as the page's tree table shows it: the contract's node, but a leaf has no
 * `children` (antd draws an expander for any children array, an empty one too).
 */
export type ResourceNode = Omit<ResourceTreeNode, 'children'> & { children?: ResourceNode[] };

export const forTable = (nodes: ResourceTreeNode[]): ResourceNode[] =>
  nodes.map((n) => ({ ...n, children: n.children.length ? forTable(n.children) : undefined }));

/** Ids of a node and everything under it (a parent cannot be moved under its own subtree). */
export function subtreeIds(n: ResourceNode): number[] {
  return [n.id, ...(n.children ?? []).flatMap(subtreeIds)];
}
