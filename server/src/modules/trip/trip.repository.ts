import { type ExpressionBuilder } from 'kysely';
import { Code, TRIP_MAX_POINTS, TRIP_STATUS, type TraceDetail, type TripDetail, type TripEndBody, type TripPosition, type TripRow, type TripStartBody } from '@coldwatch/contract';
import type { Db, Queryable } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import { msOf, msOrNull, paged, type PageInput, type Paged } from '../../platform/db/query.js';
import { linkScope, type Scope } from '../../platform/auth/scope.js';
import { AppError, notFound, uniqueViolation } from '../../platform/http/errors.js';
import { history } from '../history/history.repository.js';
import { statistics } from '../statistic/statistic.repository.js';
import { get as param } from '../param/param.repository.js';
import { endStay } from '../../ingest/positions.js';

/*
 * Trips of carriers in transport mode (docs/transport.md). A trip is its carrier's: it is seen by
 * whoever sees the carrier (scoped to the caller's customers, and within a scene limit through
 * the carrier's scene). Its positions are trip_position rows (written by ingest: server/src/ingest/positions.ts).
 */

const refused = (key: string) => new AppError(Code.FAILED, `errors.trip.${key}`);
const by = (scope: Scope) => (scope.name || scope.account).slice(0, 50);

/** Trips joined to their carrier, the caller's and within its scene limit. */
const visibleTrips = (q: Queryable, scope: Scope) =>
  scoped(q, scope)
    .selectFrom('trip as t')
    .innerJoin('carrier as c', 'c.id', 't.carrier_id')
    .where((eb) => sceneLimit(eb, scope, 'carrier', 'c'));

/** The trip's positions, counted through the scoped builder (its tenant filter applies inside). */
const positionCount = (eb: ExpressionBuilder<DB & { t: DB['trip'] }, 't'>) =>
  eb.selectFrom('trip_position as p').select((e) => e.fn.countAll<string>().as('n')).whereRef('p.trip_id', '=', 't.id').as('positions');

const rowColumns = [
  't.id',
  't.customer_id as customerId',
  't.carrier_id as carrierId',
  'c.name as carrierName',
  't.origin',
  't.destination',
  't.cargo',
  msOf('t.start_ts').as('startTime'),
  msOrNull('t.end_ts').as('endTime'),
  't.started_by as startedBy',
  't.ended_by as endedBy',
  't.auto',
] as const;

type RawRow = Omit<TripRow, 'status' | 'positions'> & { positions: string | number };
const toRow = (r: RawRow): TripRow => ({
  ...r,
  startTime: Number(r.startTime),
  endTime: r.endTime === null ? null : Number(r.endTime),
  status: r.endTime === null ? TRIP_STATUS.underWay : TRIP_STATUS.ended,
  positions: Number(r.positions),
});


export interface TripFilter extends PageInput {
  carrierId?: number;
  status?: number;
  customerId?: number;
}

export async function pageTrips(q: Queryable, scope: Scope, f: TripFilter): Promise<Paged<TripRow>> {
  const query = visibleTrips(q, scope)
    .select([...rowColumns, positionCount])
    .where((eb) =>
      eb.and([
        ...(f.carrierId ? [eb('t.carrier_id', '=', f.carrierId)] : []),
        ...(f.customerId ? [eb('t.customer_id', '=', f.customerId)] : []),
        ...(f.status === TRIP_STATUS.underWay ? [eb('t.end_ts', 'is', null)] : f.status === TRIP_STATUS.ended ? [eb('t.end_ts', 'is not', null)] : []),
      ]),
    );
  const page = await paged(query, f, { by: ['t.id desc'] });
  return { ...page, rows: page.rows.map((r) => toRow(r as RawRow)) };
}

/** A trip the caller sees, or 404 (another customer's is a missing one). */
export async function tripOf(q: Queryable, scope: Scope, id: number): Promise<TripRow> {
  const r = await visibleTrips(q, scope).select([...rowColumns, positionCount]).where('t.id', '=', id).executeTakeFirst();
  if (!r) throw notFound();
  return toRow(r as RawRow);
}

/**
 * Starts a trip of a carrier in transport mode that has none under way. A start in the past
 * takes the carrier's positions since then that belong to no trip.
 */
export async function start(q: Queryable, scope: Scope, b: TripStartBody, now: number): Promise<{ id: number }> {
  const carrier = await scoped(q, scope)
    .selectFrom('carrier as c')
    .select(['c.id', 'c.customer_id', 'c.mode'])
    .where('c.id', '=', b.carrierId)
    .where((eb) => sceneLimit(eb, scope, 'carrier', 'c'))
    .executeTakeFirst();
  if (!carrier) throw notFound();
  if (carrier.mode !== 'transport') throw refused('notTransport');
  const at = b.startTime ?? now;
  if (at > now + 60_000) throw refused('future');
  const k = scoped(q, scope);
  let id: number;
  try {
    const row = await k
      .insertInto('trip')
      .values({ customer_id: carrier.customer_id, carrier_id: carrier.id, origin: b.origin, destination: b.destination, cargo: b.cargo, start_ts: new Date(at), started_by: by(scope) })
      .returning('id')
      .executeTakeFirstOrThrow();
    id = row.id;
  } catch (err) {
    if (uniqueViolation(err) === 'trip_one_open') throw refused('underWay');
    throw err;
  }
  await k.updateTable('trip_position').set({ trip_id: id }).where('carrier_id', '=', carrier.id).where('trip_id', 'is', null).where('ts', '>=', new Date(at)).execute();
  return { id };
}

