import type { Kysely } from 'kysely';
import { Code, type GatewayBody } from '@coldwatch/contract';
import { checkOffered } from '../type/type.repository.js';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { isTaken } from '../../platform/db/unique.js';
import { contains, countOf, msOf, msOrNull, paged, type AnyExpressionBuilder, type PageInput } from '../../platform/db/query.js';
import { targetCustomer, type Scope } from '../../platform/auth/scope.js';
import { conflict, notFound } from '../../platform/http/errors.js';
import { generateGatewaySecret, hashGatewaySecret } from '../../ingest/secret.js';
import { idsInScope, inUse, mapUnique, requireBoundWhenLimited, rowInScope, sameCustomer } from '../shared/records.js';
import { sensorLiveSelect } from '../sensor/sensor.repository.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';

/** Everything about a gateway but its secret hash, which never leaves the server. */
function gatewaySelect(k: Kysely<DB>) {
  return k
    .selectFrom('gateway as t')
    .innerJoin('customer as cu', 'cu.id', 't.customer_id')
    .leftJoin('carrier as c', 'c.id', 't.carrier_id')
    .select((eb) => [
      't.id',
      't.sn',
      't.name',
      't.nickname',
      't.type',
      't.status',
      't.customer_id as customerId',
      'cu.name as customerName',
      't.carrier_id as carrierId',
      'c.name as carrierName',
      msOrNull('t.last_seen_at').as('lastSeenAt'),
      't.power',
      't.tcp',
      't.lte',
      't.flight',
      't.ip',
      't.wan_ip as wanIp',
      't.lat',
      't.lng',
      't.tz',
      countOf(eb.selectFrom('sensor as x').whereRef('x.gateway_id', '=', 't.id')).as('sensorCount'),
      msOf('t.created_at').as('createdAt'),
    ]);
}

export interface GatewayFilter extends PageInput {
  sn?: string;
  name?: string;
  status?: number;
  carrierId?: number;
  customerId?: number;
}

const SORTABLE = { sn: 't.sn', name: 't.name', status: 't.status', lastSeenAt: 't.last_seen_at', createdAt: 't.created_at' };

export function page(q: Queryable, scope: Scope, f: GatewayFilter) {
  const k = scoped(q, scope);
  // On the gateway's own columns (alias t) only, so that the count can run without the joins.
  const where = (eb: AnyExpressionBuilder) => {
    const and = [sceneLimit(eb, scope, 'gateway')];
    if (f.sn) and.push(eb('t.sn', 'ilike', contains(f.sn)));
    if (f.name) and.push(eb.or([eb('t.name', 'ilike', contains(f.name)), eb('t.nickname', 'ilike', contains(f.name))]));
    if (f.status !== undefined) and.push(eb('t.status', '=', f.status));
    if (f.carrierId) and.push(eb('t.carrier_id', '=', f.carrierId));
    if (f.customerId) and.push(eb('t.customer_id', '=', f.customerId));
    return eb.and(and);
  };
  // Counted and paged on the gateway rows alone, as the sensors are: through the customer join
  // the count of 100,000 gateways read every row instead of the customer index (docs/scaling.md).
  return paged(gatewaySelect(k).where(where), f, { sortable: SORTABLE, by: 't.id', base: { from: k.selectFrom('gateway as t').where(where), key: 't.id' } });
}

export function detail(q: Queryable, scope: Scope, id: number) {
  return gatewaySelect(scoped(q, scope))
    .where('t.id', '=', id)
    .where((eb) => sceneLimit(eb, scope, 'gateway'))
    .executeTakeFirst();
}

/** The gateway with the sensors that report through it and their latest values. */
export async function withSensors(q: Queryable, scope: Scope, id: number) {
  const gateway = await detail(q, scope, id);
  if (!gateway) return undefined;
  const sensors = await sensorLiveSelect(scoped(q, scope))
    .where('x.gateway_id', '=', id)
    .where((eb) => sceneLimit(eb, scope, 'sensor', 'x'))
    .orderBy('x.id')
    .execute();
  return { ...gateway, sensors };
}

/** Spec §8 warning "gateway MAC already exists": the sn is the MAC and unique on the platform (device protocol). */
const snExists = () => conflict(Code.CODE_EXISTS, 'errors.exists.gateway');

/** The sn is unique across customers; the unique index decides in the end (mapUnique). */
async function checkSn(q: Queryable, sn: string, exceptId = 0) {
  if (await isTaken(q, 'gateway', sn, exceptId)) throw snExists();
}

async function checkCarrier(k: Kysely<DB>, scope: Scope, carrierId: number | null, customerId: number) {
  requireBoundWhenLimited(scope, carrierId);
  if (carrierId) sameCustomer(await rowInScope(k, scope, 'carrier', carrierId), customerId, 'carrier');
}

