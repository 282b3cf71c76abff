import type { Queryable } from '../platform/db/client.js';
import { marginSql } from './segments.js';
import { boundByRules } from './excluded.js';
import { CARRIER_ALARM } from './trigger.js';

/*
 * The evaluator's fast path. Most queued windows are quiet: no reading out of the zone, the
 * readings next to the window clear, no data exception touching it. The full evaluation of such
 * a window (evaluator.ts: about a dozen statements per sensor) finds nothing to change, so these
 * windows are recognised for a whole set of sensors with one statement and dequeued by it.
 *
 * Quiet means exactly what makes the full evaluation a no-op (segments.ts): the sensor is not
 * watched (no carrier, alarm off, customer cancelled), or, for each measured field with a zone,
 * no reading of the window is out, the nearest reading before and after it is clear (inside the
 * zone by the margin) or absent, no data exception of the sensor or of its carrier's value is
 * ongoing or overlaps the window, and with a delay no reading is out in twice the delay before
 * it. Then the machine enters the window idle or ending a run too short to count (one that
 * lasted the delay is stored, ongoing, until confirmed): readings that are not out change neither,
 * so there is no run to write and no exception in the span. A band reading next to the window
 * may belong to a run (it keeps the state it finds): such a window goes to the full evaluation.
 * For a carrier judged on the aggregate of its sensors (alarm/carrier.ts) the same holds without
 * a delay: max, min, average and balanced average of clear values are clear and of values not
 * out are not out (the zone and the margin's inner zone are intervals), and a carrier value
 * already out has an ongoing exception, which makes the window not quiet; an out reading of
 * another sensor not yet evaluated is that sensor's window, whose evaluation sees this one's
 * readings after it. With a delay the carrier's value can be in a run too short to be stored,
 * which another sensor's reading may extend: those windows always get the full evaluation.
 * A window the ingest widened meanwhile has a new version and is not deleted (it stays queued).
 * Rows that an ingest batch holds are skipped, not waited for (SKIP LOCKED): the statement
 * never waits while holding rows a batch wants, so the two cannot deadlock. Skipped rows are
 * neither quiet nor loud: they are judged in a later pass, once the batch has widened them
 * (evaluating them in full then would cost a dozen statements each for nothing, and under load
 * a whole pass's rows can be held).
 */

/**
 * SQL: the value `x` (an expression) is outside the zone of carrier `k` for the field; a NULL
 * value or an unset zone is not out. Compared in float4, as readings are stored (segments.ts).
 * The ingest writer judges its batches' windows with the same test (ingest/statements.ts queueAlarms).
 */
export const outOfZone = (field: 'temp' | 'hum', x: string) =>
  `(k.${field}_min IS NOT NULL AND k.${field}_max IS NOT NULL AND (${x} > k.${field}_max::real OR ${x} < k.${field}_min::real))`;

/**
 * SQL: the value `x` is clear for carrier `k` (inside the zone by the margin in force, segments.ts
 * marginSql), or the carrier has no zone for the field. NULL for a NULL value.
 */
export const clearOfZone = (field: 'temp' | 'hum', x: string) =>
  `(k.${field}_min IS NULL OR k.${field}_max IS NULL OR
    (${x} <= (k.${field}_max - ${marginSql(field)})::real AND ${x} >= (k.${field}_min + ${marginSql(field)})::real))`;

const outTemp = (r: string) => outOfZone('temp', `${r}.temp`);
const outHum = (r: string) => outOfZone('hum', `${r}.hum`);

/** The nearest reading with a value for the field on one side of the window is there and not clear. */
const neighbourNotClear = (field: 'temp' | 'hum', side: 'before' | 'after') =>
  `coalesce((SELECT NOT ${clearOfZone(field, `n.${field}`)} FROM reading n
      WHERE n.sensor_id = k.sensor_id AND n.ts ${side === 'before' ? '< k.min_ts' : '> k.max_ts'} AND n.${field} IS NOT NULL
      ORDER BY n.ts ${side === 'before' ? 'DESC' : 'ASC'} LIMIT 1), false)`;

