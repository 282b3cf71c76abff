import { sql, type Kysely } from 'kysely';
import { Code, type RelayBody } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { msOf, msOrNull, paged } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';
import { conflict, notFound } from '../../platform/http/errors.js';
import { transmitInterval } from '../param/param.repository.js';
import { BUS_SORTABLE, busAdd, busLimit, busStatus, busUpdate, busWhere, type BusFilter, type BusWrite } from '../dm/busDevice.js';

/** Relays of spec §3 (docs/devices.md "Relays"): enrolment on a gateway, binding to a carrier. */

export function relaySelect(k: Kysely<DB>) {
  return k
    .selectFrom('relay as t')
    .innerJoin('gateway as g', 'g.id', 't.gateway_id')
    .innerJoin('customer as cu', 'cu.id', 't.customer_id')
    .leftJoin('carrier as c', 'c.id', 't.carrier_id')
    .leftJoin('relay_switch as s', (j) => j.onRef('s.relay_id', '=', 't.id').on('s.ended_at', 'is', null))
    .select((eb) => [
      't.id',
      't.dev_no as devNo',
      't.name',
      't.type',
      't.mac',
      't.report_interval as reportInterval',
      't.gateway_id as gatewayId',
      'g.sn as gatewaySn',
      'g.name as gatewayName',
      't.carrier_id as carrierId',
      'c.name as carrierName',
      busStatus().as('status'),
      't.output',
      msOrNull('t.output_at').as('outputAt'),
      eb.exists(eb.selectFrom('device_command as d').select('d.id').whereRef('d.relay_id', '=', 't.id').where('d.status', 'in', ['prepare', 'issuing'])).$castTo<boolean>().as('pending'),
      sql<{ id: number; mode: 'intelligent' | 'manual' | 'direct'; turnOn: boolean; startedAt: number; endsAt: number | null; conditionReached: boolean | null } | null>`CASE WHEN s.id IS NULL THEN NULL ELSE json_build_object(
        'id', s.id, 'mode', s.mode, 'turnOn', s.turn_on, 'startedAt', (extract(epoch from s.started_at) * 1000)::bigint,
        'endsAt', CASE WHEN s.cancel_after_s IS NULL THEN NULL ELSE (extract(epoch from s.started_at + make_interval(secs => s.cancel_after_s)) * 1000)::bigint END,
        'conditionReached', s.condition_reached) END`.as('switch'),
      't.tz',
      't.customer_id as customerId',
      'cu.name as customerName',
      msOf('t.created_at').as('createdAt'),
    ]);
}

export function page(q: Queryable, scope: Scope, f: BusFilter) {
  return paged(relaySelect(scoped(q, scope)).where((eb) => busWhere(eb, scope, f)), f, { sortable: BUS_SORTABLE, by: 't.id' });
}

export function detail(q: Queryable, scope: Scope, id: number) {
  return relaySelect(scoped(q, scope))
    .where('t.id', '=', id)
    .where((eb) => busLimit(eb, scope))
    .executeTakeFirst();
}

const write: BusWrite<'relay', RelayBody> = {
  table: 'relay',
  columns: (b) => ({ dev_no: b.devNo, name: b.name, type: b.type, mac: b.mac, report_interval: b.reportInterval, gateway_id: b.gatewayId, carrier_id: b.carrierId, tz: b.tz }),
  taken: () => conflict(Code.CODE_EXISTS, 'errors.exists.number'),
};

/** A relay added without a report interval gets the platform's default (parameter relay_interval_seconds). */
export const add = async (q: Queryable, scope: Scope, b: RelayBody) => busAdd(q, scope, write, { ...b, reportInterval: b.reportInterval ?? (await transmitInterval(q, 'relay')) });

export const update = (q: Queryable, scope: Scope, b: RelayBody & { id: number }) => busUpdate(q, scope, write, b);

/** Every id a relay of the caller's scope and limit, locked for the change; else 404. */
export async function relaysInScope(k: Kysely<DB>, scope: Scope, ids: number[]) {
  const unique = [...new Set(ids)];
  const rows = await k
    .selectFrom('relay as t')
    .innerJoin('gateway as g', 'g.id', 't.gateway_id')
    .select(['t.id', 't.customer_id', 't.dev_no', 't.gateway_id', 't.carrier_id', 't.status', 't.output', 'g.sn'])
    .where('t.id', 'in', unique)
    .where((eb) => busLimit(eb, scope))
    .forUpdate('t')
    .execute();
  if (rows.length !== unique.length) throw notFound();
  return rows;
}

export async function remove(q: Queryable, scope: Scope, ids: number[]) {
  const k = scoped(q, scope);
  await relaysInScope(k, scope, ids);
  const gone = await k.deleteFrom('relay').where('id', 'in', ids).returning('id').execute();
  return { deleted: gone.length };
}
