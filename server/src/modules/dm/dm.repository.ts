import { sql, type Kysely } from 'kysely';
import { boardState, countByState, type CarrierDevices, type CarrierRow, type LiveSensor, type MonitorCarrier, type MonitorCounts, type MonitorOverview, type MonitorSummary } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { countOf, msOrNull, pageBounds, type PageInput, type Paged } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';
import { carrierFilter, carrierSelect, withReach } from '../carrier/carrier.repository.js';
import { sensorLiveSelect } from '../sensor/sensor.repository.js';
import { rangeState } from '../shared/records.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import { boardWhere, sharedScans, type BoardFilters } from './board.js';
import { unreachable } from '../../alarm/recipients.js';
import { alarmModes } from './alarmModes.js';

type Raw = Omit<LiveSensor, 'tempState' | 'humState' | 'inRange'>;

/** Sensors with their latest values, of these carriers, each with its own ongoing device exceptions. */
async function liveSensors(k: Kysely<DB>, carrierIds: number[]): Promise<Raw[]> {
  if (!carrierIds.length) return [];
  // One array parameter, not one parameter per carrier: the protocol allows 65,535 parameters
  // a statement, and a platform user's board may list more carriers than that.
  const sensors = await sensorLiveSelect(k).where(sql<boolean>`x.carrier_id = any(${carrierIds}::int[])`).orderBy('x.id').execute();
  return withDeviceStates(k, sensors);
}

/**
 * The board's device states (docs/devices.md): a sensor's ongoing connection and battery
 * exceptions and its gateway's power failure, as the sensor's `ongoing` categories. One query
 * for every sensor listed. They never count as an abnormal value (openExceptions below and
 * boardState count temperature and humidity only).
 */
async function withDeviceStates<S extends { id: number; gatewayId: number }>(k: Kysely<DB>, sensors: S[]): Promise<(S & { ongoing: string[] })[]> {
  if (!sensors.length) return [];
  const rows = await k
    .selectFrom('exception_record as e')
    .select(['e.sensor_id', 'e.gateway_id', 'e.category'])
    .where('e.ongoing', '=', true)
    .where('e.type', 'in', ['offline', 'power'])
    .where((eb) =>
      eb.or([
        eb('e.sensor_id', '=', sql<number>`any(${sensors.map((s) => s.id)}::int[])`),
        eb.and([eb('e.category', '=', 'gateway_blackout'), eb('e.gateway_id', '=', sql<number>`any(${[...new Set(sensors.map((s) => s.gatewayId))]}::int[])`)]),
      ]),
    )
    .execute();
  const of = (s: S) => [...new Set(rows.filter((r) => r.sensor_id === s.id || (r.sensor_id === null && r.gateway_id === s.gatewayId)).map((r) => r.category))];
  return sensors.map((s) => ({ ...s, ongoing: of(s) }));
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
  const found = await carrierSelect(k)
    .where('c.id', '=', id)
    .where((eb) => sceneLimit(eb, scope, 'carrier', 'c'))
    .executeTakeFirst();
  if (!found) return undefined;
  const [carrier] = await withReach(q, [found]);
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
    .where('type', '=', 'data')
    .executeTakeFirstOrThrow();
  const zone = { tempMin: carrier.tempMin, tempMax: carrier.tempMax, humMin: carrier.humMin, humMax: carrier.humMax };
  return { carrier: { ...carrier, state: boardState({ ...carrier, openExceptions: Number(n), sensors }) }, zone, sensors, gateways, openExceptions: Number(n) };
}

export async function monitorList(q: Queryable, scope: Scope, f: { customerId?: number; sceneId?: number; type?: number; name?: string; first?: number }): Promise<MonitorCarrier[]> {
  const k = scoped(q, scope);
  let query = monitorSelect(k).where(await carrierFilter(k, scope, f)).orderBy('c.id');
  if (f.first) query = query.limit(f.first);
  return withLive(q, k, await query.execute());
}

/** The board's carrier columns: the carrier's row and its open data exceptions. */
const monitorSelect = (k: Kysely<DB>) =>
  carrierSelect(k).select((eb) =>
    countOf(eb.selectFrom('exception_record as e').whereRef('e.carrier_id', '=', 'c.id').where('e.ongoing', '=', true).where('e.type', '=', 'data')).as('openExceptions'),
  );

/** Carriers as the board shows them: who their alarm reaches, their live sensors (one query for all, grouped in memory) and their state. */
async function withLive(q: Queryable, k: Kysely<DB>, rows: Awaited<ReturnType<ReturnType<typeof monitorSelect>['execute']>>): Promise<MonitorCarrier[]> {
  const carriers = await withReach(q, rows);
  if (!carriers.length) return [];
  const byCarrier = new Map<number, Raw[]>();
  for (const s of await liveSensors(k, carriers.map((c) => c.id))) byCarrier.set(s.carrierId!, [...(byCarrier.get(s.carrierId!) ?? []), s]);
  return carriers.map((c) => {
    const list = withStates(c, byCarrier.get(c.id) ?? []);
    return { ...c, state: boardState({ ...c, sensors: list }), sensors: list };
  });
}

