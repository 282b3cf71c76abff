import { toMs } from '../databoard/monitorState';
import { toIds } from '../sys/formRules';

/** A user as GET /service/user/page and /detail answer it (spec §3 User). */
export interface UserRow {
  id: number;
  account: string;
  name: string;
  gender: number;
  status: number;
  userType: number;
  isAdmin: boolean;
  mobile: string;
  email: string;
  remarks: string;
  customerId: number;
  customerName: string;
  defaultAccount: boolean;
  proxyCustomerId: number | null;
  proxyCustomerName: string | null;
  roles: { id: number; name: string; type: string; level: number }[];
  sceneIds: number[];
  createdAt: number | null;
}

export function normaliseUser(r: any): UserRow {
  return {
    id: Number(r.id),
    account: r.account ?? '',
    name: r.name ?? '',
    gender: Number(r.gender ?? 1),
    status: Number(r.status ?? 1),
    userType: Number(r.userType ?? 0),
    isAdmin: !!r.isAdmin,
    mobile: r.mobile ?? '',
    email: r.email ?? '',
    remarks: r.remarks ?? '',
    customerId: Number(r.customerId),
    customerName: r.customerName ?? '',
    defaultAccount: !!r.defaultAccount,
    proxyCustomerId: r.proxyCustomerId === null || r.proxyCustomerId === undefined ? null : Number(r.proxyCustomerId),
    proxyCustomerName: r.proxyCustomerName ?? null,
    roles: Array.isArray(r.roles) ? r.roles.map((x: any) => ({ id: Number(x.id), name: x.name, type: x.type, level: Number(x.level) })) : [],
    sceneIds: toIds(r.sceneIds),
    createdAt: toMs(r.createdAt),
  };
}
