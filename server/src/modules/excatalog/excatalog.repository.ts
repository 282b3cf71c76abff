import type { Expression, Kysely, SqlBool } from 'kysely';
import { Code, type ExReasonAddBody, type ExReasonUpdateBody } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { contains, countOf, msOf, paged, type PageInput } from '../../platform/db/query.js';
import { canSee, targetCustomer, type Scope } from '../../platform/auth/scope.js';
import { AppError, conflict, notFound } from '../../platform/http/errors.js';
import { mapUnique } from '../shared/records.js';

/*
 * The exception reasons of each customer (table ex_catalog, migration 0035; spec §2
 * /abnormal/abnormalcause). A customer's own list: read and changed through the caller's
 * scope like any tenant record. A reason that an exception or a signed step names cannot be
 * deleted (the step must keep pointing at what was chosen): it is disabled instead, and a
 * disabled reason is no longer offered to a new handling.
 */

function reasonSelect(k: Kysely<DB>) {
  return k
    .selectFrom('ex_catalog as r')
    .innerJoin('customer as cu', 'cu.id', 'r.customer_id')
    .select((eb) => [
      'r.id',
      'r.customer_id as customerId',
      'cu.name as customerName',
      'r.code',
      'r.name_zh as nameZh',
      'r.name_en as nameEn',
      'r.sort',
      'r.enabled',
      'r.builtin',
      // How many exceptions and signed steps name the reason.
      eb(
        countOf(eb.selectFrom('exception_record as e').whereRef('e.reason_id', '=', 'r.id')),
        '+',
        countOf(eb.selectFrom('exception_handling as h').whereRef('h.reason_id', '=', 'r.id')),
      ).as('inUse'),
      msOf('r.created_at').as('createdAt'),
    ]);
}

export interface ReasonFilter extends PageInput {
  name?: string;
  enabled?: boolean;
  customerId?: number;
}

/** A customer's reasons in their order (by customer for platform users, who see every customer's). */
export function page(q: Queryable, scope: Scope, f: ReasonFilter) {
  const query = reasonSelect(scoped(q, scope)).where((eb) => {
    const and: Expression<SqlBool>[] = [];
    if (f.name) and.push(eb.or([eb('r.name_zh', 'ilike', contains(f.name)), eb('r.name_en', 'ilike', contains(f.name)), eb('r.code', 'ilike', contains(f.name))]));
    if (f.enabled !== undefined) and.push(eb('r.enabled', '=', f.enabled));
    if (f.customerId) and.push(eb('r.customer_id', '=', f.customerId));
    return eb.and(and);
  });
  return paged(query, f, { by: ['r.customer_id', 'r.sort', 'r.id'] });
}

export function detail(q: Queryable, scope: Scope, id: number) {
  return reasonSelect(scoped(q, scope)).where('r.id', '=', id).executeTakeFirst();
}

/** The enabled reasons of one customer of the scope (the caller's current one by default): a handling's choices. */
export function options(q: Queryable, scope: Scope, customerId?: number) {
  const cid = customerId ?? scope.customerId;
  if (!canSee(scope, cid)) throw notFound();
  return scoped(q, scope)
    .selectFrom('ex_catalog')
    .select(['id', 'code', 'name_zh as nameZh', 'name_en as nameEn'])
    .where('customer_id', '=', cid)
    .where('enabled', '=', true)
    .orderBy('sort')
    .orderBy('id')
    .execute();
}

const columns = (b: Omit<ExReasonAddBody, 'customerId'>) => ({
  code: b.code,
  name_zh: b.nameZh ?? '',
  name_en: b.nameEn ?? '',
  sort: b.sort ?? 0,
  enabled: b.enabled ?? true,
});

/** Spec §8 "420 code exists", within the customer's list. */
const codeExists = () => conflict(Code.CODE_EXISTS, 'errors.exReason.codeExists');

export async function add(q: Queryable, scope: Scope, b: ExReasonAddBody) {
  const customerId = targetCustomer(scope, b.customerId);
  const row = await mapUnique(
    () => scoped(q, scope).insertInto('ex_catalog').values({ customer_id: customerId, ...columns(b) }).returning('id').executeTakeFirstOrThrow(),
    { ex_catalog_customer_id_code: codeExists() },
  );
  return { id: row.id };
}

export async function update(q: Queryable, scope: Scope, b: ExReasonUpdateBody) {
  const k = scoped(q, scope);
  const cur = await k.selectFrom('ex_catalog').select(['id']).where('id', '=', b.id).executeTakeFirst();
  if (!cur) throw notFound();
  await mapUnique(() => k.updateTable('ex_catalog').set(columns(b)).where('id', '=', b.id).execute(), { ex_catalog_customer_id_code: codeExists() });
  return { id: b.id };
}

/** All or none: one foreign or unknown id is a 404, one reason in use refuses the whole call (disable it instead). */
export async function remove(q: Queryable, scope: Scope, ids: number[]) {
  const k = scoped(q, scope);
  const rows = await reasonSelect(k).where('r.id', 'in', ids).forUpdate('r').execute();
  if (rows.length !== new Set(ids).size) throw notFound();
  const used = rows.find((r) => r.inUse > 0);
  if (used) throw new AppError(Code.FAILED, 'errors.exReason.inUse', 200, undefined, { code: used.code, count: used.inUse });
  const r = await k.deleteFrom('ex_catalog').where('id', 'in', ids).executeTakeFirst();
  return { deleted: Number(r.numDeletedRows) };
}
