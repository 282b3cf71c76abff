import { Code, type GatewayBody } from '@coldwatch/contract';
import type { Db, Queryable } from '../../platform/db/client.js';
import { carrierWhere, scopeWhere, targetCustomer, type Scope } from '../../platform/auth/scope.js';
import { conflict } from '../../platform/http/errors.js';
import { generateGatewaySecret, hashGatewaySecret } from '../../ingest/secret.js';
import { inUse, likeParam, mapUnique, msCol, pageQuery, requireBoundWhenLimited, sameCustomer, scopedIds, scopedRow } from '../dm/records.js';
import { SENSOR_LIVE_COLS } from '../dm/dm.repository.js';

/** Everything about a gateway but its secret hash, which never leaves the server. */
const COLS = `g.id, g.sn, g.name, g.nickname, g.type, g.status, g.customer_id AS "customerId", cu.name AS "customerName",
  g.carrier_id AS "carrierId", c.name AS "carrierName", ${msCol('g.last_seen_at', 'lastSeenAt')}, g.power, g.tcp, g.lte,
  g.flight, g.ip, g.wan_ip AS "wanIp", g.lat, g.lng, g.tz,
  (SELECT count(*)::int FROM sensor x WHERE x.gateway_id = g.id) AS "sensorCount", ${msCol('g.created_at', 'createdAt')}`;
const FROM = 'gateway g JOIN customer cu ON cu.id = g.customer_id LEFT JOIN carrier c ON c.id = g.carrier_id';

export interface GatewayFilter {
  iDisplayStart: number;
  iDisplayLength: number;
  sn?: string;
  name?: string;
  status?: number;
  carrierId?: number;
}

export function page(db: Db, scope: Scope, f: GatewayFilter) {
  const params: unknown[] = [];
  const where = [scopeWhere(scope, 'g.customer_id', params), carrierWhere(scope, 'g.carrier_id', params)];
  if (f.sn) where.push(`g.sn ILIKE $${params.push(likeParam(f.sn))}`);
  if (f.name) where.push(`(g.name ILIKE $${params.push(likeParam(f.name))} OR g.nickname ILIKE $${params.length})`);
  if (f.status !== undefined) where.push(`g.status = $${params.push(f.status)}`);
  if (f.carrierId) where.push(`g.carrier_id = $${params.push(f.carrierId)}`);
  return pageQuery(db, { select: COLS, from: FROM, where, orderBy: 'g.id' }, params, f);
}

export async function detail(db: Db, scope: Scope, id: number) {
  const params: unknown[] = [id];
  return db.one(`SELECT ${COLS} FROM ${FROM} WHERE g.id = $1 AND ${scopeWhere(scope, 'g.customer_id', params)} AND ${carrierWhere(scope, 'g.carrier_id', params)}`, params);
}

/** The gateway with the sensors that report through it and their latest values. */
export async function withSensors(db: Db, scope: Scope, id: number) {
  const gateway = await detail(db, scope, id);
  if (!gateway) return undefined;
  const params: unknown[] = [id];
  const sensors = await db.query(
    `SELECT ${SENSOR_LIVE_COLS} FROM sensor x JOIN gateway g ON g.id = x.gateway_id
      WHERE x.gateway_id = $1 AND ${carrierWhere(scope, 'x.carrier_id', params)} ORDER BY x.id`,
    params,
  );
  return { ...gateway, sensors };
}

/** Spec §8 warning "gateway MAC already exists": the sn is the MAC and unique on the platform (device protocol). */
const snExists = () => conflict(Code.CODE_EXISTS, 'errors.exists.gateway');

async function checkSn(q: Queryable, sn: string, exceptId = 0) {
  if ((await q.query('SELECT 1 FROM gateway WHERE sn = $1 AND id <> $2', [sn, exceptId])).length) throw snExists();
}

async function checkCarrier(q: Queryable, scope: Scope, carrierId: number | null, customerId: number) {
  requireBoundWhenLimited(scope, carrierId);
  if (carrierId) sameCustomer(await scopedRow(q, scope, 'carrier', carrierId), customerId, 'carrier');
}

/** Enrolls a gateway and issues its MQTT/HTTP secret; only the hash is kept, so the answer is the one time it is shown. */
export async function add(q: Queryable, scope: Scope, b: GatewayBody & { customerId?: number }) {
  const customerId = targetCustomer(scope, b.customerId);
  await checkCarrier(q, scope, b.carrierId, customerId);
  await checkSn(q, b.sn);
  const secret = generateGatewaySecret();
  const [row] = await mapUnique(
    () =>
      q.query<{ id: number }>(
        `INSERT INTO gateway(customer_id, sn, name, nickname, type, carrier_id, tz, secret_hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
        [customerId, b.sn, b.name, b.nickname, b.type, b.carrierId, b.tz, hashGatewaySecret(secret)],
      ),
    { gateway_sn: snExists() },
  );
  return { id: row.id, sn: b.sn, secret };
}

export async function update(q: Queryable, scope: Scope, b: GatewayBody & { id: number }) {
  const cur = await scopedRow(q, scope, 'gateway', b.id);
  await checkCarrier(q, scope, b.carrierId, cur.customer_id);
  await checkSn(q, b.sn, b.id);
  await mapUnique(
    () =>
      q.query('UPDATE gateway SET sn = $2, name = $3, nickname = $4, type = $5, carrier_id = $6, tz = $7 WHERE id = $1', [
        b.id,
        b.sn,
        b.name,
        b.nickname,
        b.type,
        b.carrierId,
        b.tz,
      ]),
    { gateway_sn: snExists() },
  );
  return { id: b.id };
}

/** A new secret replaces the old at once: a gateway still using the old one is refused from now on. */
export async function resetSecret(q: Queryable, scope: Scope, id: number) {
  await scopedRow(q, scope, 'gateway', id);
  const secret = generateGatewaySecret();
  const [row] = await q.query<{ sn: string }>('UPDATE gateway SET secret_hash = $2 WHERE id = $1 RETURNING sn', [id, hashGatewaySecret(secret)]);
  return { id, sn: row.sn, secret };
}

/** Sensors reference their gateway (NOT NULL): they must move or go first. */
export async function remove(q: Queryable, scope: Scope, ids: number[]) {
  await scopedIds(q, scope, 'gateway', ids);
  if ((await q.query('SELECT 1 FROM sensor WHERE gateway_id = ANY($1::int[]) LIMIT 1', [ids])).length) throw inUse('gateway');
  await q.query('DELETE FROM gateway WHERE id = ANY($1::int[])', [ids]);
  return { deleted: ids.length };
}
