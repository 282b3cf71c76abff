import { sql, type Kysely } from 'kysely';
import { Code, type RelayBody } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { deviceNumberTaken } from '../dm/deviceNumber.js';
import { checkOffered } from '../type/type.repository.js';
import { contains, msOf, msOrNull, paged, type PageInput } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';
import { conflict, notFound } from '../../platform/http/errors.js';
import { gatewayAndCarrier, mapUnique } from '../dm/records.js';
import { busLimit, busStatus, busStatusIs } from '../dm/busDevice.js';

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

export interface RelayFilter extends PageInput {
  devNo?: string;
  name?: string;
  status?: number;
  carrierId?: number;
  gatewayId?: number;
}

export function page(q: Queryable, scope: Scope, f: RelayFilter) {
  const query = relaySelect(scoped(q, scope)).where((eb) => {
    const and = [busLimit(eb, scope)];
    if (f.devNo) and.push(eb('t.dev_no', 'ilike', contains(f.devNo)));
    if (f.name) and.push(eb('t.name', 'ilike', contains(f.name)));
    if (f.status !== undefined) and.push(busStatusIs(eb, f.status));
    if (f.carrierId) and.push(eb('t.carrier_id', '=', f.carrierId));
    if (f.gatewayId) and.push(eb('t.gateway_id', '=', f.gatewayId));
    return eb.and(and);
  });
  return paged(query, f, { sortable: { devNo: 't.dev_no', name: 't.name', createdAt: 't.created_at' }, by: 't.id' });
}

export function detail(q: Queryable, scope: Scope, id: number) {
  return relaySelect(scoped(q, scope))
    .where('t.id', '=', id)
    .where((eb) => busLimit(eb, scope))
    .executeTakeFirst();
}

/** Device numbers are unique on the whole platform (device protocol), relays and sensors alike. */
const numberExists = () => conflict(Code.CODE_EXISTS, 'errors.exists.number');


async function checkNumber(q: Queryable, devNo: string, exceptId = 0) {
  if (await deviceNumberTaken(q, devNo, { table: 'relay', id: exceptId })) throw numberExists();
}

const columns = (b: RelayBody) => ({ dev_no: b.devNo, name: b.name, type: b.type, mac: b.mac, report_interval: b.reportInterval, gateway_id: b.gatewayId, carrier_id: b.carrierId, tz: b.tz });

export async function add(q: Queryable, scope: Scope, b: RelayBody) {
  const k = scoped(q, scope);
  const customerId = await gatewayAndCarrier(k, scope, b);
  await checkOffered(q, { other: { kind: 'relay', code: b.type } });
  await checkNumber(q, b.devNo);
  const row = await mapUnique(() => k.insertInto('relay').values({ customer_id: customerId, ...columns(b) }).returning('id').executeTakeFirstOrThrow(), { relay_dev_no: numberExists() });
  return { id: row.id };
}

export async function update(q: Queryable, scope: Scope, b: RelayBody & { id: number }) {
  const k = scoped(q, scope);
  const cur = await k.selectFrom('relay as t').select(['t.id', 't.customer_id']).where('t.id', '=', b.id).where((eb) => busLimit(eb, scope)).forUpdate().executeTakeFirst();
  if (!cur) throw notFound();
  await gatewayAndCarrier(k, scope, b, cur.customer_id);
  await checkNumber(q, b.devNo, b.id);
  await mapUnique(() => k.updateTable('relay').set(columns(b)).where('id', '=', b.id).execute(), { relay_dev_no: numberExists() });
  return { id: b.id };
}

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
