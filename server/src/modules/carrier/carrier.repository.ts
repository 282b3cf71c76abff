import { Code, sensorMeasuresHumidity, type CarrierBody, type SensorType } from '@coldwatch/contract';
import type { Db, Queryable } from '../../platform/db/client.js';
import { sceneWhere, scopeWhere, type Scope } from '../../platform/auth/scope.js';
import { conflict, paramError } from '../../platform/http/errors.js';
import { inUse, likeParam, mapUnique, msCol, pageQuery, sameCustomer, sceneSubtree, scopedIds, scopedRow } from '../dm/records.js';

export const CARRIER_COLS = `c.id, c.name, c.type, c.status, c.alarm_on AS "alarmOn", c.mode,
  c.scene_id AS "sceneId", s.label AS "sceneLabel", s.code AS "sceneCode",
  c.customer_id AS "customerId", cu.name AS "customerName",
  c.temp_min AS "tempMin", c.temp_max AS "tempMax", c.hum_min AS "humMin", c.hum_max AS "humMax",
  (SELECT count(*)::int FROM sensor x WHERE x.carrier_id = c.id) AS "sensorCount",
  ${msCol('c.created_at', 'createdAt')}`;
export const CARRIER_FROM = 'carrier c JOIN scene s ON s.id = c.scene_id JOIN customer cu ON cu.id = c.customer_id';

export interface CarrierFilter {
  iDisplayStart: number;
  iDisplayLength: number;
  type?: number;
  sceneId?: number;
  name?: string;
  status?: number;
}

export function page(db: Db, scope: Scope, f: CarrierFilter) {
  const params: unknown[] = [];
  const where = [scopeWhere(scope, 'c.customer_id', params), sceneWhere(scope, 'c.scene_id', params)];
  if (f.type) where.push(`c.type = $${params.push(f.type)}`);
  if (f.status) where.push(`c.status = $${params.push(f.status)}`);
  // A scene filter covers the scene's whole subtree: picking a building shows its rooms' carriers.
  if (f.sceneId) where.push(`c.scene_id IN ${sceneSubtree(`$${params.push(f.sceneId)}`)}`);
  if (f.name) where.push(`c.name ILIKE $${params.push(likeParam(f.name))}`);
  return pageQuery(db, { select: CARRIER_COLS, from: CARRIER_FROM, where, orderBy: 'c.id' }, params, f);
}

export async function detail(db: Db, scope: Scope, id: number) {
  const params: unknown[] = [id];
  const row = await db.one(`SELECT ${CARRIER_COLS} FROM ${CARRIER_FROM} WHERE c.id = $1 AND ${scopeWhere(scope, 'c.customer_id', params)} AND ${sceneWhere(scope, 'c.scene_id', params)}`,
    params,
  );
  if (!row) return undefined;
  const contacts = await db.query(
    `SELECT k.id, k.name, k.phone, k.email, k.alarm_level AS "alarmLevel" FROM carrier_contact cc JOIN contact k ON k.id = cc.contact_id
      WHERE cc.carrier_id = $1 ORDER BY k.id`,
    [id],
  );
  return { ...row, contactIds: contacts.map((k) => k.id), contacts };
}

/**
 * Spec §5 "a device set with a thermometer cannot add a humidity interval": a carrier whose
 * temperature sensors are all thermometers (none of the `_th` types) cannot hold a humidity
 * zone. Gas and door sensors measure neither, so they do not count; a carrier without
 * sensors may hold a zone for the devices still to come. Called inside the write's
 * transaction, after the change, so it judges the state the write would leave.
 */