const DEQUEUE_QUIET = `
  WITH k AS (
    SELECT a.sensor_id, a.version, a.min_ts, a.max_ts, s.carrier_id, c.temp_min, c.temp_max, c.hum_min, c.hum_max,
           c.temp_margin, c.hum_margin, c.alarm_delay_s, c.sample_mode,
           (c.id IS NOT NULL AND c.alarm_on AND cu.status = 1) AS watched
      FROM alarm_queue a
      JOIN sensor s ON s.id = a.sensor_id
      JOIN customer cu ON cu.id = s.customer_id
      LEFT JOIN ${CARRIER_ALARM} c ON c.id = s.carrier_id
     WHERE a.sensor_id = ANY($1::int[])
     ORDER BY a.sensor_id
       FOR UPDATE OF a SKIP LOCKED
  ), judged AS (
    SELECT k.sensor_id, k.version, (NOT k.watched OR (
           -- A carrier bound by an invalid rule: its neighbours may be excluded (excluded.ts).
           NOT ${boundByRules('k.carrier_id')} AND
           NOT EXISTS (SELECT 1 FROM exception_record e
                        WHERE e.sensor_id = k.sensor_id AND e.type = 'data'
                          AND (e.ongoing OR (e.start_ts <= k.max_ts AND coalesce(e.last_ts, e.start_ts) >= k.min_ts)))
       AND NOT EXISTS (SELECT 1 FROM exception_record e
                        WHERE e.carrier_id = k.carrier_id AND e.sensor_id IS NULL AND e.type = 'data'
                          AND (e.ongoing OR (e.start_ts <= k.max_ts AND coalesce(e.last_ts, e.start_ts) >= k.min_ts)))
       AND NOT EXISTS (SELECT 1 FROM reading r
                        WHERE r.sensor_id = k.sensor_id AND r.ts >= k.min_ts AND r.ts <= k.max_ts AND (${outTemp('r')} OR ${outHum('r')}))
       AND NOT ${neighbourNotClear('temp', 'before')} AND NOT ${neighbourNotClear('temp', 'after')}
       AND NOT ${neighbourNotClear('hum', 'before')} AND NOT ${neighbourNotClear('hum', 'after')}
       AND (k.alarm_delay_s = 0 OR (k.sample_mode = 'latest' AND NOT EXISTS (
             SELECT 1 FROM reading r
              WHERE r.sensor_id = k.sensor_id AND r.ts >= k.min_ts - 2 * k.alarm_delay_s * interval '1 second' AND r.ts < k.min_ts
                AND (${outTemp('r')} OR ${outHum('r')})))))) AS quiet
      FROM k
  ), gone AS (
    DELETE FROM alarm_queue a USING judged
     WHERE judged.quiet AND a.sensor_id = judged.sensor_id AND a.version = judged.version
    RETURNING a.sensor_id
  )
  SELECT sensor_id, quiet FROM judged`;

export interface QueuedWindow {
  sensor_id: number;
  queued_at: Date;
  hot: boolean;
}

/** SQL: a window whose newest reading is this far behind the database's clock holds a gateway's buffer, not live readings. */
export const BACKFILL_BEHIND = "interval '2 minutes'";

/**
 * SQL, with the hold in milliseconds as $2: a back-filled window (ingest/statements.ts
 * queueAlarms) widened within the hold waits, so that its gateway's buffer is judged once the
 * readings after it have arrived: an excursion in the buffer is then met together with the
 * readings that end it, and told as already over instead of as a live alarm. The writer releases
 * it as soon as calm readings follow it; the hold is for a buffer that stops (or stalls) in the
 * middle of an excursion. Live readings are never held (their window is not behind the clock),
 * and no window waits longer than ten minutes after it was first queued.
 */
const READY = `NOT (backfill AND widened_at > now() - $2 * interval '1 millisecond' AND queued_at > now() - interval '10 minutes')`;

/** The next windows to evaluate: hot ones first (a reading outside the zone, migration 0027), then the longest waiting. */
export const nextWindows = (q: Queryable, holdMs: number, limit = 200) =>
  q.query<QueuedWindow>(`SELECT sensor_id, queued_at, hot_version IS NOT NULL AS hot FROM alarm_queue WHERE ${READY} ORDER BY hot DESC, queued_at LIMIT $1`, [limit, holdMs]);

/** Whether a hot window waits, ready to evaluate (a probe of the alarm_queue_next index). */
export const hotWaiting = async (q: Queryable, holdMs: number) =>
  (await q.query(`SELECT 1 FROM alarm_queue WHERE hot_version IS NOT NULL AND ${READY} ORDER BY hot_version IS NOT NULL DESC, queued_at LIMIT $1`, [1, holdMs])).length > 0;

export interface Judged {
  /** Quiet windows, dequeued by the statement. */
  quiet: Set<number>;
  /** Windows that need the full evaluation. Rows an ingest batch held are in neither set: they wait for the next pass. */
  loud: Set<number>;
}

/** Dequeues the quiet windows among these sensors' queue rows; answers which were quiet and which need the full evaluation. */
export async function dequeueQuiet(q: Queryable, sensorIds: number[]): Promise<Judged> {
  const out: Judged = { quiet: new Set(), loud: new Set() };
  if (sensorIds.length === 0) return out;
  const rows = await q.query<{ sensor_id: number; quiet: boolean }>(DEQUEUE_QUIET, [sensorIds]);
  for (const r of rows) (r.quiet ? out.quiet : out.loud).add(r.sensor_id);
  return out;
}
