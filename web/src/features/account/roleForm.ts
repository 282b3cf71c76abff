/** The role dialog's form: its values, how a role fills them, and the body they send (spec §3 Role). */
import type { RoleType } from '@coldwatch/contract';
import { fromCheckedKeys, type PermTreeNode } from './permissionTree';
import type { RoleDetail, RoleRow } from './roleTypes';

export interface RoleValues {
  customerId?: number;
  name: string;
  type: RoleType;
  level: number;
  status: 0 | 1;
  delegable: boolean;
  proxyCustomerIds: number[];
  description?: string;
  sceneIds: number[];
  /** The permission tree's checked keys (menus and functions). */
  perms: string[];
}

/** The fields the server's field errors may name. */
export const ROLE_FIELDS = ['customerId', 'name', 'type', 'level', 'status', 'delegable', 'proxyCustomerIds', 'description', 'sceneIds', 'resourceIds', 'funcs'];

/** The server's resources and functions are the form's permission tree. */
export const toPerms = (x: { name: string; errors: string[] }) => (x.name === 'resourceIds' || x.name === 'funcs' ? { ...x, name: 'perms' } : x);

/** A new normal role of the caller's customer, enabled, not delegable, nothing chosen. */
export const newRoleValues = (customerId: number | undefined): Partial<RoleValues> => ({ customerId, type: 'normal', status: 1, delegable: false, proxyCustomerIds: [], sceneIds: [], perms: [] });

/** A role's row as the form shows it until its detail brings proxies, scenes and permissions. */
export const roleValues = (r: RoleRow): Partial<RoleValues> => ({
  customerId: r.customerId, name: r.name, type: r.type, level: r.level, status: r.status === 0 ? 0 : 1, delegable: r.delegable, description: r.description, proxyCustomerIds: [], sceneIds: [], perms: [],
});

/** The add/update body (without id and type): checked keys back to resources and functions, proxy customers only at level -1. */
export function roleBody(v: RoleValues, tree: PermTreeNode[], detail: RoleDetail | null, isNew: boolean) {
  const { resourceIds, funcs } = fromCheckedKeys(tree, v.perms ?? [], detail?.resourceIds ?? []);
  return {
    name: v.name.trim(),
    status: v.status,
    level: v.level,
    customerId: isNew ? v.customerId : undefined,
    proxyCustomerIds: v.level === -1 ? (v.proxyCustomerIds ?? []) : [],
    resourceIds,
    funcs,
    sceneIds: v.sceneIds ?? [],
    delegable: !!v.delegable,
    isDefault: detail?.isDefault ?? false,
    description: (v.description ?? '').trim(),
  };
}
