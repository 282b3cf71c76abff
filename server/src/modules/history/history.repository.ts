import { sensorReadings, type HistoryPoint, type HistoryResult, type SensorType } from '@coldwatch/contract';
import type { Db, Queryable } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import type { Scope } from '../../platform/auth/scope.js';
import { msColumn } from '../../platform/db/query.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import { excludedPeriods } from './excludedPeriods.js';

// The reading queries below are the hot path, written as SQL (docs/data-layer.md): the sensor is
// found in the caller's scope first, and every reading query is by that sensor's id and its
// customer: a sensor that was lent (docs/devices.md "Lending") has readings of two customers,
// each of whom sees only its own.
const r2 = (col: string, as: string) => `round(${col}::numeric, 2)::float8 AS "${as}"`;

const POINT_COLS = `${msColumn('ts', 'ts')}, ${r2('temp', 'temp')}, ${r2('hum', 'hum')}, ${r2('volt', 'volt')}, rssi, lqi, ${r2('gas', 'gas')}, door`;

/** The values a sensor type measures: the ones downsampling must keep the extremes of. */
function measured(type: SensorType): ('temp' | 'hum' | 'gas' | 'door')[] {
  return sensorReadings(type).filter((f) => f === 'temp' || f === 'hum' || f === 'gas' || f === 'door');
}

export interface HistoryArgs {
  deviceNo: string;
  start: number;
  end: number;
  maxPoints: number;
}

/** A sensor by its number in the caller's scope and scene limit, with its carrier's zone; undefined when it is not the caller's. */
export async function sensorInScope(db: Queryable, scope: Scope, deviceNo: string) {
  return scoped(db, scope)
    .selectFrom('sensor as x')
    .leftJoin('carrier as c', 'c.id', 'x.carrier_id')
    .select(['x.id', 'x.dev_no as devNo', 'x.type', 'x.customer_id as customerId', 'x.carrier_id as carrierId', 'c.name as carrierName', 'c.temp_min as tempMin', 'c.temp_max as tempMax', 'c.hum_min as humMin', 'c.hum_max as humMax'])
    .where('x.dev_no', '=', deviceNo)
    .where((eb) => sceneLimit(eb, scope, 'sensor', 'x'))
    .executeTakeFirst()
    .then((r) => r && { ...r, type: r.type as SensorType });
}

/** A page of a sensor's readings in time order after `after` (the stored time as text, exact at any precision). */
export interface ReadingRow extends HistoryPoint {
  /** The stored time as text: the next page starts exactly after it. */
  at: string;
}

/**
 * One page of a sensor's raw readings within [start, end] (ms, inclusive), oldest first, after
 * the row whose stored time is `after` (keyset paging: each page is one short statement, so an
 * export of a year holds no transaction open and ingest goes on between its pages). The sensor
 * must have been found in the caller's scope (sensorInScope); its customer holds the rows.
 */
export async function readingPage(db: Queryable, sensor: { id: number; customerId: number }, start: number, end: number, after: string | null, limit: number): Promise<ReadingRow[]> {
  // Two texts, not `($5 IS NULL OR ts > $5)`: the page's lower bound must be an index bound, or each page scans from the start.
  // ORDER BY reading.ts, not ts: that is the output column (milliseconds), which no index has, so
  // each page sorted every reading after it (a year's export: 1.3 s a page, 2 minutes in all).
  return after === null
    ? db.query<ReadingRow>(
        `SELECT ts::text AS at, ${POINT_COLS} FROM reading WHERE sensor_id = $1 AND customer_id = $2 AND ts >= $3 AND ts <= $4 ORDER BY reading.ts LIMIT $5`,
        [sensor.id, sensor.customerId, new Date(start), new Date(end), limit],
      )
    : db.query<ReadingRow>(
        `SELECT ts::text AS at, ${POINT_COLS} FROM reading WHERE sensor_id = $1 AND customer_id = $2 AND ts > $3::timestamptz AND ts <= $4 ORDER BY reading.ts LIMIT $5`,
        [sensor.id, sensor.customerId, after, new Date(end), limit],
      );
}

/** About how many readings sensors have in [start, end]: from the hourly rollups (cheap at any span), for the export limit. */
export async function estimateReadings(db: Queryable, sensorIds: readonly number[], start: number, end: number): Promise<number> {
  if (!sensorIds.length) return 0;
  const [{ n }] = await db.query<{ n: number }>(
    `SELECT coalesce(sum(n), 0)::bigint AS n FROM reading_1h WHERE sensor_id = ANY($1::int[]) AND bucket >= $2 AND bucket <= $3`,
    [[...sensorIds], new Date(Math.floor(start / 3_600_000) * 3_600_000), new Date(end)],
  );
  return Number(n);
}

/**
 * A sensor's readings between start and end (inclusive, ms). When there are more than
 * maxPoints, the span is cut into equal time buckets and each bucket keeps the rows holding
 * its minimum and its maximum of every measured value, at their real times: a chart of the
 * result still shows every excursion, which an average would flatten. Buckets are sized so
 * the answer stays within maxPoints (2 rows per measured value per bucket at most).
 */
