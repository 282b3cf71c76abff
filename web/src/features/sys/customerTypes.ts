import { toMs } from '../databoard/monitorState';

export { ORG_TYPES, CUSTOMER_STATUS } from '@coldwatch/contract';
/** The contract's customer types in the dialog's order: the everyday choice first. */
export const CUSTOMER_TYPES = ['customer', 'platform'] as const;

/** A row of GET /service/customer/page (and detail). */
export interface CustomerRow {
  id: number;
  name: string;
  shortName: string;
  code: string;
  status: number;
  type: string;
  orgType: string;
  area: string;
  areaCode: string;
  address: string;
  contact: string;
  phone: string;
  email: string;
  notifyEmail: boolean;
  notifySms: boolean;
  description: string;
  adminAccount: string | null;
  userCount: number | null;
  createdAt: number | null;
}

/** Server rows may carry snake_case names, numeric strings and ISO times. */
export function normaliseCustomer(r: any): CustomerRow {
  return {
    id: Number(r.id),
    name: r.name ?? '',
    shortName: r.shortName ?? r.short_name ?? '',
    code: r.code ?? r.customerCode ?? r.customer_code ?? '',
    status: Number(r.status ?? 1),
    type: r.type ?? 'customer',
    orgType: r.orgType ?? r.org_type ?? '09',
    area: r.area ?? '',
    areaCode: r.areaCode ?? r.area_code ?? '',
    address: r.address ?? '',
    contact: r.contact ?? '',
    phone: r.phone ?? '',
    email: r.email ?? '',
    notifyEmail: !!(r.notifyEmail ?? r.notify_email),
    notifySms: !!(r.notifySms ?? r.notify_sms),
    description: r.description ?? '',
    adminAccount: r.adminAccount ?? null,
    userCount: r.userCount === undefined || r.userCount === null ? null : Number(r.userCount),
    createdAt: toMs(r.createdAt ?? r.created_at) ?? null,
  };
}
