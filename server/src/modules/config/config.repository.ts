import { randomBytes } from 'node:crypto';
import { sql, type Expression, type SqlBool } from 'kysely';
import { collectProblem, type ConfigBody, type ConfigState } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import { contains, msOf, msOrNull, paged, type PageInput } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';
import { notFound, paramError } from '../../platform/http/errors.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';

/** Commands still waiting for their gateway's answer. */
const OPEN = ['prepare', 'issuing'];

export interface IssuedCommand {
  id: number;
  sn: string;
  payload: { cmdId: string; dev: string; params: Record<string, unknown> };
}

/**
 * One configuration command per sensor (spec §3, §5): all of one type and one customer, none
 * still configuring, the parameters valid for that type. Written as `prepare`; the route
 * publishes them after the commit (issuing), the gateway's ack ends them, the timeout job fails
 * the rest.
 */
export async function issue(q: Queryable, scope: Scope, b: ConfigBody): Promise<IssuedCommand[]> {
  const k = scoped(q, scope);
  const ids = [...new Set(b.ids)];
  const sensors = await k
    .selectFrom('sensor as x')
    .innerJoin('gateway as g', 'g.id', 'x.gateway_id')
    .select(['x.id', 'x.dev_no', 'x.type', 'x.customer_id', 'x.gateway_id', 'g.sn'])
    .where('x.id', 'in', ids)
    .where((eb) => sceneLimit(eb, scope, 'sensor', 'x'))
    .execute();
  if (sensors.length !== ids.length) throw notFound();
  if (new Set(sensors.map((s) => s.type)).size > 1) throw paramError('errors.config.mixedTypes', { ids: 'errors.config.mixedTypes' });
  if (new Set(sensors.map((s) => s.customer_id)).size > 1) throw paramError('errors.config.mixedCustomers', { ids: 'errors.config.mixedCustomers' });
  const params = (b.kind === 'collect' ? b.collect : b.network) ?? {};
  if (b.kind === 'collect') {
    const problem = collectProblem(sensors[0].type, b.collect ?? {});
    if (problem) throw paramError(problem.error, { [`collect.${problem.field}`]: problem.error });
  }
  const busy = await k.selectFrom('device_command').select('id').where('sensor_id', 'in', ids).where('status', 'in', OPEN).executeTakeFirst();
  if (busy) throw paramError('errors.config.busy', { ids: 'errors.config.busy' });
  const rows = sensors.map((s) => {
    const cmdId = `c-${randomBytes(6).toString('hex')}`;
    return {
      customer_id: s.customer_id,
      gateway_id: s.gateway_id,
      sensor_id: s.id,
      cmd_id: cmdId,
      kind: 'config',
      order_type: b.kind,
      dev_no: s.dev_no,
      payload: JSON.stringify({ cmdId, dev: s.dev_no, params }),
      operator: scope.name || scope.account,
    };
  });
  const inserted = await k.insertInto('device_command').values(rows).returning(['id', 'gateway_id', 'payload']).execute();
  const sn = new Map(sensors.map((s) => [s.gateway_id, s.sn]));
  return inserted.map((r) => ({ id: Number(r.id), sn: sn.get(r.gateway_id)!, payload: (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as IssuedCommand['payload'] }));
}

/** Published to the gateway: prepare → issuing (an ack that came first has already ended it). */
export function configLog(q: Queryable, scope: Scope, f: PageInput & { devNo?: string; sensorId?: number; status?: ConfigState }) {
  const query = scoped(q, scope)
    .selectFrom('device_command as d')
    .innerJoin('gateway as g', 'g.id', 'd.gateway_id')
    .innerJoin('customer as cu', 'cu.id', 'd.customer_id')
    .leftJoin('sensor as x', 'x.id', 'd.sensor_id')
    .leftJoin('carrier as c', 'c.id', 'x.carrier_id')
    .leftJoin('scene as sc', 'sc.id', 'c.scene_id')
    .select([
      sql<number>`d.id::int`.as('id'),
      'sc.label as sceneName',
      'd.dev_no as devNo',
      'x.type as deviceType',
      'g.sn as gatewaySn',
      'd.order_type as orderType',
      sql<Record<string, unknown>>`coalesce(d.payload->'params', d.payload)`.as('content'),
      sql<ConfigState>`d.status`.as('status'),
      'd.detail',
      'd.operator',
      'cu.name as customerName',
      msOf('d.created_at').as('createdAt'),
      msOrNull('d.issued_at').as('issuedAt'),
      msOrNull('d.finished_at').as('finishedAt'),
    ])
    .where((eb) => {
      const and: Expression<SqlBool>[] = [sceneLimit(eb, scope, 'gateway', 'g')];
      if (f.devNo) and.push(eb('d.dev_no', 'ilike', contains(f.devNo)));
      if (f.sensorId) and.push(eb('d.sensor_id', '=', f.sensorId));
      if (f.status) and.push(eb('d.status', '=', f.status));
      return eb.and(and);
    });
  return paged(query, f, { sortable: { createdAt: 'd.created_at' }, by: ['d.created_at desc', 'd.id desc'] });
}

/** A command of a device still configuring cannot be deleted (spec §4); the others go. */
export async function remove(q: Queryable, scope: Scope, ids: number[]) {
  const k = scoped(q, scope);
  const found = await k
    .selectFrom('device_command as d')
    .innerJoin('gateway as g', 'g.id', 'd.gateway_id')
    .select(['d.id', 'd.status'])
    .where('d.id', 'in', ids)
    .where((eb) => sceneLimit(eb, scope, 'gateway', 'g'))
    .forUpdate()
    .execute();
  if (found.length !== new Set(ids).size) throw notFound();
  const open = found.find((r) => OPEN.includes(r.status));
  if (open) throw paramError('errors.config.deleteBusy', { ids: 'errors.config.deleteBusy' });
  const r = await k.deleteFrom('device_command').where('id', 'in', ids).executeTakeFirst();
  return { deleted: Number(r.numDeletedRows) };
}
