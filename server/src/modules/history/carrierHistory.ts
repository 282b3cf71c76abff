import { carrierValue, type CarrierHistoryResult, type HistoryPoint, type SampleMode } from '@coldwatch/contract';
import type { Db } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import type { Scope } from '../../platform/auth/scope.js';
import { ROLLUP_AFTER_MS } from './history.repository.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import { carrierValues, valueSensors } from './carrierValues.js';
import { excludedPeriods } from './excludedPeriods.js';

// Hot path like history.repository.ts: the carrier is found in the caller's scope first, then
// every reading query is by its sensors' ids.

export interface CarrierHistoryArgs {
  carrierId: number;
  start: number;
  end: number;
  maxPoints: number;
}

type Field = 'temp' | 'hum';
const FIELDS: Field[] = ['temp', 'hum'];
const FIVE_MIN = 300_000;
const HOUR = 3_600_000;
const point = (ts: number, temp: number | null, hum: number | null): HistoryPoint => ({ ts, temp, hum, volt: null, rssi: null, lqi: null, gas: null, door: null });

/**
 * The carrier's value over [start, end] by its sample mode, as the board shows it and the alarms
 * judge it (alarm/carrier.ts): a point whenever one of its running sensors reports. Longer than
 * a week, from the rollups. More points than maxPoints: each time bucket keeps the points of its
 * minimum and maximum of each measure, so no excursion disappears from the chart.
 */
export async function carrierHistory(db: Db, scope: Scope, a: CarrierHistoryArgs): Promise<CarrierHistoryResult | undefined> {
  const carrier = await scoped(db, scope)
    .selectFrom('carrier as c')
    .select(['c.id', 'c.customer_id', 'c.name', 'c.sample_mode', 'c.temp_min as tempMin', 'c.temp_max as tempMax', 'c.hum_min as humMin', 'c.hum_max as humMax'])
    .where('c.id', '=', a.carrierId)
    .where((eb) => sceneLimit(eb, scope, 'carrier', 'c'))
    .executeTakeFirst();
  if (!carrier) return undefined;
  // Each sensor's offline rule (alarm/offline.ts, its monitor task): a value older than that is stale, as on the board.
  const sensors = (await valueSensors(db, [carrier.id])).get(carrier.id) ?? [];
  const mode = carrier.sample_mode as SampleMode;
  const base = {
    carrierId: carrier.id,
    name: carrier.name,
    mode,
    devNos: sensors.map((s) => s.devNo),
    zone: { tempMin: carrier.tempMin, tempMax: carrier.tempMax, humMin: carrier.humMin, humMax: carrier.humMax },
    excluded: await excludedPeriods(db, scope, carrier.id, a.start, a.end),
  };
  if (!sensors.length) return { ...base, total: 0, points: [], downsampled: false, source: 'raw' };
  const ids = sensors.map((s) => s.id);

  if (a.end - a.start > ROLLUP_AFTER_MS) {
    const span = a.end - a.start + 1;
    const source = span / FIVE_MIN <= a.maxPoints / 2 ? '5m' : '1h';
    const rows = await db.query<{ sensor_id: number; b: number; tmin: number | null; tmax: number | null; hmin: number | null; hmax: number | null }>(
      `SELECT sensor_id, (extract(epoch from bucket) * 1000)::bigint AS b, temp_min AS tmin, temp_max AS tmax, hum_min AS hmin, hum_max AS hmax
         FROM ${source === '5m' ? 'reading_5m' : 'reading_1h'} WHERE sensor_id = ANY($1::int[]) AND bucket >= $2 AND bucket <= $3 AND customer_id = $4 ORDER BY bucket`,
      [ids, new Date(Math.floor(a.start / HOUR) * HOUR), new Date(a.end), carrier.customer_id],
    );
    // Per bucket: the mode over the sensors' minima, and over their maxima (half a bucket later).
    const half = (source === '5m' ? FIVE_MIN : HOUR) / 2;
    const byBucket = new Map<number, typeof rows>();
    for (const r of rows) byBucket.set(Number(r.b), [...(byBucket.get(Number(r.b)) ?? []), r]);
    const of = (rs: typeof rows, k: 'tmin' | 'tmax' | 'hmin' | 'hmax') => round2(carrierValue(mode, rs.map((r) => (r[k] === null ? null : { ts: 0, value: r[k]! }))));
    const points = [...byBucket].flatMap(([b, rs]) => [point(b, of(rs, 'tmin'), of(rs, 'hmin')), point(b + half, of(rs, 'tmax'), of(rs, 'hmax'))]);
    const kept = keepExtremes(points, a);
    return { ...base, total: points.length, points: kept, downsampled: true, source };
  }

  // The sensors' readings in the span, and the one before it of each (the state the span starts from).
  const values = await carrierValues(db, { id: carrier.id, customerId: carrier.customer_id, mode, sensors }, a.start, a.end);
  const points = values.map((v) => point(v.ts, round2(v.temp), round2(v.hum)));
  if (points.length <= a.maxPoints) return { ...base, total: points.length, points, downsampled: false, source: 'raw' };
  return { ...base, total: points.length, points: keepExtremes(points, a), downsampled: true, source: 'raw' };
}

const round2 = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);

/** Equal time buckets sized for maxPoints; each keeps its points of the minimum and maximum of each measure. */
export function keepExtremes(points: HistoryPoint[], a: { start: number; end: number; maxPoints: number }): HistoryPoint[] {
  if (points.length <= a.maxPoints) return points;
  const buckets = Math.max(1, Math.floor(a.maxPoints / (2 * FIELDS.length)));
  const width = Math.max(1, Math.ceil((a.end - a.start + 1) / buckets));
  const keep = new Set<HistoryPoint>();
  const best = new Map<string, HistoryPoint>();
  for (const p of points) {
    const b = Math.floor((p.ts - a.start) / width);
    for (const f of FIELDS) {
      const v = p[f];
      if (v === null) continue;
      const lo = `${b}:${f}:min`;
      const hi = `${b}:${f}:max`;
      if (!best.has(lo) || v < best.get(lo)![f]!) best.set(lo, p);
      if (!best.has(hi) || v > best.get(hi)![f]!) best.set(hi, p);
    }
  }
  for (const p of best.values()) keep.add(p);
  return points.filter((p) => keep.has(p));
}
