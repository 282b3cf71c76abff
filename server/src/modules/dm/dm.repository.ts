import { sql, type Kysely } from 'kysely';
import { boardState, type CarrierDevices, type CarrierRow, type LiveSensor, type MonitorCarrier } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { countOf, msOrNull } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';
import { carrierFilter, carrierSelect } from '../carrier/carrier.repository.js';
import { sensorLiveSelect } from '../sensor/sensor.repository.js';
import { rangeState } from './records.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';

type Raw = Omit<LiveSensor, 'tempState' | 'humState' | 'inRange'>;

/** Sensors with their latest values, of these carriers. */
function liveSensors(k: Kysely<DB>, carrierIds: number[]): Promise<Raw[]> {
  if (!carrierIds.length) return Promise.resolve([]);
  // One array parameter, not one parameter per carrier: the protocol allows 65,535 parameters
  // a statement, and a platform user's board may list more carriers than that.
  return sensorLiveSelect(k).where(sql<boolean>`x.carrier_id = any(${carrierIds}::int[])`).orderBy('x.id').execute();
}

type Zone = Pick<CarrierRow, 'tempMin' | 'tempMax' | 'humMin' | 'humMax'>;

/** Each sensor's standing against the carrier's zones. */
export const withStates = <T extends Raw>(zone: Zone, sensors: T[]): (T & Pick<LiveSensor, 'tempState' | 'humState' | 'inRange'>)[] =>
  sensors.map((s) => {
    const tempState = rangeState(s.temp, zone.tempMin, zone.tempMax);
    const humState = rangeState(s.hum, zone.humMin, zone.humMax);
    const out = tempState !== 'high' && tempState !== 'low' && humState !== 'high' && humState !== 'low';
    return { ...s, tempState, humState, inRange: out };
  });

/**
 * One carrier with its bound sensors (latest values and range state) and gateways (those it
 * owns and those its sensors report through); undefined when it is not in the caller's scope.
 */
export async function carrierWithDevices(q: Queryable, scope: Scope, id: number): Promise<CarrierDevices | undefined> {
  const k = scoped(q, scope);
  const carrier = await carrierSelect(k)
    .where('c.id', '=', id)
    .where((eb) => sceneLimit(eb, scope, 'carrier', 'c'))
    .executeTakeFirst();
  if (!carrier) return undefined;
  const sensors = withStates(carrier, await liveSensors(k, [id]));
  // A scene-limited caller sees only gateways bound to carriers of its limit (not those of another carrier its sensors report through).
  const gateways = await k
    .selectFrom('gateway as t')
    .select(['t.id', 't.sn', 't.name', 't.type', 't.status', msOrNull('t.last_seen_at').as('lastSeenAt'), 't.power'])
    .where((eb) => eb.or([eb('t.carrier_id', '=', id), eb('t.id', 'in', eb.selectFrom('sensor').select('gateway_id').where('carrier_id', '=', id))]))
    .where((eb) => sceneLimit(eb, scope, 'gateway'))
    .orderBy('t.id')
    .execute();
  const { n } = await k
    .selectFrom('exception_record')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('carrier_id', '=', id)
    .where('ongoing', '=', true)
    .executeTakeFirstOrThrow();
  const zone = { tempMin: carrier.tempMin, tempMax: carrier.tempMax, humMin: carrier.humMin, humMax: carrier.humMax };
  return { carrier: { ...carrier, state: boardState({ ...carrier, openExceptions: Number(n), sensors }) }, zone, sensors, gateways, openExceptions: Number(n) };
}

export async function monitorList(q: Queryable, scope: Scope, f: { customerId?: number; sceneId?: number; type?: number; name?: string; first?: number }): Promise<MonitorCarrier[]> {
  const k = scoped(q, scope);
  let query = carrierSelect(k)
    .select((eb) =>
      countOf(eb.selectFrom('exception_record as e').whereRef('e.carrier_id', '=', 'c.id').where('e.ongoing', '=', true)).as('openExceptions'),
    )
    .where(await carrierFilter(k, scope, f))
    .orderBy('c.id');
  if (f.first) query = query.limit(f.first);
  const carriers = await query.execute();
  if (!carriers.length) return [];
  // One query for all sensors of the listed carriers, grouped in memory: no query per carrier.
  const byCarrier = new Map<number, Raw[]>();
  for (const s of await liveSensors(k, carriers.map((c) => c.id))) byCarrier.set(s.carrierId!, [...(byCarrier.get(s.carrierId!) ?? []), s]);
  return carriers.map((c) => {
    const list = withStates(c, byCarrier.get(c.id) ?? []);
    return { ...c, state: boardState({ ...c, sensors: list }), sensors: list };
  });
}
