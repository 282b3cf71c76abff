import { sensorMeasuresHumidity, type HistoryPoint, type SensorType } from '@coldwatch/contract';
import type { Db } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import type { Scope } from '../../platform/auth/scope.js';
import { limitOf } from '../dm/records.js';
import { msColumn } from '../../platform/db/query.js';

// The reading queries below are the hot path, written as SQL (docs/data-layer.md): the sensor is
// found in the caller's scope first, and every reading query is by that sensor's id.
const r2 = (col: string, as: string) => `round(${col}::numeric, 2)::float8 AS "${as}"`;

const POINT_COLS = `${msColumn('ts', 'ts')}, ${r2('temp', 'temp')}, ${r2('hum', 'hum')}, ${r2('volt', 'volt')}, rssi, lqi, ${r2('gas', 'gas')}, door`;

/** The values a sensor type measures: the ones downsampling must keep the extremes of. */
function measured(type: SensorType): ('temp' | 'hum' | 'gas' | 'door')[] {
  if (type === 'gas') return ['gas'];
  if (type === 'magnet') return ['door'];
  return sensorMeasuresHumidity(type) ? ['temp', 'hum'] : ['temp'];
}

export interface HistoryArgs {
  deviceNo: string;
  start: number;
  end: number;
  maxPoints: number;
}

/**
 * A sensor's readings between start and end (inclusive, ms). When there are more than
 * maxPoints, the span is cut into equal time buckets and each bucket keeps the rows holding
 * its minimum and its maximum of every measured value, at their real times: a chart of the
 * result still shows every excursion, which an average would flatten. Buckets are sized so
 * the answer stays within maxPoints (2 rows per measured value per bucket at most).
 */
export async function history(db: Db, scope: Scope, a: HistoryArgs) {
  const sensor = await scoped(db, scope)
    .selectFrom('sensor as x')
    .leftJoin('carrier as c', 'c.id', 'x.carrier_id')
    .select(['x.id', 'x.type', 'c.temp_min as tempMin', 'c.temp_max as tempMax', 'c.hum_min as humMin', 'c.hum_max as humMax'])
    .where('x.dev_no', '=', a.deviceNo)
    .where((eb) => limitOf(eb, scope, 'sensor', 'x'))
    .executeTakeFirst()
    .then((r) => r && { ...r, type: r.type as SensorType });
  if (!sensor) return undefined;
  const range = [sensor.id, new Date(a.start), new Date(a.end)];
  const [{ n }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM reading WHERE sensor_id = $1 AND ts >= $2 AND ts <= $3', range);
  const zone = { tempMin: sensor.tempMin, tempMax: sensor.tempMax, humMin: sensor.humMin, humMax: sensor.humMax };
  const base = { deviceNo: a.deviceNo, type: sensor.type, total: n, zone };

  if (n <= a.maxPoints) {
    const points = await db.query<HistoryPoint>(`SELECT ${POINT_COLS} FROM reading WHERE sensor_id = $1 AND ts >= $2 AND ts <= $3 ORDER BY ts`, range);
    return { ...base, points, downsampled: false };
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
       SELECT ts, temp, hum, volt, rssi, lqi, gas, door, floor((extract(epoch from ts) * 1000 - $4) / $5)::int AS b
         FROM reading WHERE sensor_id = $1 AND ts >= $2 AND ts <= $3)
     SELECT ${POINT_COLS} FROM (${picks.join(' UNION ')}) p ORDER BY ts`,
    [...range, a.start, width],
  );
  return { ...base, points, downsampled: true };
}
