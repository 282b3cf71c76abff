import { MKT_DH_DEFAULT } from '@coldwatch/contract';
import type { Db, Queryable } from '../platform/db/client.js';

/*
 * Rollups of readings (docs/jobs.md "Rollups"): per sensor and customer (a lent sensor reports
 * for two, docs/devices.md "Lending"), 5-minute and hourly buckets with
 * min, max, sum and count of each measured value and the bucket's first and last reading time.
 * The writer marks the 5-minute buckets its readings fall in (rollup_pending, same
 * transaction); this pass takes a batch of them, recomputes each from the raw readings (so a
 * late reading, a redelivery or a back-fill gives the same answer as a reading on time) and
 * then recomputes the hours they belong to from the 5-minute rows. Hand-written SQL: it is
 * part of the ingest hot path (docs/data-layer.md).
 *
 * Temperature and humidity also keep the time-weighted sums of the statistics (migration 0038,
 * docs/statistics.md "Rollups"): within a bucket each reading weighs the time until the next
 * one, and the bucket keeps its first and last reading time and its last value, so that the
 * statistics add the weight of the last reading (the gap to whatever follows) themselves and
 * an hour is its 5-minute buckets plus the gaps between them, exactly.
 */

export const ROLLUP_BUCKET_MS = 5 * 60_000;

const METRICS = ['temp', 'hum', 'gas'] as const;

const fromRaw = METRICS.map((m) => `min(r.${m}), max(r.${m}), sum(r.${m}), count(r.${m})`).join(', ');
const fromFive = METRICS.map((m) => `min(f.${m}_min), max(f.${m}_max), sum(f.${m}_sum), sum(f.${m}_n)::int`).join(', ');
const cols = METRICS.map((m) => `${m}_min, ${m}_max, ${m}_sum, ${m}_n`).join(', ');
/** The measures with time-weighted sums; temperature also has the MKT sum (temp_sk). */
const WEIGHTED = ['temp', 'hum'] as const;
const wcols = WEIGHTED.flatMap((m) => [`${m}_t0`, `${m}_t1`, `${m}_last`, `${m}_sw`, `${m}_sw2`, ...(m === 'temp' ? ['temp_sk'] : [])]);
const update = ['n', 'first_ts', 'last_ts', ...METRICS.flatMap((m) => [`${m}_min`, `${m}_max`, `${m}_sum`, `${m}_n`]), ...wcols]
  .map((c) => `${c} = EXCLUDED.${c}`)
  .join(', ');

/** The MKT term of a value at the default ΔH/R (0 for a value at or below absolute zero, which no sensor reads). */
export const mktTermSql = (v: string) => `CASE WHEN ${v} > -273.15 THEN exp(-${MKT_DH_DEFAULT} / (${v} + 273.15)) ELSE 0 END`;

/** Σ w·v, Σ w·v² (and for temperature Σ w·exp(−ΔH/R / T)) of one measure, w and v being SQL expressions. */
const weightedSums = (m: string, w: string, v: string) => [
  `coalesce(sum(${w} * ${v}), 0)`,
  `coalesce(sum(${w} * ${v} * ${v}), 0)`,
  ...(m === 'temp' ? [`coalesce(sum(${w} * ${mktTermSql(v)}), 0)`] : []),
];

/**
 * From the raw readings: each reading weighs the time to the next reading of the same measure
 * within the bucket (lead over the readings where it is not null); the last one weighs nothing here.
 */
const weightedFromRaw = WEIGHTED.map((m) =>
  [
    `min(r.ts) FILTER (WHERE r.${m} IS NOT NULL)`,
    `max(r.ts) FILTER (WHERE r.${m} IS NOT NULL)`,
    `(array_agg(r.${m}::float8 ORDER BY r.ts DESC) FILTER (WHERE r.${m} IS NOT NULL))[1]`,
    ...weightedSums(m, `r.${m}_w`, `r.${m}::float8`),
  ].join(', '),
).join(', ');
const rawWeights = WEIGHTED.map((m) => `extract(epoch from lead(ts) OVER (PARTITION BY customer_id, ${m} IS NULL ORDER BY ts) - ts)::float8 AS ${m}_w`).join(', ');

/**
 * From the 5-minute rows of an hour: their sums, plus each bucket's last value weighing the gap
 * to the next bucket's first reading of the measure (f.m_g; null after the hour's last one).
 */
const weightedFromFive = WEIGHTED.map((m) => {
  const [sw, sw2, sk] = weightedSums(m, `f.${m}_g`, `f.${m}_last`);
  return [
    `min(f.${m}_t0)`,
    `max(f.${m}_t1)`,
    `(array_agg(f.${m}_last ORDER BY f.${m}_t1 DESC) FILTER (WHERE f.${m}_t1 IS NOT NULL))[1]`,
    `coalesce(sum(f.${m}_sw), 0) + ${sw}`,
    `coalesce(sum(f.${m}_sw2), 0) + ${sw2}`,
    ...(sk ? [`coalesce(sum(f.temp_sk), 0) + ${sk}`] : []),
  ].join(', ');
}).join(', ');
const fiveGaps = WEIGHTED.map(
  (m) => `extract(epoch from min(${m}_t0) OVER (PARTITION BY customer_id ORDER BY bucket ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING) - ${m}_t1)::float8 AS ${m}_g`,
).join(', ');