/** The board's scans, shared by every reader of this process (the table's and home's too: one scan for concurrent equal asks). */
export const scans = sharedScans();

/**
 * One page of the board (docs/scaling.md "The board at 100,000 points"). Without a state
 * filter the page and its total come from SQL (ids in board order, then the page's rows); with
 * one, from the scan of every filtered carrier's state.
 */
export async function monitorPage(q: Queryable, scope: Scope, f: BoardFilters & PageInput): Promise<Paged<MonitorCarrier>> {
  const k = scoped(q, scope);
  let ids: number[];
  let total: number;
  if (f.state === 'all') {
    const where = await boardWhere(k, scope, f);
    const { limit, offset } = pageBounds(f);
    const found = await carrierSelect(k).clearSelect().select('c.id').where(where).orderBy('c.id').limit(limit).offset(offset).execute();
    ids = found.map((r) => r.id);
    const counted = await carrierSelect(k).clearSelect().select(sql<number>`count(*)::int`.as('n')).where(where).executeTakeFirstOrThrow();
    total = counted.n;
  } else {
    const scan = await scans(k, scope, f);
    total = scan.ids.length;
    ids = scan.ids.slice(f.iDisplayStart, f.iDisplayStart + f.iDisplayLength);
  }
  return { total, rows: await monitorRows(q, k, ids), iDisplayStart: f.iDisplayStart, iDisplayLength: f.iDisplayLength };
}

/** These carriers (ids the caller's scoped reads found) as the board shows them, in board order. */
export async function monitorRows(q: Queryable, k: Kysely<DB>, ids: number[]): Promise<MonitorCarrier[]> {
  return ids.length ? withLive(q, k, await monitorSelect(k).where(sql<boolean>`c.id = any(${ids}::int[])`).orderBy('c.id').execute()) : [];
}

/** The carriers of the scope summed up (home), with those whose alarm would reach nobody and the first three of their names. */
export async function monitorSummary(q: Queryable, scope: Scope, f: Pick<BoardFilters, 'customerId' | 'sceneId' | 'type'>): Promise<MonitorSummary> {
  const k = scoped(q, scope);
  const scan = await scans(k, scope, { ...f, state: 'all' });
  const nobody = [...(await unreachable(q, scan.alarmOn))].sort((x, y) => x - y);
  const names = nobody.length ? await k.selectFrom('carrier').select('name').where(sql<boolean>`id = any(${nobody.slice(0, 3)}::int[])`).orderBy('id').execute() : [];
  return { ...scan.summary, reachNobody: nobody.length, reachNobodyNames: names.map((r) => r.name), alarms: await alarmModes(k, scope, f) };
}

/**
 * /databoard/overview's figures (docs/scaling.md "The board at 100,000 points"): the scan's states
 * grouped by carrier type and by scene, and its first sensors not reporting with their numbers
 * and carriers.
 */
export async function monitorOverview(q: Queryable, scope: Scope): Promise<MonitorOverview> {
  const k = scoped(q, scope);
  const scan = await scans(k, scope, { state: 'all' });
  const rows = await carrierSelect(k)
    .clearSelect()
    .select(['c.id', 'c.type', 'c.scene_id as sceneId', 's.label as sceneLabel', 'cu.name as customerName'])
    .where(await boardWhere(k, scope, {}))
    .orderBy('c.id')
    .execute();
  // A carrier added between the scan and this read has no state yet: it is counted when the overview is read again.
  const seen = rows.filter((r) => scan.states.has(r.id));
  const stateOf = (r: { id: number }) => scan.states.get(r.id)!;
  const customerOf = new Map(seen.map((r) => [r.sceneId, r.customerName]));
  const first = scan.offline.first;
  const found = first.length
    ? await sensorLiveSelect(k).innerJoin('carrier as c', 'c.id', 'x.carrier_id').select(['c.id as carrierId', 'c.name as carrierName']).where(sql<boolean>`x.id = any(${first.map((f) => f.sensorId)}::int[])`).execute()
    : [];
  const byId = new Map(found.map((s) => [s.id, s]));
  return {
    byType: countByState(seen, (r) => r.type, () => '', stateOf),
    byScene: countByState(seen, (r) => r.sceneId, (r) => r.sceneLabel, stateOf).map((g) => ({ ...g, customerName: customerOf.get(g.key) ?? '' })),
    offlineSensors: {
      total: scan.offline.total,
      rows: first.flatMap((f) => {
        const s = byId.get(f.sensorId);
        return s ? [{ id: s.id, devNo: s.devNo, status: s.status, lastTs: s.lastTs, carrierId: f.carrierId, carrierName: s.carrierName }] : [];
      }),
    },
  };
}

/** The board's summary over every carrier of its filters. */
export async function monitorCounts(q: Queryable, scope: Scope, f: BoardFilters): Promise<MonitorCounts> {
  return (await scans(scoped(q, scope), scope, f)).counts;
}
