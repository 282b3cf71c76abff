import { sensorMeasuresHumidity, type SensorType } from '@coldwatch/contract';
import type { Db } from '../../platform/db/client.js';
import { carrierWhere, scopeWhere, type Scope } from '../../platform/auth/scope.js';
import { msCol } from '../dm/records.js';
import { r2 } from '../dm/dm.repository.js';

const POINT_COLS = `${msCol('ts', 'ts')}, ${r2('temp', 'temp')}, ${r2('hum', 'hum')}, ${r2('volt', 'volt')}, rssi, lqi, ${r2('gas', 'gas')}, door`;

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
  const params: unknown[] = [a.deviceNo];
  const sensor = await db.one<{ id: number; type: SensorType; tempMin: number | null; tempMax: number | null; humMin: number | null; humMax: number | null }>(
    `SELECT x.id, x.type, c.temp_min AS "tempMin", c.temp_max AS "tempMax", c.hum_min AS "humMin", c.hum_max AS "humMax"
       FROM sensor x LEFT JOIN carrier c ON c.id = x.carrier_id
      WHERE x.dev_no = $1 AND ${scopeWhere(scope, 'x.customer_id', params)} AND ${carrierWhere(scope, 'x.carrier_id', params)}`,
    params,
  );
  if (!sensor) return undefined;
  const range = [sensor.id, new Date(a.start), new Date(a.end)];
  const [{ n }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM reading WHERE sensor_id = $1 AND ts >= $2 AND ts <= $3', range);
  const zone = { tempMin: sensor.tempMin, tempMax: sensor.tempMax, humMin: sensor.humMin, humMax: sensor.humMax };
  const base = { deviceNo: a.deviceNo, type: sensor.type, total: n, zone };

  if (n <= a.maxPoints) {
    const points = await db.query(`SELECT ${POINT_COLS} FROM reading WHERE sensor_id = $1 AND ts >= $2 AND ts <= $3 ORDER BY ts`, range);
    return { ...base, points, downsampled: false };
  }

  const kinds = measured(sensor.type);
  const buckets = Math.max(1, Math.floor(a.maxPoints / (2 * kinds.length)));
  const width = Math.max(1, Math.ceil((a.end - a.start + 1) / buckets));
  // Column names come from the closed list above, never from input.
  const picks = kinds.flatMap((k) =>
    ['ASC', 'DESC'].map((dir) => `(SELECT DISTINCT ON (b) * FROM r WHERE ${k} IS NOT NULL ORDER BY b, ${k} ${dir}, ts)`),
  );
  const points = await db.query(
    `WITH r AS MATERIALIZED (
       SELECT ts, temp, hum, volt, rssi, lqi, gas, door, floor((extract(epoch from ts) * 1000 - $4) / $5)::int AS b
         FROM reading WHERE sensor_id = $1 AND ts >= $2 AND ts <= $3)
     SELECT ${POINT_COLS} FROM (${picks.join(' UNION ')}) p ORDER BY ts`,
    [...range, a.start, width],
  );
  return { ...base, points, downsampled: true };
}
