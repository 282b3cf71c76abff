import { Code, type SensorBody, type SensorType } from '@coldwatch/contract';
import type { Db, Queryable } from '../../platform/db/client.js';
import { carrierWhere, scopeWhere, type Scope } from '../../platform/auth/scope.js';
import { conflict } from '../../platform/http/errors.js';
import { likeParam, mapUnique, msCol, pageQuery, requireBoundWhenLimited, sameCustomer, scopedIds, scopedRow } from '../dm/records.js';
import { SENSOR_LIVE_COLS } from '../dm/dm.repository.js';
import { checkHumidityZone } from '../carrier/carrier.repository.js';

const COLS = `${SENSOR_LIVE_COLS}, x.description, x.sample_interval AS "sampleInterval", x.customer_id AS "customerId",
  cu.name AS "customerName", c.name AS "carrierName", g.name AS "gatewayName", ${msCol('x.created_at', 'createdAt')}`;
const FROM = `sensor x JOIN gateway g ON g.id = x.gateway_id JOIN customer cu ON cu.id = x.customer_id
  LEFT JOIN carrier c ON c.id = x.carrier_id`;

export interface SensorFilter {
  iDisplayStart: number;
  iDisplayLength: number;
  devNo?: string;
  type?: SensorType;
  status?: number;
  gatewayId?: number;
  carrierId?: number;
  bound?: boolean;
}

export function page(db: Db, scope: Scope, f: SensorFilter) {
  const params: unknown[] = [];
  const where = [scopeWhere(scope, 'x.customer_id', params), carrierWhere(scope, 'x.carrier_id', params)];
  if (f.devNo) where.push(`x.dev_no ILIKE $${params.push(likeParam(f.devNo))}`);
  if (f.type) where.push(`x.type = $${params.push(f.type)}`);
  if (f.status !== undefined) where.push(`x.status = $${params.push(f.status)}`);
  if (f.gatewayId) where.push(`x.gateway_id = $${params.push(f.gatewayId)}`);
  if (f.carrierId) where.push(`x.carrier_id = $${params.push(f.carrierId)}`);
  if (f.bound !== undefined) where.push(f.bound ? 'x.carrier_id IS NOT NULL' : 'x.carrier_id IS NULL');
  return pageQuery(db, { select: COLS, from: FROM, where, orderBy: 'x.id' }, params, f);
}

export async function detail(db: Db, scope: Scope, id: number) {
  const params: unknown[] = [id];
  return db.one(`SELECT ${COLS} FROM ${FROM} WHERE x.id = $1 AND ${scopeWhere(scope, 'x.customer_id', params)} AND ${carrierWhere(scope, 'x.carrier_id', params)}`, params);
}

/** Sensors of one type in scope, for pickers (spec §7 `/service/sensor/lst/{type}`). */
export async function listOfType(db: Db, scope: Scope, type: SensorType) {
  const params: unknown[] = [type];
  return db.query(
    `SELECT x.id, x.dev_no AS "devNo", x.type, x.status, x.carrier_id AS "carrierId", c.name AS "carrierName", x.gateway_id AS "gatewayId"
       FROM sensor x LEFT JOIN carrier c ON c.id = x.carrier_id
      WHERE x.type = $1 AND ${scopeWhere(scope, 'x.customer_id', params)} AND ${carrierWhere(scope, 'x.carrier_id', params)} ORDER BY x.dev_no`,
    params,
  );
}

/** Device numbers are unique on the whole platform (device protocol): ingest finds a reading's sensor by it alone. */
const numberExists = () => conflict(Code.CODE_EXISTS, 'errors.exists.number');

/**
 * The sensor's customer is its gateway's; a carrier it is bound to must be the same customer's
 * (spec §5 "selected devices must belong to the same customer").
 */
async function checkRefs(q: Queryable, scope: Scope, b: SensorBody, customerId?: number) {
  requireBoundWhenLimited(scope, b.carrierId);
  const gateway = await scopedRow(q, scope, 'gateway', b.gatewayId);
  if (customerId !== undefined) sameCustomer(gateway, customerId, 'gateway');
  const owner = customerId ?? gateway.customer_id;
  if (b.carrierId) sameCustomer(await scopedRow(q, scope, 'carrier', b.carrierId), owner, 'carrier');
  return owner;
}

async function checkNumber(q: Queryable, devNo: string, exceptId = 0) {
  if ((await q.query('SELECT 1 FROM sensor WHERE dev_no = $1 AND id <> $2', [devNo, exceptId])).length) throw numberExists();
}

export async function add(q: Queryable, scope: Scope, b: SensorBody) {
  const customerId = await checkRefs(q, scope, b);
  await checkNumber(q, b.devNo);
  const [row] = await mapUnique(
    () =>
      q.query<{ id: number }>(
        `INSERT INTO sensor(customer_id, dev_no, type, description, gateway_id, carrier_id, sample_interval) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        [customerId, b.devNo, b.type, b.description, b.gatewayId, b.carrierId, b.sampleInterval],
      ),
    { sensor_dev_no: numberExists() },
  );
  if (b.carrierId) await checkHumidityZone(q, b.carrierId, 'carrierId');
  return { id: row.id };
}

export async function update(q: Queryable, scope: Scope, b: SensorBody & { id: number }) {
  const cur = await scopedRow(q, scope, 'sensor', b.id);
  await checkRefs(q, scope, b, cur.customer_id);
  await checkNumber(q, b.devNo, b.id);
  await mapUnique(
    () =>
      q.query('UPDATE sensor SET dev_no = $2, type = $3, description = $4, gateway_id = $5, carrier_id = $6, sample_interval = $7 WHERE id = $1', [
        b.id,
        b.devNo,
        b.type,
        b.description,
        b.gatewayId,
        b.carrierId,
        b.sampleInterval,
      ]),
    { sensor_dev_no: numberExists() },
  );
  if (b.carrierId) await checkHumidityZone(q, b.carrierId, 'carrierId');
  return { id: b.id };
}

/** Readings stay until retention removes them; the alarm hand-over row would point at nothing, so it goes. */
export async function remove(q: Queryable, scope: Scope, ids: number[]) {
  await scopedIds(q, scope, 'sensor', ids);
  await q.query('DELETE FROM alarm_queue WHERE sensor_id = ANY($1::int[])', [ids]);
  await q.query('DELETE FROM sensor WHERE id = ANY($1::int[])', [ids]);
  return { deleted: ids.length };
}
