import type { Db } from '../../platform/db/client.js';

export interface UserRow {
  id: number;
  customer_id: number;
  account: string;
  name: string;
  password_hash: string;
  status: number;
  user_type: number;
  is_admin: boolean;
  guide_on: boolean;
  locale: string | null;
  mobile: string | null;
  email: string | null;
  customer_status: number;
  customer_name: string;
  customer_code: string;
  time_zone: string;
}

const SELECT = `SELECT u.*, c.status AS customer_status, c.name AS customer_name, c.code AS customer_code, c.time_zone
                  FROM app_user u JOIN customer c ON c.id = u.customer_id`;

export const findByAccount = (db: Db, account: string) => db.one<UserRow>(`${SELECT} WHERE u.account = $1`, [account]);
export const findById = (db: Db, id: number) => db.one<UserRow>(`${SELECT} WHERE u.id = $1`, [id]);

/** The user as the web sees it: never the hash. */
export const publicUser = (u: UserRow) => ({
  id: u.id,
  account: u.account,
  name: u.name,
  customerId: u.customer_id,
  customerName: u.customer_name,
  customerCode: u.customer_code,
  timeZone: u.time_zone,
  userType: u.user_type,
  isAdmin: u.is_admin,
  guideOn: u.guide_on,
  locale: u.locale,
  mobile: u.mobile,
  email: u.email,
});
