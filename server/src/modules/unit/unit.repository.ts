import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { Code, type RangeBody, type UnitBody, type UnitValueType } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { system } from '../../platform/db/kysely.js';
import { scoped } from '../../platform/db/scoped.js';
import { contains, countOf, msOf, paged, type PageInput } from '../../platform/db/query.js';
import { targetCustomer, type Scope } from '../../platform/auth/scope.js';
import { AppError, conflict, notFound, paramError } from '../../platform/http/errors.js';
import { idsInScope, inUse, mapUnique, rowInScope } from '../shared/records.js';

/** Units of measure (a platform catalogue) and the customers' monitoring ranges in them. */

function unitSelect(k: Kysely<DB>) {
  return k.selectFrom('probe_unit as u').select((eb) => [
    'u.id',
    'u.unit',
    'u.mark',
    'u.number',
    sql<UnitValueType>`u.value_type`.as('valueType'),
    'u.description',
    countOf(eb.selectFrom('probe_range as pr').whereRef('pr.unit_id', '=', 'u.id')).as('rangeCount'),
    msOf('u.created_at').as('createdAt'),
  ]);
}

/** The catalogue for every user; rangeCount counts the caller's own ranges only. */
export const listUnits = (q: Queryable, scope: Scope) => unitSelect(scoped(q, scope)).orderBy('u.id').execute();

/** Only platform users hold the unit functions (menu probeunit, level 2): their scope sees every customer's ranges. */

export function pageUnits(q: Queryable, scope: Scope, f: PageInput & { unit?: string; valueType?: UnitValueType }) {
  const query = unitSelect(scoped(q, scope)).where((eb) => {
    const and: Expression<SqlBool>[] = [];
    if (f.unit) and.push(eb.or([eb('u.unit', 'ilike', contains(f.unit)), eb('u.mark', 'ilike', contains(f.unit)), eb('u.number', 'ilike', contains(f.unit))]));
    if (f.valueType) and.push(eb('u.value_type', '=', f.valueType));
    return eb.and(and);
  });
  return paged(query, f, { sortable: { unit: 'u.unit', number: 'u.number', createdAt: 'u.created_at' }, by: 'u.id' });
}

/** §5 "unit, mark, number unique": checked first for a clean message, the unique indexes decide. */
async function checkUnit(k: Kysely<DB>, b: UnitBody, exceptId = 0) {
  for (const [col, key] of [['unit', 'unit'], ['mark', 'mark'], ['number', 'unitNumber']] as const) {
    const dup = await k
      .selectFrom('probe_unit')
      .select('id')
      .where(sql`lower(${sql.ref(col)})`, '=', b[col].toLowerCase())
      .where('id', '<>', exceptId)
      .executeTakeFirst();
    // The field is named too, so the form puts the message under it.
    if (dup) throw new AppError(col === 'number' ? Code.CODE_EXISTS : Code.NAME_EXISTS, `errors.exists.${key}`, 200, { [col]: `errors.exists.${key}` });
  }
}

const unitUnique = {
  probe_unit_unit_key: conflict(Code.NAME_EXISTS, 'errors.exists.unit'),
  probe_unit_mark_key: conflict(Code.NAME_EXISTS, 'errors.exists.mark'),
  probe_unit_number_key: conflict(Code.CODE_EXISTS, 'errors.exists.unitNumber'),
};
const unitColumns = (b: UnitBody) => ({ unit: b.unit, mark: b.mark, number: b.number, value_type: b.valueType, description: b.description });

export async function addUnit(q: Queryable, b: UnitBody) {
  const k = system(q);
  await checkUnit(k, b);
  const row = await mapUnique(() => k.insertInto('probe_unit').values(unitColumns(b)).returning('id').executeTakeFirstOrThrow(), unitUnique);
  return { id: row.id };
}

export async function updateUnit(q: Queryable, b: UnitBody & { id: number }) {
  const k = system(q);
  const cur = await k.selectFrom('probe_unit').select('id').where('id', '=', b.id).forUpdate().executeTakeFirst();
  if (!cur) throw notFound();
  await checkUnit(k, b, b.id);
  await mapUnique(() => k.updateTable('probe_unit').set(unitColumns(b)).where('id', '=', b.id).execute(), unitUnique);
  return { id: b.id };
}

