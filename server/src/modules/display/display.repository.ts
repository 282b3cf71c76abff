import type { Kysely } from 'kysely';
import { Code, type DisplayBody } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { contains, msOf, paged, type PageInput } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';
import { conflict, notFound, paramError } from '../../platform/http/errors.js';
import { gatewayAndCarrier, mapUnique } from '../dm/records.js';
import { deviceNumberTaken } from '../dm/deviceNumber.js';
import { busLimit, busRemove, busSetStatus, busStatus, busStatusIs } from '../dm/busDevice.js';
import { checkOffered } from '../type/type.repository.js';

/** Display screens of spec §3 (docs/devices.md "Displays"): enrolment on a gateway, the point they show, their alarm settings. */

function displaySelect(k: Kysely<DB>) {
  return k
    .selectFrom('display as t')
    .innerJoin('gateway as g', 'g.id', 't.gateway_id')
    .innerJoin('customer as cu', 'cu.id', 't.customer_id')
    .leftJoin('carrier as c', 'c.id', 't.carrier_id')
    .select([
      't.id',
      't.dev_no as devNo',
      't.name',
      't.nickname',
      't.type',
      't.gateway_id as gatewayId',
      'g.sn as gatewaySn',
      'g.name as gatewayName',
      't.carrier_id as carrierId',
      'c.name as carrierName',
      't.alarm_on as alarmOn',
      't.alarm_duration_s as alarmDuration',
      't.alarm_interval_s as alarmInterval',
      't.heartbeat_interval_s as heartbeatInterval',
      busStatus().as('status'),
      't.tz',
      't.customer_id as customerId',
      'cu.name as customerName',
      msOf('t.created_at').as('createdAt'),
    ]);
}

export interface DisplayFilter extends PageInput {
  devNo?: string;
  name?: string;
  status?: number;
  carrierId?: number;
}

export function page(q: Queryable, scope: Scope, f: DisplayFilter) {
  const query = displaySelect(scoped(q, scope)).where((eb) => {
    const and = [busLimit(eb, scope)];
    if (f.devNo) and.push(eb('t.dev_no', 'ilike', contains(f.devNo)));
    if (f.name) and.push(eb.or([eb('t.name', 'ilike', contains(f.name)), eb('t.nickname', 'ilike', contains(f.name))]));
    if (f.status !== undefined) and.push(busStatusIs(eb, f.status));
    if (f.carrierId) and.push(eb('t.carrier_id', '=', f.carrierId));
    return eb.and(and);
  });
  return paged(query, f, { sortable: { devNo: 't.dev_no', name: 't.name', createdAt: 't.created_at' }, by: 't.id' });
}

export function detail(q: Queryable, scope: Scope, id: number) {
  return displaySelect(scoped(q, scope))
    .where('t.id', '=', id)
    .where((eb) => busLimit(eb, scope))
    .executeTakeFirst();
}

/** Spec §8 "display (terminal) already exists": the number is taken by a device on the platform. */
const exists = () => conflict(Code.CODE_EXISTS, 'errors.display.exists');

async function check(q: Queryable, b: DisplayBody, exceptId = 0) {
  // One sounding must be over before the next begins.
  if (b.alarmInterval < b.alarmDuration) throw paramError('errors.display.intervalBelowDuration', { alarmInterval: 'errors.display.intervalBelowDuration' });
  if (await deviceNumberTaken(q, b.devNo, { table: 'display', id: exceptId })) throw exists();
  if (!exceptId) await checkOffered(q, { other: { kind: 'display', code: b.type } });
}

const columns = (b: DisplayBody) => ({
  dev_no: b.devNo,
  name: b.name,
  nickname: b.nickname,
  type: b.type,
  gateway_id: b.gatewayId,
  carrier_id: b.carrierId,
  alarm_on: b.alarmOn,
  alarm_duration_s: b.alarmDuration,
  alarm_interval_s: b.alarmInterval,
  heartbeat_interval_s: b.heartbeatInterval,
  tz: b.tz,
});

export async function add(q: Queryable, scope: Scope, b: DisplayBody) {
  const k = scoped(q, scope);
  const customerId = await gatewayAndCarrier(k, scope, b);
  await check(q, b);
  const row = await mapUnique(() => k.insertInto('display').values({ customer_id: customerId, ...columns(b) }).returning('id').executeTakeFirstOrThrow(), { display_dev_no: exists() });
  return { id: row.id };
}

export async function update(q: Queryable, scope: Scope, b: DisplayBody & { id: number }) {
  const k = scoped(q, scope);
  const cur = await k.selectFrom('display as t').select(['t.id', 't.customer_id']).where('t.id', '=', b.id).where((eb) => busLimit(eb, scope)).forUpdate().executeTakeFirst();
  if (!cur) throw notFound();
  await gatewayAndCarrier(k, scope, b, cur.customer_id);
  await check(q, b, b.id);
  await mapUnique(() => k.updateTable('display').set(columns(b)).where('id', '=', b.id).execute(), { display_dev_no: exists() });
  return { id: b.id };
}

export const setStatus = (q: Queryable, scope: Scope, ids: number[], stopped: boolean) => busSetStatus(scoped(q, scope), scope, 'display', ids, stopped);

export const remove = (q: Queryable, scope: Scope, ids: number[]) => busRemove(scoped(q, scope), scope, 'display', ids);
