import { Code, type ContactBody } from '@coldwatch/contract';
import type { Db, Queryable } from '../../platform/db/client.js';
import { scopeWhere, targetCustomer, type Scope } from '../../platform/auth/scope.js';
import { conflict } from '../../platform/http/errors.js';
import { likeParam, msCol, pageQuery, scopedIds, scopedRow } from '../dm/records.js';

const COLS = `k.id, k.name, k.gender, k.phone, k.email, k.alarm_level AS "alarmLevel", k.group_name AS "groupName",
  k.customer_id AS "customerId", cu.name AS "customerName",
  (SELECT count(*)::int FROM carrier_contact cc WHERE cc.contact_id = k.id) AS "carrierCount", ${msCol('k.created_at', 'createdAt')}`;
const FROM = 'contact k JOIN customer cu ON cu.id = k.customer_id';

export interface ContactFilter {
  iDisplayStart: number;
  iDisplayLength: number;
  name?: string;
  phone?: string;
  groupName?: string;
}

export function page(db: Db, scope: Scope, f: ContactFilter) {
  const params: unknown[] = [];
  const where = [scopeWhere(scope, 'k.customer_id', params)];
  if (f.name) where.push(`k.name ILIKE $${params.push(likeParam(f.name))}`);
  if (f.phone) where.push(`k.phone ILIKE $${params.push(likeParam(f.phone))}`);
  if (f.groupName !== undefined) where.push(`k.group_name = $${params.push(f.groupName)}`);
  return pageQuery(db, { select: COLS, from: FROM, where, orderBy: 'k.id' }, params, f);
}

export async function detail(db: Db, scope: Scope, id: number) {
  const params: unknown[] = [id];
  return db.one(`SELECT ${COLS} FROM ${FROM} WHERE k.id = $1 AND ${scopeWhere(scope, 'k.customer_id', params)}`, params);
}

/** One phone number once per group of a customer; an empty phone (e-mail only contact) is not a duplicate. */
async function checkPhone(q: Queryable, customerId: number, b: ContactBody, exceptId = 0) {
  if (!b.phone) return;
  const dup = await q.query('SELECT 1 FROM contact WHERE customer_id = $1 AND group_name = $2 AND phone = $3 AND id <> $4', [customerId, b.groupName, b.phone, exceptId]);
  // Spec §8 "422 mobile exists", reused for §5 "duplicate phones in a group are rejected".
  if (dup.length) throw conflict(Code.MOBILE_EXISTS, 'errors.exists.phone');
}

export async function add(q: Queryable, scope: Scope, b: ContactBody & { customerId?: number }) {
  const customerId = targetCustomer(scope, b.customerId);
  await checkPhone(q, customerId, b);
  const [row] = await q.query<{ id: number }>(
    `INSERT INTO contact(customer_id, name, gender, phone, email, alarm_level, group_name) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [customerId, b.name, b.gender, b.phone, b.email, b.alarmLevel, b.groupName],
  );
  return { id: row.id };
}

export async function update(q: Queryable, scope: Scope, b: ContactBody & { id: number }) {
  const cur = await scopedRow(q, scope, 'contact', b.id);
  await checkPhone(q, cur.customer_id, b, b.id);
  await q.query('UPDATE contact SET name = $2, gender = $3, phone = $4, email = $5, alarm_level = $6, group_name = $7 WHERE id = $1', [
    b.id,
    b.name,
    b.gender,
    b.phone,
    b.email,
    b.alarmLevel,
    b.groupName,
  ]);
  return { id: b.id };
}

/** Deleting a contact only takes it off its carriers' notice lists (carrier_contact cascades). */
export async function remove(q: Queryable, scope: Scope, ids: number[]) {
  await scopedIds(q, scope, 'contact', ids);
  await q.query('DELETE FROM contact WHERE id = ANY($1::int[])', [ids]);
  return { deleted: ids.length };
}
