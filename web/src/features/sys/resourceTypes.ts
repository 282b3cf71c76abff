/** A node of GET /service/resource/tree (spec §3 menu resource). */
export interface ResourceNode {
  id: number;
  parentId: number | null;
  code: string;
  name: string;
  url: string;
  icon: string;
  hidden: boolean;
  enabled: boolean;
  visible: string;
  funcObject: string | null;
  extraCode: string;
  accessLevel: number;
  sort: number;
  builtin: boolean;
  funcCodes: string[];
  children?: ResourceNode[];
}

export function normaliseResource(r: any): ResourceNode {
  const kids = Array.isArray(r.children) ? r.children.map(normaliseResource) : [];
  return {
    id: Number(r.id),
    parentId: r.parentId === null || r.parentId === undefined ? null : Number(r.parentId),
    code: r.code ?? '',
    name: r.name ?? '',
    url: r.url ?? '',
    icon: r.icon ?? '',
    hidden: !!r.hidden,
    enabled: r.enabled !== false,
    visible: r.visible ?? 'all',
    funcObject: r.funcObject ?? null,
    extraCode: r.extraCode ?? '',
    accessLevel: Number(r.accessLevel ?? 0),
    sort: Number(r.sort ?? 0),
    builtin: !!r.builtin,
    funcCodes: Array.isArray(r.funcCodes) ? r.funcCodes : [],
    // antd's tree table shows an expander only for a non-empty children array.
    children: kids.length ? kids : undefined,
  };
}

/** Ids of a node and everything under it (a parent cannot be moved under its own subtree). */
export function subtreeIds(n: ResourceNode): number[] {
  return [n.id, ...(n.children ?? []).flatMap(subtreeIds)];
}