export async function history(db: Db, scope: Scope, a: HistoryArgs) {
  const sensor = await sensorInScope(db, scope, a.deviceNo);
  if (!sensor) return undefined;
  const zone = { tempMin: sensor.tempMin, tempMax: sensor.tempMax, humMin: sensor.humMin, humMax: sensor.humMax };
  // The periods its current carrier's readings were invalid (invalid rules): shaded on the chart.
  const excluded = await excludedPeriods(db, scope, sensor.carrierId, a.start, a.end);
  // Long spans read the rollups: counting and bucketing months of raw readings is what they exist to avoid.
  if (a.end - a.start > ROLLUP_AFTER_MS && sensor.type !== 'magnet') return fromRollups(db, sensor, a, { deviceNo: a.deviceNo, carrierId: sensor.carrierId, type: sensor.type, zone, excluded });
  const range = [sensor.id, new Date(a.start), new Date(a.end), sensor.customerId];
  const [{ n }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM reading WHERE sensor_id = $1 AND ts >= $2 AND ts <= $3 AND customer_id = $4', range);
  const base = { deviceNo: a.deviceNo, carrierId: sensor.carrierId, type: sensor.type, total: n, zone, excluded };

  if (n <= a.maxPoints) {
    const points = await db.query<HistoryPoint>(`SELECT ${POINT_COLS} FROM reading WHERE sensor_id = $1 AND ts >= $2 AND ts <= $3 AND customer_id = $4 ORDER BY reading.ts`, range);
    return { ...base, points, downsampled: false, source: 'raw' as const };
  }

  const kinds = measured(sensor.type);
  const buckets = Math.max(1, Math.floor(a.maxPoints / (2 * kinds.length)));
  const width = Math.max(1, Math.ceil((a.end - a.start + 1) / buckets));
  // Column names come from the closed list above, never from input.
  const picks = kinds.flatMap((k) =>
    ['ASC', 'DESC'].map((dir) => `(SELECT DISTINCT ON (b) * FROM r WHERE ${k} IS NOT NULL ORDER BY b, ${k} ${dir}, ts)`),
  );
  const points = await db.query<HistoryPoint>(
    `WITH r AS MATERIALIZED (
       SELECT ts, temp, hum, volt, rssi, lqi, gas, door, floor((extract(epoch from ts) * 1000 - $5) / $6)::int AS b
         FROM reading WHERE sensor_id = $1 AND ts >= $2 AND ts <= $3 AND customer_id = $4)
     SELECT ${POINT_COLS} FROM (${picks.join(' UNION ')}) p ORDER BY ts`,
    [...range, a.start, width],
  );
  return { ...base, points, downsampled: true, source: 'raw' as const };
}

/** Spans longer than this are answered from the rollups (ingest/rollup.ts). */
export const ROLLUP_AFTER_MS = 7 * 86_400_000;

const FIVE_MIN = 300_000;
const HOUR = 3_600_000;

/**
 * A long span from the rollups: the 5-minute table when its buckets fit maxPoints (two points
 * each), else the hourly one, grouped further into equal widths when even that is too many.
 * Each group gives its minima at its first reading's time and its maxima at its last's.
 */
async function fromRollups(db: Db, sensor: { id: number; customerId: number }, a: HistoryArgs, base: Omit<HistoryResult, 'points' | 'downsampled' | 'source' | 'total'>): Promise<HistoryResult> {
  const span = a.end - a.start + 1;
  const pairs = Math.max(1, Math.floor(a.maxPoints / 2));
  const source = span / FIVE_MIN <= pairs ? '5m' : '1h';
  const unit = source === '5m' ? FIVE_MIN : HOUR;
  const width = Math.max(unit, Math.ceil(span / pairs / unit) * unit);
  const table = source === '5m' ? 'reading_5m' : 'reading_1h';
  const from = Math.floor(a.start / unit) * unit;
  const groups = await db.query<{ first: number; last: number; n: number; tmin: number | null; tmax: number | null; hmin: number | null; hmax: number | null; gmin: number | null; gmax: number | null }>(
    `SELECT (extract(epoch from min(first_ts)) * 1000)::bigint AS first, (extract(epoch from max(last_ts)) * 1000)::bigint AS last, sum(n)::int AS n,
            round(min(temp_min)::numeric, 2)::float8 AS tmin, round(max(temp_max)::numeric, 2)::float8 AS tmax,
            round(min(hum_min)::numeric, 2)::float8 AS hmin, round(max(hum_max)::numeric, 2)::float8 AS hmax,
            round(min(gas_min)::numeric, 2)::float8 AS gmin, round(max(gas_max)::numeric, 2)::float8 AS gmax
       FROM ${table} WHERE sensor_id = $1 AND bucket >= $2 AND bucket <= $3 AND customer_id = $6
      GROUP BY floor((extract(epoch from bucket) * 1000 - $4) / $5) ORDER BY 1`,
    [sensor.id, new Date(from), new Date(a.end), from, width, sensor.customerId],
  );
  const point = (ts: number, temp: number | null, hum: number | null, gas: number | null): HistoryPoint => ({ ts, temp, hum, volt: null, rssi: null, lqi: null, gas, door: null });
  const points = groups.flatMap((g) =>
    g.first === g.last ? [point(g.first, g.tmin, g.hmin, g.gmin)] : [point(g.first, g.tmin, g.hmin, g.gmin), point(g.last, g.tmax, g.hmax, g.gmax)],
  );
  return { ...base, total: groups.reduce((t, g) => t + g.n, 0), points, downsampled: true, source };
}