/** Ends a trip under way, never before its start; positions reported after its end leave it. */
export async function end(q: Queryable, scope: Scope, b: TripEndBody, now: number): Promise<{ id: number }> {
  const trip = await tripOf(q, scope, b.id);
  if (trip.endTime !== null) throw refused('ended');
  const at = b.endTime ?? now;
  if (at < trip.startTime) throw refused('endBeforeStart');
  if (at > now + 60_000) throw refused('future');
  const k = scoped(q, scope);
  await k.updateTable('trip').set({ end_ts: new Date(at), ended_by: by(scope) }).where('id', '=', trip.id).where('end_ts', 'is', null).execute();
  await k.updateTable('trip_position').set({ trip_id: null }).where('trip_id', '=', trip.id).where('ts', '>', new Date(at)).execute();
  // The trip's end ends its carrier's ongoing retention (docs/alarms.md "Retention").
  await endStay(q, trip.carrierId, new Date(at));
  return { id: trip.id };
}

/** At most `max` of the points, evenly, the first and the last always among them. */
export function thin<T>(points: T[], max: number): T[] {
  if (points.length <= max) return points;
  const step = (points.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => points[Math.round(i * step)]);
}

/** A trip's route (UTC ms order), thinned to TRIP_MAX_POINTS. */
export async function route(q: Queryable, scope: Scope, tripId: number): Promise<TripPosition[]> {
  const rows = await scoped(q, scope)
    .selectFrom('trip_position as p')
    .select([msOf('p.ts').as('ts'), 'p.lat', 'p.lng'])
    .where('p.trip_id', '=', tripId)
    .orderBy('p.ts')
    .execute();
  return thin(
    rows.map((r) => ({ ts: Number(r.ts), lat: r.lat, lng: r.lng })),
    TRIP_MAX_POINTS,
  );
}

/** The trip's record: route, each of its carrier's sensors' readings, the carrier's figures and exceptions over the trip. */
export async function detail(db: Db, scope: Scope, id: number, now = Date.now()): Promise<TripDetail> {
  const trip = await tripOf(db, scope, id);
  const startTs = trip.startTime;
  const endTs = trip.endTime ?? now;
  const sensors = await scoped(db, scope)
    .selectFrom('sensor as s')
    .select('s.dev_no')
    .where('s.carrier_id', '=', trip.carrierId)
    .where((eb) => sceneLimit(eb, scope, 'sensor', 's'))
    .orderBy('s.dev_no')
    .execute();
  const readings = [];
  for (const s of sensors) {
    const h = await history(db, scope, { deviceNo: s.dev_no, start: startTs, end: Math.max(startTs, endTs), maxPoints: TRIP_MAX_POINTS });
    if (!h) continue;
    const { carrierId: _c, ...rest } = h;
    readings.push(rest);
  }
  const [stat] = await statistics(db, scope, [trip.carrierId], startTs, Math.max(startTs + 1, endTs), { now });
  const excursions = await scoped(db, scope)
    .selectFrom('exception_record as e')
    .select(['e.category', msOf('e.start_ts').as('start'), msOrNull('e.end_ts').as('end'), 'e.peak_value as peakValue', 'e.status', 'e.reason', 'e.measures'])
    .where((eb) =>
      eb.or([
        eb('e.carrier_id', '=', trip.carrierId),
        eb('e.sensor_id', 'in', eb.selectFrom('sensor as s2').select('s2.id').where('s2.carrier_id', '=', trip.carrierId)),
      ]),
    )
    .where((eb) => eb.or([eb('e.type', '=', 'data'), eb('e.category', '=', 'retention')]))
    .where('e.start_ts', '<', new Date(endTs + 1))
    .where((eb) => eb.or([eb('e.end_ts', 'is', null), eb('e.end_ts', '>', new Date(startTs))]))
    .where((eb) => sceneLimit(eb, scope, 'exception_record', 'e'))
    .orderBy('e.start_ts')
    .execute();
  const { customerId: _cu, carrierId: _ca, ...shown } = trip;
  return {
    trip: shown,
    route: await route(db, scope, trip.id),
    readings,
    statistic: stat ? { zone: stat.zone, summary: stat.summary, mktDh: stat.mktDh } : null,
    excursions: excursions.map((e) => ({ ...e, start: Number(e.start), end: e.end === null ? null : Number(e.end) })),
  };
}


/** What /traceDetail shows for a genuine, unexpired transport code: the trip's record, no identifiers. A trip gone with its customer or carrier is as good as never made. */
export async function trace(db: Db, link: { id: number; customerId: number; exp: number }, now = Date.now()): Promise<TraceDetail> {
  const scope = linkScope(link.customerId);
  let d: TripDetail;
  try {
    d = await detail(db, scope, link.id, now);
  } catch (err) {
    if (err instanceof AppError && err.httpStatus === 404) throw new AppError(Code.FAILED, 'errors.trip.codeInvalid', 401);
    throw err;
  }
  const customer = await scoped(db, scope).selectFrom('customer as cu').select(['cu.name', 'cu.time_zone']).where('cu.id', '=', link.customerId).executeTakeFirstOrThrow();
  const { id: _i, startedBy: _s, endedBy: _e, ...trip } = d.trip;
  return { ...d, trip, customerName: customer.name, timeZone: customer.time_zone, expiresAt: link.exp, tileUrl: String(await param(db, 'map_tile_url')) };
}
