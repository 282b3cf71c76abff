import { toMs } from '../databoard/monitorState';
import { toIds } from '../sys/formRules';

/** A role as GET /service/role/page and /detail answer it (spec §3 Role). */
export interface RoleRow {
  id: number;
  customerId: number;
  customerName: string;
  name: string;
  status: number;
  type: string;
  level: number;
  isDefault: boolean;
  delegable: boolean;
  description: string;
  userCount: number;
  createdAt: number | null;
  funcs?: string[];
  resourceIds?: number[];
  proxyCustomerIds?: number[];
  sceneIds?: number[];
}

export function normaliseRole(r: any): RoleRow {
  return {
    id: Number(r.id),
    customerId: Number(r.customerId),
    customerName: r.customerName ?? '',
    name: r.name ?? '',
    status: Number(r.status ?? 1),
    type: r.type ?? 'normal',
    level: Number(r.level ?? 0),
    isDefault: !!r.isDefault,
    delegable: !!r.delegable,
    description: r.description ?? '',
    userCount: Number(r.userCount ?? 0),
    createdAt: toMs(r.createdAt),
    funcs: Array.isArray(r.funcs) ? r.funcs.map(String) : undefined,
    resourceIds: r.resourceIds ? toIds(r.resourceIds) : undefined,
    proxyCustomerIds: r.proxyCustomerIds ? toIds(r.proxyCustomerIds) : undefined,
    sceneIds: r.sceneIds ? toIds(r.sceneIds) : undefined,
  };
}

export const LEVEL_COLOR: Record<number, string> = { [-1]: 'magenta', 0: 'default', 1: 'blue', 2: 'cyan', 3: 'purple' };
