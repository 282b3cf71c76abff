import type { Kysely } from 'kysely';
import { Code, type BaseBody } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { contains, msOf, paged, type PageInput } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';
import { conflict, notFound } from '../../platform/http/errors.js';
import { gatewayAndCarrier, mapUnique } from '../dm/records.js';
import { deviceNumberTaken } from '../dm/deviceNumber.js';
import { busLimit, busRemove, busSetStatus, busStatus, busStatusIs } from '../dm/busDevice.js';
import { checkOffered } from '../type/type.repository.js';

/** Smart bases (docs/devices.md "Smart bases"): enrolment on a gateway at a monitoring point. */

function baseSelect(k: Kysely<DB>) {
  return k
    .selectFrom('base as t')
    .innerJoin('gateway as g', 'g.id', 't.gateway_id')
    .innerJoin('customer as cu', 'cu.id', 't.customer_id')
    .leftJoin('carrier as c', 'c.id', 't.carrier_id')
    .select([
      't.id',
      't.dev_no as devNo',
      't.name',
      't.type',
      't.gateway_id as gatewayId',
      'g.sn as gatewaySn',
      'g.name as gatewayName',
      't.carrier_id as carrierId',
      'c.name as carrierName',
      't.description',
      busStatus().as('status'),
      't.tz',
      't.customer_id as customerId',
      'cu.name as customerName',
      msOf('t.created_at').as('createdAt'),
    ]);
}

export function page(q: Queryable, scope: Scope, f: PageInput & { devNo?: string; name?: string; type?: string; status?: number; carrierId?: number }) {
  const query = baseSelect(scoped(q, scope)).where((eb) => {
    const and = [busLimit(eb, scope)];
    if (f.devNo) and.push(eb('t.dev_no', 'ilike', contains(f.devNo)));
    if (f.name) and.push(eb('t.name', 'ilike', contains(f.name)));
    if (f.type) and.push(eb('t.type', '=', f.type));
    if (f.status !== undefined) and.push(busStatusIs(eb, f.status));
    if (f.carrierId) and.push(eb('t.carrier_id', '=', f.carrierId));
    return eb.and(and);
  });
  return paged(query, f, { sortable: { devNo: 't.dev_no', name: 't.name', createdAt: 't.created_at' }, by: 't.id' });
}

export function detail(q: Queryable, scope: Scope, id: number) {
  return baseSelect(scoped(q, scope))
    .where('t.id', '=', id)
    .where((eb) => busLimit(eb, scope))
    .executeTakeFirst();
}

const numberExists = () => conflict(Code.CODE_EXISTS, 'errors.exists.number');
const columns = (b: BaseBody) => ({ dev_no: b.devNo, name: b.name, type: b.type, gateway_id: b.gatewayId, carrier_id: b.carrierId, description: b.description, tz: b.tz });

export async function add(q: Queryable, scope: Scope, b: BaseBody) {
  const k = scoped(q, scope);
  const customerId = await gatewayAndCarrier(k, scope, b);
  await checkOffered(q, { other: { kind: 'base', code: b.type } });
  if (await deviceNumberTaken(q, b.devNo)) throw numberExists();
  const row = await mapUnique(() => k.insertInto('base').values({ customer_id: customerId, ...columns(b) }).returning('id').executeTakeFirstOrThrow(), { base_dev_no: numberExists() });
  return { id: row.id };
}

export async function update(q: Queryable, scope: Scope, b: BaseBody & { id: number }) {
  const k = scoped(q, scope);
  const cur = await k.selectFrom('base as t').select(['t.id', 't.customer_id', 't.type']).where('t.id', '=', b.id).where((eb) => busLimit(eb, scope)).forUpdate().executeTakeFirst();
  if (!cur) throw notFound();
  await gatewayAndCarrier(k, scope, b, cur.customer_id);
  await checkOffered(q, { other: { kind: 'base', code: b.type } }, cur.type);
  if (await deviceNumberTaken(q, b.devNo, { table: 'base', id: b.id })) throw numberExists();
  await mapUnique(() => k.updateTable('base').set(columns(b)).where('id', '=', b.id).execute(), { base_dev_no: numberExists() });
  return { id: b.id };
}

export const setStatus = (q: Queryable, scope: Scope, ids: number[], stopped: boolean) => busSetStatus(scoped(q, scope), scope, 'base', ids, stopped);

export const remove = (q: Queryable, scope: Scope, ids: number[]) => busRemove(scoped(q, scope), scope, 'base', ids);
