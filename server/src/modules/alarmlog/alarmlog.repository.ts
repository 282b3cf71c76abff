import type { Expression, SqlBool } from 'kysely';
import type { Queryable } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import { contains, inTimeRange, msOf, msOrNull, paged, type PageInput } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';

export interface AlarmLogFilter extends PageInput {
  carrierId?: number;
  carrierName?: string;
  operator?: string;
  alarmOn?: boolean;
  customerId?: number;
  startTime?: number;
  endTime?: number;
}

/**
 * The alarm-switch log, newest first. A scene-limited user sees the rows of the carriers in
 * its limit; rows of a deleted carrier stay with the customer's unlimited users.
 */
export function page(q: Queryable, scope: Scope, f: AlarmLogFilter) {
  const k = scoped(q, scope);
  const query = k
    .selectFrom('alarm_switch_log as l')
    .innerJoin('customer as cu', 'cu.id', 'l.customer_id')
    .leftJoin('carrier as c', 'c.id', 'l.carrier_id')
    .leftJoin('scene as s', 's.id', 'c.scene_id')
    .select([
      'l.id',
      msOf('l.created_at').as('time'),
      'l.carrier_id as carrierId',
      'l.carrier_name as carrierName',
      'c.type as carrierType',
      's.label as sceneLabel',
      'l.alarm_on as alarmOn',
      'l.reason',
      msOrNull('l.paused_until').as('pausedUntil'),
      'l.operator',
      'l.customer_id as customerId',
      'cu.name as customerName',
    ])
    .where((eb) => {
      const and: Expression<SqlBool>[] = [];
      // By the log's carrier as it is now (a log whose carrier is gone: unlimited callers only).
      and.push(sceneLimit(eb, scope, 'carrier', 'c'));
      if (f.customerId) and.push(eb('l.customer_id', '=', f.customerId));
      if (f.carrierId) and.push(eb('l.carrier_id', '=', f.carrierId));
      if (f.carrierName) and.push(eb('l.carrier_name', 'ilike', contains(f.carrierName)));
      if (f.operator) and.push(eb('l.operator', 'ilike', contains(f.operator)));
      if (f.alarmOn !== undefined) and.push(eb('l.alarm_on', '=', f.alarmOn));
      and.push(...inTimeRange(eb, 'l.created_at', f));
      return eb.and(and);
    });
  return paged(query, f, { by: ['l.created_at desc', 'l.id desc'], windowedCountOn: k });
}
