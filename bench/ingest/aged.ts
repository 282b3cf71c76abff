/**
 * An aged database for the ingest bench (BENCH_AGED_GB): the reading table grown past that many
 * GB (heap and indexes of its partitions) before the bench's own customer is enrolled, with the
 * readings of 2,000 other sensors of another customer, one a minute over the 60 days before the
 * bench's window, in their monthly partitions (the current month's included), so the alarm path
 * meets tables and indexes of a console that has run for years rather than an empty one.
 */
import type { Db } from '../../server/src/platform/db/client.js';
import { Partitions } from '../../server/src/ingest/partitions.js';

const SENSORS = 2_000;
const FIRST_SENSOR = 1_000_000_000;
/** Rows per statement: a day of one-minute readings for the 2,000 sensors, about 0.3 GB with its index. */
const DAY_ROWS = SENSORS * 1_440;

export const readingGb = async (db: Db) =>
  Number(
    (await db.one<{ b: string }>(
      `SELECT coalesce(sum(pg_total_relation_size(i.inhrelid)), 0)::bigint AS b FROM pg_inherits i WHERE i.inhparent = 'reading'::regclass`,
    ))!.b,
  ) / 1e9;

export async function ageReadings(db: Db, gb: number): Promise<string> {
  const t0 = performance.now();
  const before = await readingGb(db);
  // Run again on the same database, the table is aged already: the second run measures it as it is.
  if (before >= gb) return `aged: the reading table is ${before.toFixed(2)} GB already`;
  const c = await db.one<{ id: number }>(
    `INSERT INTO customer (name, code) VALUES ('Aged filler', 'AGEDFILL') ON CONFLICT (name) DO UPDATE SET code = excluded.code RETURNING id`,
  );
  // Backwards from four days ago (the bench's own readings start three days ago), a day per statement.
  const end = Math.floor((Date.now() - 4 * 86_400_000) / 60_000) * 60_000;
  const parts = new Partitions(db);
  // Days already filled by an earlier, interrupted run are skipped past (their rows are there).
  let day = Number((await db.one<{ n: number }>(`SELECT count(DISTINCT ts::date)::int AS n FROM reading WHERE customer_id = $1`, [c!.id]))!.n);
  let rows = 0;
  while ((await readingGb(db)) < gb && day < 366) {
    const to = end - day * 86_400_000;
    await parts.ensureFor([to - 86_400_000, to - 60_000]);
    await db.query(
      `INSERT INTO reading (sensor_id, ts, customer_id, temp, hum, volt, rssi, lqi)
       SELECT $1 + s, to_timestamp(($2::bigint - m * 60000) / 1000.0), $3, 4 + (s + m) % 40 / 10.0, 50, 3.0, -70, 180
         FROM generate_series(0, ${SENSORS - 1}) s, generate_series(1, 1440) m`,
      [FIRST_SENSOR, to, c!.id],
    );
    rows += DAY_ROWS;
    day++;
  }
  await db.exec('VACUUM ANALYZE reading');
  return `aged: ${rows.toLocaleString('en-US')} readings of ${SENSORS} other sensors over ${day} days added, reading table ${(await readingGb(db)).toFixed(2)} GB (${((performance.now() - t0) / 1000).toFixed(0)} s)`;
}