export async function checkHumidityZone(q: Queryable, carrierId: number, field: string) {
  const [c] = await q.query<{ hum_min: number | null }>('SELECT hum_min FROM carrier WHERE id = $1', [carrierId]);
  if (!c || c.hum_min === null) return;
  const types = (await q.query<{ type: SensorType }>('SELECT type FROM sensor WHERE carrier_id = $1', [carrierId])).map((r) => r.type);
  const climate = types.filter((t) => t !== 'gas' && t !== 'magnet');
  if (climate.length > 0 && !climate.some(sensorMeasuresHumidity)) {
    throw paramError('errors.rule.humidityOnThermometer', { [field]: 'errors.rule.humidityOnThermometer' });
  }
}

const nameExists = () => conflict(Code.NAME_EXISTS, 'errors.exists.name');

async function checkRefs(q: Queryable, scope: Scope, body: CarrierBody, customerId?: number) {
  const scene = await scopedRow(q, scope, 'scene', body.sceneId);
  if (customerId !== undefined) sameCustomer(scene, customerId, 'scene');
  const owner = customerId ?? scene.customer_id;
  if (body.contactIds.length) for (const k of await scopedIds(q, scope, 'contact', body.contactIds)) sameCustomer(k, owner, 'contact');
  return owner;
}

async function checkName(q: Queryable, customerId: number, name: string, exceptId = 0) {
  const dup = await q.query('SELECT 1 FROM carrier WHERE customer_id = $1 AND name = $2 AND id <> $3', [customerId, name, exceptId]);
  if (dup.length) throw nameExists();
}

async function setContacts(q: Queryable, carrierId: number, customerId: number, contactIds: number[]) {
  await q.query('DELETE FROM carrier_contact WHERE carrier_id = $1', [carrierId]);
  if (contactIds.length) {
    await q.query(
      'INSERT INTO carrier_contact(carrier_id, contact_id, customer_id) SELECT $1, unnest($2::int[]), $3 ON CONFLICT DO NOTHING',
      [carrierId, contactIds, customerId],
    );
  }
}

export async function add(q: Queryable, scope: Scope, b: CarrierBody) {
  const customerId = await checkRefs(q, scope, b);
  await checkName(q, customerId, b.name);
  const [row] = await mapUnique(
    () =>
      q.query<{ id: number }>(
        `INSERT INTO carrier(customer_id, scene_id, name, type, status, alarm_on, temp_min, temp_max, hum_min, hum_max)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
        [customerId, b.sceneId, b.name, b.type, b.status, b.alarmOn, b.tempMin, b.tempMax, b.humMin, b.humMax],
      ),
    { carrier_customer_id_name: nameExists() },
  );
  await setContacts(q, row.id, customerId, b.contactIds);
  return { id: row.id };
}

export async function update(q: Queryable, scope: Scope, b: CarrierBody & { id: number }) {
  const cur = await scopedRow(q, scope, 'carrier', b.id);
  await checkRefs(q, scope, b, cur.customer_id);
  await checkName(q, cur.customer_id, b.name, b.id);
  await mapUnique(
    () =>
      q.query(
        `UPDATE carrier SET scene_id = $2, name = $3, type = $4, status = $5, alarm_on = $6, temp_min = $7, temp_max = $8, hum_min = $9, hum_max = $10
          WHERE id = $1`,
        [b.id, b.sceneId, b.name, b.type, b.status, b.alarmOn, b.tempMin, b.tempMax, b.humMin, b.humMax],
      ),
    { carrier_customer_id_name: nameExists() },
  );
  await checkHumidityZone(q, b.id, 'humMin');
  await setContacts(q, b.id, cur.customer_id, b.contactIds);
  return { id: b.id };
}

/** A carrier with sensors bound is refused: unbinding is a deliberate step, not a side effect of deleting. */
export async function remove(q: Queryable, scope: Scope, ids: number[]) {
  await scopedIds(q, scope, 'carrier', ids);
  const bound = await q.query('SELECT 1 FROM sensor WHERE carrier_id = ANY($1::int[]) LIMIT 1', [ids]);
  if (bound.length) throw inUse('carrier');
  await q.query('DELETE FROM carrier WHERE id = ANY($1::int[])', [ids]);
  return { deleted: ids.length };
}
