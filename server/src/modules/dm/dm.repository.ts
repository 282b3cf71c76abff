import { CARRIER_STATUS } from '@coldwatch/contract';
import type { Db } from '../../platform/db/client.js';
import { carrierWhere, sceneWhere, scopeWhere, type Scope } from '../../platform/auth/scope.js';
import { CARRIER_COLS, CARRIER_FROM } from '../carrier/carrier.repository.js';
import { likeParam, msCol, rangeState, sceneSubtree } from './records.js';

/** Stored readings are `real`: round to the two decimals the devices send, so 4.52 is not 4.5199999. */
export const r2 = (col: string, as: string) => `round(${col}::numeric, 2) AS "${as}"`;

/** A sensor with its latest values (kept on the sensor row by ingest). */
export const SENSOR_LIVE_COLS = `x.id, x.dev_no AS "devNo", x.type, x.status, x.carrier_id AS "carrierId",
  x.gateway_id AS "gatewayId", g.sn AS "gatewaySn", ${msCol('x.last_ts', 'lastTs')},
  ${r2('x.last_temp', 'temp')}, ${r2('x.last_hum', 'hum')}, ${r2('x.last_volt', 'volt')}, x.last_rssi AS rssi,
  x.last_lqi AS lqi, ${r2('x.last_gas', 'gas')}, x.last_door AS door`;

interface Zone {
  tempMin: number | null;
  tempMax: number | null;
  humMin: number | null;
  humMax: number | null;
}
interface LiveSensor {
  carrierId: number | null;
  temp: number | null;
  hum: number | null;
  [k: string]: unknown;
}

/** Each sensor's standing against the carrier's zones: 'normal' | 'high' | 'low' | null (no value or no zone). */
const withStates = (zone: Zone, sensors: LiveSensor[]) =>
  sensors.map((s) => {
    const tempState = rangeState(s.temp, zone.tempMin, zone.tempMax);
    const humState = rangeState(s.hum, zone.humMin, zone.humMax);
    return { ...s, tempState, humState, inRange: tempState !== 'high' && tempState !== 'low' && humState !== 'high' && humState !== 'low' };
  });

/** Carrier exception state of spec §4: stopped (not running or alarm off), abnormal (out of range or open exception), normal. */
function carrierState(c: { status: number; alarmOn: boolean }, sensors: { inRange: boolean }[], openExceptions: number) {
  if (c.status !== CARRIER_STATUS.running || !c.alarmOn) return 'stopped';
  if (openExceptions > 0 || sensors.some((s) => !s.inRange)) return 'abnormal';
  return 'normal';
}

/**
 * One carrier with its bound sensors (latest values and range state) and gateways (those it
 * owns and those its sensors report through); undefined when it is not in the caller's scope.
 */
export async function carrierWithDevices(db: Db, scope: Scope, id: number) {
  const params: unknown[] = [id];
  const carrier = await db.one<Zone & { id: number; status: number; alarmOn: boolean }>(
    `SELECT ${CARRIER_COLS} FROM ${CARRIER_FROM} WHERE c.id = $1 AND ${scopeWhere(scope, 'c.customer_id', params)} AND ${sceneWhere(scope, 'c.scene_id', params)}`,
    params,
  );
  if (!carrier) return undefined;
  const sensors = withStates(
    carrier,
    await db.query<LiveSensor>(`SELECT ${SENSOR_LIVE_COLS} FROM sensor x JOIN gateway g ON g.id = x.gateway_id WHERE x.carrier_id = $1 ORDER BY x.id`, [id]),
  );
  // A scene-limited caller sees only gateways bound to carriers of its limit (not those of another carrier its sensors report through).
  const gwParams: unknown[] = [id];
  const gateways = await db.query(
    `SELECT g.id, g.sn, g.name, g.type, g.status, ${msCol('g.last_seen_at', 'lastSeenAt')}, g.power
       FROM gateway g WHERE (g.carrier_id = $1 OR g.id IN (SELECT gateway_id FROM sensor WHERE carrier_id = $1))
        AND ${carrierWhere(scope, 'g.carrier_id', gwParams)} ORDER BY g.id`,
    gwParams,
  );
  const [{ n }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM exception_record WHERE carrier_id = $1 AND ongoing', [id]);
  const zone = { tempMin: carrier.tempMin, tempMax: carrier.tempMax, humMin: carrier.humMin, humMax: carrier.humMax };
  return { carrier: { ...carrier, state: carrierState(carrier, sensors, n) }, zone, sensors, gateways, openExceptions: n };
}

export async function monitorList(db: Db, scope: Scope, f: { sceneId?: number; type?: number; name?: string }) {
  const params: unknown[] = [];
  const where = [scopeWhere(scope, 'c.customer_id', params), sceneWhere(scope, 'c.scene_id', params)];
  if (f.type) where.push(`c.type = $${params.push(f.type)}`);
  if (f.sceneId) where.push(`c.scene_id IN ${sceneSubtree(`$${params.push(f.sceneId)}`)}`);
  if (f.name) where.push(`c.name ILIKE $${params.push(likeParam(f.name))}`);
  const carriers = await db.query<Zone & { id: number; status: number; alarmOn: boolean; openExceptions: number }>(
    `SELECT ${CARRIER_COLS},
            (SELECT count(*)::int FROM exception_record e WHERE e.carrier_id = c.id AND e.ongoing) AS "openExceptions"
       FROM ${CARRIER_FROM} WHERE ${where.join(' AND ')} ORDER BY c.id`,
    params,
  );
  if (!carriers.length) return [];
  // One query for all sensors of the listed carriers, grouped in memory: no query per carrier.
  const sensors = await db.query<LiveSensor>(
    `SELECT ${SENSOR_LIVE_COLS} FROM sensor x JOIN gateway g ON g.id = x.gateway_id WHERE x.carrier_id = ANY($1::int[]) ORDER BY x.id`,
    [carriers.map((c) => c.id)],
  );
  const byCarrier = new Map<number, LiveSensor[]>();
  for (const s of sensors) byCarrier.set(s.carrierId!, [...(byCarrier.get(s.carrierId!) ?? []), s]);
  return carriers.map((c) => {
    const list = withStates(c, byCarrier.get(c.id) ?? []);
    return { ...c, state: carrierState(c, list, c.openExceptions), sensors: list };
  });
}
