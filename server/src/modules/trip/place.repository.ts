import type { Kysely } from 'kysely';
import { Code, PLACE_RADIUS_M, type PlaceAddBody, type PlaceUpdateBody } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { contains, paged, type PageInput } from '../../platform/db/query.js';
import { targetCustomer, type Scope } from '../../platform/auth/scope.js';
import { conflict, notFound } from '../../platform/http/errors.js';
import { mapUnique } from '../shared/records.js';

/*
 * A customer's places (migration 0053; docs/transport.md "Places"): the circles whose leaving
 * starts a trip and whose reaching ends one (server/src/ingest/positions.ts judgeTrip). A tenant
 * record like any other, read and changed through the caller's scope. Trips keep the names they
 * were given, so a place can be renamed or deleted at any time.
 */

const select = (k: Kysely<DB>) =>
  k
    .selectFrom('place as p')
    .innerJoin('customer as cu', 'cu.id', 'p.customer_id')
    .select(['p.id', 'p.customer_id as customerId', 'cu.name as customerName', 'p.name', 'p.lat', 'p.lng', 'p.radius_m as radiusM']);

export interface PlaceFilter extends PageInput {
  name?: string;
  customerId?: number;
}

export function page(q: Queryable, scope: Scope, f: PlaceFilter) {
  const query = select(scoped(q, scope)).where((eb) =>
    eb.and([...(f.name ? [eb('p.name', 'ilike', contains(f.name))] : []), ...(f.customerId ? [eb('p.customer_id', '=', f.customerId)] : [])]),
  );
  return paged(query, f, { by: ['p.customer_id', 'p.name', 'p.id'] });
}

/** Spec §8 418 "name exists", within the customer's places. */
const nameExists = () => conflict(Code.NAME_EXISTS, 'errors.place.nameExists');
const columns = (b: Omit<PlaceAddBody, 'customerId'>, scope: Scope) => ({
  name: b.name,
  lat: b.lat,
  lng: b.lng,
  radius_m: b.radiusM ?? PLACE_RADIUS_M.default,
  updated_by: (scope.name || scope.account).slice(0, 50),
});

export async function add(q: Queryable, scope: Scope, b: PlaceAddBody) {
  const customerId = targetCustomer(scope, b.customerId);
  const row = await mapUnique(
    () => scoped(q, scope).insertInto('place').values({ customer_id: customerId, ...columns(b, scope) }).returning('id').executeTakeFirstOrThrow(),
    { place_customer_name: nameExists() },
  );
  return { id: row.id };
}

export async function update(q: Queryable, scope: Scope, b: PlaceUpdateBody) {
  const k = scoped(q, scope);
  const r = await mapUnique(() => k.updateTable('place').set(columns(b, scope)).where('id', '=', b.id).executeTakeFirst(), { place_customer_name: nameExists() });
  if (!Number(r.numUpdatedRows)) throw notFound();
  return { id: b.id };
}

/** All or none: one foreign or unknown id is a 404. */
export async function remove(q: Queryable, scope: Scope, ids: number[]) {
  const k = scoped(q, scope);
  const found = await k.selectFrom('place').select('id').where('id', 'in', ids).forUpdate().execute();
  if (found.length !== new Set(ids).size) throw notFound();
  const r = await k.deleteFrom('place').where('id', 'in', ids).executeTakeFirst();
  return { deleted: Number(r.numDeletedRows) };
}
