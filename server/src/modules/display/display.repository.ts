import type { Kysely } from 'kysely';
import { Code, type DisplayBody } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { msOf, paged } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';
import { conflict, paramError } from '../../platform/http/errors.js';
import { transmitInterval } from '../param/param.repository.js';
import { BUS_SORTABLE, busAdd, busLimit, busRemove, busSetStatus, busStatus, busUpdate, busWhere, type BusFilter, type BusWrite } from '../dm/busDevice.js';

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

/** A name is looked for in the nickname too. */
export function page(q: Queryable, scope: Scope, f: BusFilter) {
  return paged(displaySelect(scoped(q, scope)).where((eb) => busWhere(eb, scope, f, ['t.name', 't.nickname'])), f, { sortable: BUS_SORTABLE, by: 't.id' });
}

export function detail(q: Queryable, scope: Scope, id: number) {
  return displaySelect(scoped(q, scope))
    .where('t.id', '=', id)
    .where((eb) => busLimit(eb, scope))
    .executeTakeFirst();
}

const write: BusWrite<'display', DisplayBody> = {
  table: 'display',
  columns: (b) => ({
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
  }),
  /** Spec §8 "display (terminal) already exists": the number is taken by a device on the platform. */
  taken: () => conflict(Code.CODE_EXISTS, 'errors.display.exists'),
  check: (b) => {
    // One sounding must be over before the next begins.
    if (b.alarmInterval < b.alarmDuration) throw paramError('errors.display.intervalBelowDuration', { alarmInterval: 'errors.display.intervalBelowDuration' });
  },
};

/** A display added without a heartbeat interval gets the platform's default (parameter display_interval_seconds). */
export const add = async (q: Queryable, scope: Scope, b: DisplayBody) => busAdd(q, scope, write, { ...b, heartbeatInterval: b.heartbeatInterval ?? (await transmitInterval(q, 'display')) });

export const update = (q: Queryable, scope: Scope, b: DisplayBody & { id: number }) => busUpdate(q, scope, write, b);

export const setStatus = (q: Queryable, scope: Scope, ids: number[], stopped: boolean) => busSetStatus(scoped(q, scope), scope, 'display', ids, stopped);

export const remove = (q: Queryable, scope: Scope, ids: number[]) => busRemove(scoped(q, scope), scope, 'display', ids);
