import { sql, type Kysely } from 'kysely';
import { Code, isClimateSensor, sensorMeasuresHumidity, MAPPING_INTERVAL_MAX_S, MAPPING_INTERVAL_MIN_S, type MappingFigures, type MappingQuery, type MappingResult, type SensorType } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import type { Scope } from '../../platform/auth/scope.js';
import { AppError } from '../../platform/http/errors.js';
import { rowInScope } from '../shared/records.js';
import { byDeviceNo, composeFigures, type InstantAggregate, type PointAggregate } from './figures.js';

/*
 * The JJF 1101 mapping figures (issue 29; docs/statistics.md "Mapping figures (JJF 1101)") of a
 * set of points over a range [start, end], both ends included. The database aggregates (each
 * point's min, max and mean; each sampling instant's spread across the points), figures.ts turns
 * that into the figures. Means are taken over the readings cast to numeric, so a reading of 5.1
 * stored as a real counts as 5.1, not 5.099999904.
 */

export interface MappingPointRef {
  id: number;
  devNo: string;
  /** The sensor's type measures humidity. */
  hum: boolean;
}

export interface MappingInput {
  points: MappingPointRef[];
  start: number;
  end: number;
  intervalS: number;
  setpoint: number;
  humSetpoint: number | null;
  centreSensorId: number | null;
}

type Field = 'temp' | 'hum';

