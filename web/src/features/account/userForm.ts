/** The user dialog's form: its values, how a user fills them, and the body they send (spec §3 User). */
import type { UserRow } from './userTypes';

export interface UserValues {
  customerId?: number;
  account: string;
  name: string;
  gender: 0 | 1;
  status: 0 | 1;
  roleIds: number[];
  mobile: string;
  email?: string;
  remarks?: string;
  sceneIds: number[];
  proxyCustomerId?: number | null;
  password?: string;
}

/** The fields the server's field errors may name. */
export const USER_FIELDS = ['customerId', 'account', 'name', 'gender', 'status', 'roleIds', 'mobile', 'email', 'remarks', 'sceneIds', 'proxyCustomerId', 'password'];

/** A new user of the caller's customer: male, enabled, no roles, the whole customer. */
export const newUserValues = (customerId: number | undefined): Partial<UserValues> => ({ customerId, gender: 1, status: 1, roleIds: [], sceneIds: [] });

/** An existing user as the form shows it. */
export const userValues = (u: UserRow): Partial<UserValues> => ({
  customerId: u.customerId,
  account: u.account,
  name: u.name,
  gender: u.gender === 0 ? 0 : 1,
  status: u.status === 0 ? 0 : 1,
  roleIds: u.roles.map((r) => r.id),
  mobile: u.mobile ?? '',
  email: u.email ?? '',
  remarks: u.remarks,
  sceneIds: u.sceneIds,
  proxyCustomerId: u.proxyCustomerId,
});

/** The add/update body (without id and password): the proxy customer only with a proxy role, the customer only from a platform user. */
export const userBody = (v: UserValues, { proxyRole, platform }: { proxyRole: boolean; platform: boolean }) => ({
  account: v.account.trim(),
  name: v.name.trim(),
  gender: v.gender,
  status: v.status,
  roleIds: v.roleIds,
  mobile: v.mobile.trim(),
  email: (v.email ?? '').trim(),
  remarks: (v.remarks ?? '').trim(),
  sceneIds: v.sceneIds ?? [],
  proxyCustomerId: proxyRole ? (v.proxyCustomerId ?? null) : null,
  customerId: platform ? (v.customerId ?? null) : undefined,
});
