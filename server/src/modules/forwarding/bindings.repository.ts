import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { Code, type ForwardBindRow } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import { msOf, paged, type AnyExpressionBuilder, type PageInput, type Paged } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';
import { AppError, conflict, notFound } from '../../platform/http/errors.js';
import { mapUnique, rowInScope } from '../shared/records.js';

/*
 * Forward settings (spec §3 "Forward setting"; a carrier's forwarding setting, a sensor's
 * forwarding gateway): a carrier (every sensor on it, in order of time) or one sensor, sent to a
 * server directly or as a platform's. A setting starts at the moment it is made: its cursor
 * (forward_binding.cursor_ts) is now, so binding a carrier does not replay its history. The
 * carrier or sensor must be within a scene-limited caller's limit, for reading and writing alike.
 */

export interface BindInput {
  serverId?: number;
  platformId?: number;
  carrierId?: number;
  sensorId?: number;
  exceptions: boolean;
  enabled: boolean;
}

/** A setting is within the caller's limit when its carrier, or its sensor, is. */
const withinLimit = (scope: Scope) => (eb: AnyExpressionBuilder) =>
  eb.or([eb.and([eb('c.id', 'is not', null), sceneLimit(eb, scope, 'carrier', 'c')]), eb.and([eb('s.id', 'is not', null), sceneLimit(eb, scope, 'sensor', 's')])]);

function listBase(k: Kysely<DB>) {
  return k
    .selectFrom('forward_binding as b')
    .innerJoin('forward_server as f', 'f.id', 'b.server_id')
    .leftJoin('forward_platform as p', 'p.id', 'b.platform_id')
    .leftJoin('carrier as c', 'c.id', 'b.carrier_id')
    .leftJoin('sensor as s', 's.id', 'b.sensor_id');
}

export async function pageBindings(q: Queryable, scope: Scope, f: PageInput & { serverId?: number; carrierId?: number }): Promise<Paged<ForwardBindRow>> {
  const query = listBase(scoped(q, scope))
    .select([
      'b.id',
      'b.customer_id as customerId',
      'b.server_id as serverId',
      'f.name as serverName',
      'b.platform_id as platformId',
      'p.name as platformName',
      'b.carrier_id as carrierId',
      'c.name as carrierName',
      'b.sensor_id as sensorId',
      's.dev_no as devNo',
      'b.exceptions',
      'b.enabled',
      sql<number>`${msOf('b.cursor_ts')}::float8`.as('cursorTs'),
      sql<number>`${msOf('b.created_at')}::float8`.as('createdAt'),
    ])
    .where(withinLimit(scope))
    .where((eb) => {
      const and: Expression<SqlBool>[] = [];
      if (f.serverId) and.push(eb('b.server_id', '=', f.serverId));
      if (f.carrierId) and.push(eb('b.carrier_id', '=', f.carrierId));
      return eb.and(and);
    });
  return paged(query, f, { by: ['b.id'] });
}

/** The server (and platform) a setting points at, as the caller's. */
async function targetOf(k: Kysely<DB>, b: BindInput): Promise<{ serverId: number; platformId: number | null; customerId: number }> {
  if (b.platformId) {
    const p = await k.selectFrom('forward_platform').select(['server_id', 'customer_id']).where('id', '=', b.platformId).executeTakeFirst();
    if (!p) throw notFound();
    return { serverId: p.server_id, platformId: b.platformId, customerId: p.customer_id };
  }
  const s = await k.selectFrom('forward_server').select(['id', 'customer_id']).where('id', '=', b.serverId!).executeTakeFirst();
  if (!s) throw notFound();
  return { serverId: s.id, platformId: null, customerId: s.customer_id };
}

export async function addBinding(q: Queryable, scope: Scope, b: BindInput): Promise<{ id: number }> {
  const k = scoped(q, scope);
  const target = await targetOf(k, b);
  const subject = b.carrierId ? await rowInScope(k, scope, 'carrier', b.carrierId) : await rowInScope(k, scope, 'sensor', b.sensorId!);
  if (subject.customer_id !== target.customerId) throw new AppError(Code.FAILED, 'errors.forwarding.otherCustomer');
  const row = await mapUnique(
    () =>
      k
        .insertInto('forward_binding')
        .values({
          customer_id: target.customerId,
          server_id: target.serverId,
          platform_id: target.platformId,
          carrier_id: b.carrierId ?? null,
          sensor_id: b.sensorId ?? null,
          exceptions: b.exceptions,
          enabled: b.enabled,
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
    { forward_binding_carrier: conflict(Code.FAILED, 'errors.forwarding.bindExists'), forward_binding_sensor: conflict(Code.FAILED, 'errors.forwarding.bindExists') },
  );
  return { id: row.id };
}

/** The settings of these ids within the caller's scope and limit, or 404 for the whole call. */
async function bindingsInScope(k: Kysely<DB>, scope: Scope, ids: number[]) {
  const rows = await listBase(k).select('b.id').where('b.id', 'in', ids).where(withinLimit(scope)).execute();
  if (rows.length !== new Set(ids).size) throw notFound();
}

export async function updateBinding(q: Queryable, scope: Scope, b: { id: number; exceptions: boolean; enabled: boolean }): Promise<{ id: number }> {
  const k = scoped(q, scope);
  await bindingsInScope(k, scope, [b.id]);
  await k.updateTable('forward_binding').set({ exceptions: b.exceptions, enabled: b.enabled }).where('id', '=', b.id).execute();
  return { id: b.id };
}

export async function removeBindings(q: Queryable, scope: Scope, ids: number[]): Promise<{ deleted: number }> {
  const k = scoped(q, scope);
  await bindingsInScope(k, scope, ids);
  const r = await k.deleteFrom('forward_binding').where('id', 'in', ids).executeTakeFirst();
  return { deleted: Number(r.numDeletedRows) };
}

/** The servers and platforms of the caller's customers, for the setting form (spec §7 "forward list"). */
export async function targets(q: Queryable, scope: Scope) {
  const k = scoped(q, scope);
  const servers = await k.selectFrom('forward_server').select(['id', 'name', 'customer_id']).orderBy('name').execute();
  const platforms = await k.selectFrom('forward_platform').select(['id', 'name', 'customer_id']).orderBy('name').execute();
  return [
    ...servers.map((s) => ({ kind: 'server' as const, id: s.id, name: s.name, customerId: s.customer_id })),
    ...platforms.map((p) => ({ kind: 'platform' as const, id: p.id, name: p.name, customerId: p.customer_id })),
  ];
}
