import type { Expression, Kysely, SqlBool } from 'kysely';
import { Code, type ContactBody, type ContactLocale } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { contains, countOf, msOf, paged, type PageInput } from '../../platform/db/query.js';
import { targetCustomer, type Scope } from '../../platform/auth/scope.js';
import { conflict } from '../../platform/http/errors.js';
import { idsInScope, rowInScope } from '../shared/records.js';

function contactSelect(k: Kysely<DB>) {
  return k
    .selectFrom('contact as t')
    .innerJoin('customer as cu', 'cu.id', 't.customer_id')
    .select((eb) => [
      't.id',
      't.name',
      't.gender',
      't.phone',
      't.email',
      't.alarm_level as alarmLevel',
      't.group_name as groupName',
      't.locale',
      't.customer_id as customerId',
      'cu.name as customerName',
      countOf(eb.selectFrom('carrier_contact as cc').whereRef('cc.contact_id', '=', 't.id')).as('carrierCount'),
      msOf('t.created_at').as('createdAt'),
    ]);
}

export interface ContactFilter extends PageInput {
  name?: string;
  phone?: string;
  groupName?: string;
}

const SORTABLE = { name: 't.name', groupName: 't.group_name', alarmLevel: 't.alarm_level', createdAt: 't.created_at' };

export function page(q: Queryable, scope: Scope, f: ContactFilter) {
  const query = contactSelect(scoped(q, scope)).where((eb) => {
    const and: Expression<SqlBool>[] = [];
    if (f.name) and.push(eb('t.name', 'ilike', contains(f.name)));
    if (f.phone) and.push(eb('t.phone', 'ilike', contains(f.phone)));
    if (f.groupName !== undefined) and.push(eb('t.group_name', '=', f.groupName));
    return eb.and(and);
  });
  return paged(query, f, { sortable: SORTABLE, by: 't.id' });
}

export function detail(q: Queryable, scope: Scope, id: number) {
  return contactSelect(scoped(q, scope)).where('t.id', '=', id).executeTakeFirst();
}

/** One phone number once per group of a customer; an empty phone (e-mail only contact) is not a duplicate. */
async function checkPhone(k: Kysely<DB>, customerId: number, b: ContactBody, exceptId = 0) {
  if (!b.phone) return;
  const dup = await k
    .selectFrom('contact')
    .select('id')
    .where('customer_id', '=', customerId)
    .where('group_name', '=', b.groupName)
    .where('phone', '=', b.phone)
    .where('id', '<>', exceptId)
    .executeTakeFirst();
  // Spec §8 "422 mobile exists", reused for §5 "duplicate phones in a group are rejected".
  if (dup) throw conflict(Code.MOBILE_EXISTS, 'errors.exists.phone');
}

const columns = (b: ContactBody & Partial<ContactLocale>) => ({ name: b.name, gender: b.gender, phone: b.phone, email: b.email, alarm_level: b.alarmLevel, group_name: b.groupName, locale: b.locale ?? null });

export async function add(q: Queryable, scope: Scope, b: ContactBody & Partial<ContactLocale> & { customerId?: number }) {
  const k = scoped(q, scope);
  const customerId = targetCustomer(scope, b.customerId);
  await checkPhone(k, customerId, b);
  const row = await k.insertInto('contact').values({ customer_id: customerId, ...columns(b) }).returning('id').executeTakeFirstOrThrow();
  return { id: row.id };
}

export async function update(q: Queryable, scope: Scope, b: ContactBody & Partial<ContactLocale> & { id: number }) {
  const k = scoped(q, scope);
  const cur = await rowInScope(k, scope, 'contact', b.id);
  await checkPhone(k, cur.customer_id, b, b.id);
  await k.updateTable('contact').set(columns(b)).where('id', '=', b.id).where('customer_id', '=', cur.customer_id).execute();
  return { id: b.id };
}

/** Deleting a contact only takes it off its carriers' notice lists (carrier_contact cascades). */
export async function remove(q: Queryable, scope: Scope, ids: number[]) {
  const k = scoped(q, scope);
  await idsInScope(k, scope, 'contact', ids);
  const r = await k.deleteFrom('contact').where('id', 'in', ids).executeTakeFirst();
  return { deleted: Number(r.numDeletedRows) };
}