/** Enrols a gateway and issues its MQTT/HTTP secret; only the hash is kept, so the answer is the one time it is shown. */
export async function add(q: Queryable, scope: Scope, b: GatewayBody & { customerId?: number }) {
  const k = scoped(q, scope);
  const customerId = targetCustomer(scope, b.customerId);
  await checkOffered(q, 'gateway', b);
  await checkCarrier(k, scope, b.carrierId, customerId);
  await checkSn(q, b.sn);
  const secret = generateGatewaySecret();
  const row = await mapUnique(
    () =>
      k
        .insertInto('gateway')
        .values({ customer_id: customerId, sn: b.sn, name: b.name, nickname: b.nickname, type: b.type, carrier_id: b.carrierId, tz: b.tz, secret_hash: hashGatewaySecret(secret) })
        .returning('id')
        .executeTakeFirstOrThrow(),
    { gateway_sn: snExists() },
  );
  return { id: row.id, sn: b.sn, secret };
}

/** Returns the sn before the change too: an sn change ends the sessions under the old one. */
export async function update(q: Queryable, scope: Scope, b: GatewayBody & { id: number }) {
  const k = scoped(q, scope);
  const cur = await k
    .selectFrom('gateway as t')
    .select(['t.sn', 't.customer_id', 't.type'])
    .where('t.id', '=', b.id)
    .where((eb) => sceneLimit(eb, scope, 'gateway'))
    .forUpdate()
    .executeTakeFirst();
  if (!cur) throw notFound();
  await checkOffered(q, 'gateway', b, cur);
  await checkCarrier(k, scope, b.carrierId, cur.customer_id);
  await checkSn(q, b.sn, b.id);
  await mapUnique(
    () =>
      k
        .updateTable('gateway')
        .set({ sn: b.sn, name: b.name, nickname: b.nickname, type: b.type, carrier_id: b.carrierId, tz: b.tz })
        .where('id', '=', b.id)
        .where('customer_id', '=', cur.customer_id)
        .execute(),
    { gateway_sn: snExists() },
  );
  return { id: b.id, oldSn: cur.sn };
}

/** A new secret replaces the old at once: a gateway still using the old one is refused from now on. */
export async function resetSecret(q: Queryable, scope: Scope, id: number) {
  const k = scoped(q, scope);
  await rowInScope(k, scope, 'gateway', id);
  const secret = generateGatewaySecret();
  const row = await k.updateTable('gateway').set({ secret_hash: hashGatewaySecret(secret) }).where('id', '=', id).returning('sn').executeTakeFirstOrThrow();
  return { id, sn: row.sn, secret };
}

/** Sensors reference their gateway (NOT NULL): they must move or go first. Returns the deleted sns. */
export async function remove(q: Queryable, scope: Scope, ids: number[]) {
  const k = scoped(q, scope);
  await idsInScope(k, scope, 'gateway', ids);
  if (await k.selectFrom('sensor').select('id').where('gateway_id', 'in', ids).limit(1).executeTakeFirst()) throw inUse('gateway');
  for (const t of ['relay', 'display', 'base'] as const) if (await k.selectFrom(t).select('id').where('gateway_id', 'in', ids).limit(1).executeTakeFirst()) throw inUse('gateway');
  // A lent sensor comes home to the gateway it left (docs/devices.md "Lending").
  if (await k.selectFrom('device_loan').select('id').where('origin_gateway_id', 'in', ids).where('ended_at', 'is', null).limit(1).executeTakeFirst()) throw inUse('gateway');
  const gone = await k.deleteFrom('gateway').where('id', 'in', ids).returning('sn').execute();
  return { deleted: gone.length, sns: gone.map((g) => g.sn) };
}

/** A gateway's heartbeat history (spec §3), newest first; the gateway must be in the caller's scope and limit. */
export async function heartbeats(q: Queryable, scope: Scope, f: PageInput & { gatewayId: number }) {
  const k = scoped(q, scope);
  await rowInScope(k, scope, 'gateway', f.gatewayId);
  const query = k
    .selectFrom('gateway_heartbeat as h')
    .select(['h.id', msOf('h.ts').as('ts'), msOf('h.received_at').as('receivedAt'), 'h.power', 'h.tcp', 'h.lte', 'h.flight', 'h.ip', 'h.wan_ip as wanIp', 'h.lat', 'h.lng'])
    .where('h.gateway_id', '=', f.gatewayId);
  return paged(query, f, { by: ['h.received_at desc', 'h.id desc'], windowedCountOn: k });
}