/** A unit some customer's range uses cannot be deleted (spec §8 "module in use"); nothing is deleted then. */
export async function removeUnits(q: Queryable, scope: Scope, ids: number[]) {
  const k = scoped(q, scope);
  const rows = await k.selectFrom('probe_unit').select('id').where('id', 'in', ids).forUpdate().execute();
  if (rows.length !== new Set(ids).size) throw notFound();
  const used = await k.selectFrom('probe_range').select('unit_id').where('unit_id', 'in', ids).executeTakeFirst();
  if (used) throw inUse('unit');
  try {
    const r = await system(q).deleteFrom('probe_unit').where('id', 'in', ids).executeTakeFirst();
    return { deleted: Number(r.numDeletedRows) };
  } catch (err) {
    // A range the caller's scope does not show still holds the unit (the foreign key says so).
    if ((err as { code?: string })?.code === '23503') throw inUse('unit');
    throw err;
  }
}

// ---- monitoring ranges, per customer -----------------------------------------------------

function rangeSelect(k: Kysely<DB>) {
  return k
    .selectFrom('probe_range as t')
    .innerJoin('probe_unit as u', 'u.id', 't.unit_id')
    .innerJoin('customer as cu', 'cu.id', 't.customer_id')
    .select([
      't.id',
      't.unit_id as unitId',
      'u.unit',
      'u.mark',
      'u.number',
      't.min_value as min',
      't.max_value as max',
      't.customer_id as customerId',
      'cu.name as customerName',
      msOf('t.created_at').as('createdAt'),
    ]);
}

export function listRanges(q: Queryable, scope: Scope, f: { key?: string; customerId?: number }) {
  let query = rangeSelect(scoped(q, scope));
  if (f.key) query = query.where(sql`lower(u.number)`, '=', f.key.toLowerCase());
  if (f.customerId) query = query.where('t.customer_id', '=', f.customerId);
  return query.orderBy('t.customer_id').orderBy('u.id').execute();
}

export function pageRanges(q: Queryable, scope: Scope, f: PageInput & { unitId?: number; customerId?: number }) {
  const query = rangeSelect(scoped(q, scope)).where((eb) => {
    const and: Expression<SqlBool>[] = [];
    if (f.unitId) and.push(eb('t.unit_id', '=', f.unitId));
    if (f.customerId) and.push(eb('t.customer_id', '=', f.customerId));
    return eb.and(and);
  });
  return paged(query, f, { sortable: { unit: 'u.unit', createdAt: 't.created_at' }, by: 't.id' });
}

export const rangeDetail = (q: Queryable, scope: Scope, id: number) => rangeSelect(scoped(q, scope)).where('t.id', '=', id).executeTakeFirst();

const rangeUnique = { probe_range_unit_key: conflict(Code.FAILED, 'errors.exists.range') };

/** §5 "one range per unit of measure", per customer. */
async function checkRange(k: Kysely<DB>, customerId: number, b: RangeBody, exceptId = 0) {
  const unit = await k.selectFrom('probe_unit').select('id').where('id', '=', b.unitId).executeTakeFirst();
  if (!unit) throw paramError('errors.unitUnknown', { unitId: 'errors.unitUnknown' });
  const dup = await k.selectFrom('probe_range').select('id').where('customer_id', '=', customerId).where('unit_id', '=', b.unitId).where('id', '<>', exceptId).executeTakeFirst();
  if (dup) throw new AppError(Code.FAILED, 'errors.exists.range', 200, { unitId: 'errors.exists.range' });
}

export async function addRange(q: Queryable, scope: Scope, b: RangeBody & { customerId?: number }) {
  const k = scoped(q, scope);
  const customerId = targetCustomer(scope, b.customerId);
  await checkRange(k, customerId, b);
  const row = await mapUnique(
    () => k.insertInto('probe_range').values({ customer_id: customerId, unit_id: b.unitId, min_value: b.min, max_value: b.max }).returning('id').executeTakeFirstOrThrow(),
    rangeUnique,
  );
  return { id: row.id };
}

export async function updateRange(q: Queryable, scope: Scope, b: RangeBody & { id: number }) {
  const k = scoped(q, scope);
  const cur = await rowInScope(k, scope, 'probe_range', b.id);
  await checkRange(k, cur.customer_id, b, b.id);
  await mapUnique(
    () => k.updateTable('probe_range').set({ unit_id: b.unitId, min_value: b.min, max_value: b.max }).where('id', '=', b.id).where('customer_id', '=', cur.customer_id).execute(),
    rangeUnique,
  );
  return { id: b.id };
}

export async function removeRanges(q: Queryable, scope: Scope, ids: number[]) {
  const k = scoped(q, scope);
  await idsInScope(k, scope, 'probe_range', ids);
  const r = await k.deleteFrom('probe_range').where('id', 'in', ids).executeTakeFirst();
  return { deleted: Number(r.numDeletedRows) };
}
