import type { Kysely } from 'kysely';
import { Code, type BaseBody } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { msOf, paged } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';
import { conflict } from '../../platform/http/errors.js';
import { BUS_SORTABLE, busAdd, busLimit, busRemove, busSetStatus, busStatus, busUpdate, busWhere, type BusFilter, type BusWrite } from '../dm/busDevice.js';

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

export function page(q: Queryable, scope: Scope, f: BusFilter) {
  return paged(baseSelect(scoped(q, scope)).where((eb) => busWhere(eb, scope, f)), f, { sortable: BUS_SORTABLE, by: 't.id' });
}

export function detail(q: Queryable, scope: Scope, id: number) {
  return baseSelect(scoped(q, scope))
    .where('t.id', '=', id)
    .where((eb) => busLimit(eb, scope))
    .executeTakeFirst();
}

const write: BusWrite<'base', BaseBody> = {
  table: 'base',
  columns: (b) => ({ dev_no: b.devNo, name: b.name, type: b.type, gateway_id: b.gatewayId, carrier_id: b.carrierId, description: b.description, tz: b.tz }),
  taken: () => conflict(Code.CODE_EXISTS, 'errors.exists.number'),
};

export const add = (q: Queryable, scope: Scope, b: BaseBody) => busAdd(q, scope, write, b);

export const update = (q: Queryable, scope: Scope, b: BaseBody & { id: number }) => busUpdate(q, scope, write, b);

export const setStatus = (q: Queryable, scope: Scope, ids: number[], stopped: boolean) => busSetStatus(scoped(q, scope), scope, 'base', ids, stopped);

export const remove = (q: Queryable, scope: Scope, ids: number[]) => busRemove(scoped(q, scope), scope, 'base', ids);