/** Each point's count, min, max and mean of a measure over the range. */
async function pointAggregates(k: Kysely<DB>, field: Field, points: MappingPointRef[], start: number, end: number): Promise<PointAggregate[]> {
  const rows = await k
    .selectFrom('reading')
    .select((eb) => [
      'sensor_id',
      eb.fn.count<number>(field).as('n'),
      eb.fn.min(field).as('min'),
      eb.fn.max(field).as('max'),
      sql<number>`avg(cast(${sql.ref(field)} as numeric))`.as('mean'),
    ])
    .where('sensor_id', 'in', points.map((p) => p.id))
    .where('ts', '>=', new Date(start))
    .where('ts', '<=', new Date(end))
    .where(field, 'is not', null)
    .groupBy('sensor_id')
    .execute();
  const by = new Map(rows.map((r) => [r.sensor_id, r]));
  return points.map((p) => {
    const r = by.get(p.id);
    return { sensorId: p.id, deviceNo: p.devNo, readings: Number(r?.n ?? 0), min: num(r?.min), max: num(r?.max), mean: num(r?.mean) };
  });
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/**
 * The sampling instants: instant i holds the readings with start + i·interval ≤ ts < start + (i+1)·interval.
 * A point's value at an instant is the mean of its readings there (normally one). An instant is
 * complete when every point has a value there; the uniformity is the mean spread of the complete
 * instants only, so a missing reading neither narrows nor widens it (docs/statistics.md).
 */
async function instantAggregate(k: Kysely<DB>, field: Field, points: MappingPointRef[], start: number, end: number, intervalS: number): Promise<InstantAggregate> {
  const n = points.length;
  const row = await k
    .with('v', (db) =>
      db
        .selectFrom('reading')
        .select(['sensor_id', sql<number>`floor((extract(epoch from ts) * 1000 - ${start}) / ${intervalS * 1000})`.as('slot'), sql<number>`avg(cast(${sql.ref(field)} as numeric))`.as('val')])
        .where('sensor_id', 'in', points.map((p) => p.id))
        .where('ts', '>=', new Date(start))
        .where('ts', '<=', new Date(end))
        .where(field, 'is not', null)
        .groupBy(['sensor_id', sql`2`]),
    )
    .with('s', (db) => db.selectFrom('v').select(['slot', sql<number>`count(*)`.as('n'), sql<number>`max(val) - min(val)`.as('spread')]).groupBy('slot'))
    .selectFrom('s')
    .select([
      sql<number>`count(*)::int`.as('instants'),
      sql<number>`(count(*) filter (where n = ${n}))::int`.as('complete'),
      sql<number | null>`avg(spread) filter (where n = ${n})`.as('uniformity'),
    ])
    .executeTakeFirstOrThrow();
  return { instants: Number(row.instants), completeInstants: Number(row.complete), uniformity: num(row.uniformity) };
}

async function figuresOf(k: Kysely<DB>, field: Field, points: MappingPointRef[], input: MappingInput, setpoint: number): Promise<MappingFigures> {
  if (!points.length) return composeFigures([], { instants: 0, completeInstants: 0, uniformity: null }, setpoint, null);
  const [p, i] = [await pointAggregates(k, field, points, input.start, input.end), await instantAggregate(k, field, points, input.start, input.end, input.intervalS)];
  return composeFigures(p, i, setpoint, input.centreSensorId);
}

/** The figures of temperature, and of humidity (its points: the sensors that measure it) when a humidity set point is given. */
export async function mappingOf(q: Queryable, scope: Scope, input: MappingInput): Promise<MappingResult> {
  const k = scoped(q, scope);
  const temp = await figuresOf(k, 'temp', input.points, input, input.setpoint);
  const humPoints = input.points.filter((p) => p.hum);
  const humidity = input.humSetpoint === null || !humPoints.length ? null : await figuresOf(k, 'hum', humPoints, input, input.humSetpoint);
  const centre = input.points.find((p) => p.id === input.centreSensorId) ?? byDeviceNo(input.points.map((p) => ({ ...p, deviceNo: p.devNo })))[0];
  return { ...temp, startTime: input.start, endTime: input.end, interval: input.intervalS, centre: centre?.devNo ?? null, humidity };
}

/** A carrier's climate probes within the caller's scope and limit, by device number. */
export async function carrierProbes(k: Kysely<DB>, scope: Scope, carrierId: number) {
  const rows = await k
    .selectFrom('sensor as t')
    .select(['t.id', 't.dev_no', 't.type', 't.sample_interval'])
    .where('t.carrier_id', '=', carrierId)
    .where((eb) => sceneLimit(eb, scope, 'sensor'))
    .orderBy('t.dev_no')
    .execute();
  return rows.filter((r) => isClimateSensor(r.type)).map((r) => ({ id: r.id, devNo: r.dev_no, hum: sensorMeasuresHumidity(r.type as SensorType), sampleIntervalS: r.sample_interval }));
}

/**
 * A set point the customer's probes cannot measure is refused: the customer's monitoring range
 * of the unit (/arch/detection, probe_range) when it has one; without one the §5 bounds of the
 * contract (temperature −327.67..327.67, humidity 0..100) are the only limits.
 */
export async function checkSetpoints(k: Kysely<DB>, customerId: number, setpoint: number, humSetpoint: number | null | undefined): Promise<void> {
  const ranges = await k
    .selectFrom('probe_range as r')
    .innerJoin('probe_unit as u', 'u.id', 'r.unit_id')
    .select(['u.number', 'r.min_value', 'r.max_value'])
    .where('r.customer_id', '=', customerId)
    .where((eb) => eb(eb.fn('lower', ['u.number']), 'in', ['temp', 'hum']))
    .execute();
  for (const [unit, field, v] of [['temp', 'setpoint', setpoint], ['hum', 'humSetpoint', humSetpoint]] as const) {
    const r = ranges.find((x) => x.number.toLowerCase() === unit);
    if (r && v !== null && v !== undefined && (v < Number(r.min_value) || v > Number(r.max_value))) {
      throw new AppError(Code.PARAM_ERROR, 'errors.mapping.setpointRange', 400, { [field]: 'errors.mapping.setpointOutside' }, { min: Number(r.min_value), max: Number(r.max_value) });
    }
  }
}

/** Default sampling frequency: the slowest sample interval of the points, so every point can have a reading at every instant. */
export const defaultInterval = (points: { sampleIntervalS: number }[]) =>
  Math.min(MAPPING_INTERVAL_MAX_S, Math.max(MAPPING_INTERVAL_MIN_S, ...points.map((p) => p.sampleIntervalS)));

/** GET /service/count/mapping: the figures of a carrier's probes (404 for a carrier out of scope or limit, like a missing one). */
export async function carrierMapping(q: Queryable, scope: Scope, query: MappingQuery): Promise<MappingResult> {
  const k = scoped(q, scope);
  const carrier = await rowInScope(k, scope, 'carrier', query.carrierId);
  await checkSetpoints(k, carrier.customer_id, query.setpoint, query.humSetpoint);
  const probes = await carrierProbes(k, scope, carrier.id);
  let centreSensorId: number | null = null;
  if (query.centre) {
    const c = probes.find((p) => p.devNo === query.centre);
    if (!c) throw new AppError(Code.PARAM_ERROR, 'errors.mapping.centre', 400, { centre: 'errors.mapping.centre' });
    centreSensorId = c.id;
  }
  return mappingOf(q, scope, {
    points: probes,
    start: query.startTime,
    end: query.endTime,
    intervalS: query.interval ?? defaultInterval(probes),
    setpoint: query.setpoint,
    humSetpoint: query.humSetpoint ?? null,
    centreSensorId,
  });
}