/**
 * One batch: at most `limit` pending buckets, in one transaction (a failure leaves them
 * pending). Answers how many buckets it took; 0 = nothing left.
 */
export async function rollupPass(db: Db, limit = 2000): Promise<number> {
  return db.tx(async (q) => {
    const taken = await q.query<{ sensor_id: number; bucket: Date }>(
      `DELETE FROM rollup_pending p USING (
         SELECT sensor_id, bucket FROM rollup_pending ORDER BY bucket LIMIT $1 FOR UPDATE SKIP LOCKED) t
        WHERE p.sensor_id = t.sensor_id AND p.bucket = t.bucket
        RETURNING p.sensor_id, p.bucket`,
      [limit],
    );
    if (!taken.length) return 0;
    const sensors = taken.map((t) => t.sensor_id);
    const buckets = taken.map((t) => t.bucket);
    // The taken buckets are rebuilt from scratch: deleted, then inserted where readings remain
    // (a bucket whose readings are all gone, by retention, leaves no row). Both statements are
    // key lookups, whatever the planner knows of a freshly filled partition.
    await q.query(`DELETE FROM reading_5m f USING unnest($1::int[], $2::timestamptz[]) AS t(s, b) WHERE f.sensor_id = t.s AND f.bucket = t.b`, [sensors, buckets]);
    // One index range scan per bucket (LATERAL): the plan must not depend on the statistics of
    // a partition that was just filled and not analysed yet.
    await q.query(
      `INSERT INTO reading_5m (sensor_id, bucket, customer_id, n, first_ts, last_ts, ${cols}, ${wcols.join(', ')})
       SELECT t.s, t.b, a.* FROM unnest($1::int[], $2::timestamptz[]) AS t(s, b)
       CROSS JOIN LATERAL (
         SELECT r.customer_id, count(*) AS total, min(r.ts), max(r.ts), ${fromRaw}, ${weightedFromRaw}
           FROM (SELECT *, ${rawWeights} FROM reading WHERE sensor_id = t.s AND ts >= t.b AND ts < t.b + interval '5 minutes') r
          GROUP BY r.customer_id) a
       ON CONFLICT (sensor_id, bucket, customer_id) DO UPDATE SET ${update}`,
      [sensors, buckets],
    );
    const hours = new Map<string, [number, number]>();
    for (const t of taken) {
      const h = Math.floor(t.bucket.getTime() / 3_600_000) * 3_600_000;
      hours.set(`${t.sensor_id}:${h}`, [t.sensor_id, h]);
    }
    const hs = [...hours.values()];
    const hSensors = hs.map((h) => h[0]);
    const hStarts = hs.map((h) => new Date(h[1]));
    await q.query(`DELETE FROM reading_1h h USING unnest($1::int[], $2::timestamptz[]) AS t(s, b) WHERE h.sensor_id = t.s AND h.bucket = t.b`, [hSensors, hStarts]);
    await q.query(
      `INSERT INTO reading_1h (sensor_id, bucket, customer_id, n, first_ts, last_ts, ${cols}, ${wcols.join(', ')})
       SELECT t.s, t.b, a.* FROM unnest($1::int[], $2::timestamptz[]) AS t(s, b)
       CROSS JOIN LATERAL (
         SELECT f.customer_id, sum(f.n)::int AS n, min(f.first_ts), max(f.last_ts), ${fromFive}, ${weightedFromFive}
           FROM (SELECT *, ${fiveGaps} FROM reading_5m WHERE sensor_id = t.s AND bucket >= t.b AND bucket < t.b + interval '1 hour') f
          GROUP BY f.customer_id) a
       ON CONFLICT (sensor_id, bucket, customer_id) DO UPDATE SET ${update}`,
      [hSensors, hStarts],
    );
    return taken.length;
  });
}

/**
 * Marks every 5-minute bucket of a sensor's readings between from and to (UTC ms) for the
 * rollup job: for readings written outside the ingest writer (the demo's seeded history).
 */
export async function markForRollup(q: Queryable, sensorId: number, from: number, to: number) {
  await q.query(
    `INSERT INTO rollup_pending (sensor_id, bucket)
     SELECT DISTINCT sensor_id, to_timestamp(floor(extract(epoch from ts) / 300) * 300) FROM reading
      WHERE sensor_id = $1 AND ts >= to_timestamp($2 / 1000.0) AND ts <= to_timestamp($3 / 1000.0)
     ON CONFLICT DO NOTHING`,
    [sensorId, from, to],
  );
}

/** Runs passes until nothing is pending; answers the buckets rolled up. */
export async function rollupAll(db: Db): Promise<number> {
  let total = 0;
  for (let n = await rollupPass(db); n > 0; n = await rollupPass(db)) total += n;
  return total;
}
