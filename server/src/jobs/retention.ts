import { sql, type RawBuilder } from 'kysely';
import { EXCEPTION_STATUS, effectiveRetention } from '@coldwatch/contract';
import type { Db } from '../platform/db/client.js';
import { crossTenant } from '../platform/db/kysely.js';
import { get as param, list } from '../modules/param/param.repository.js';
import { dropPartitionsBefore } from '../ingest/partitions.js';
import { trimLog } from '../platform/audit/chain.js';

const DAY_MS = 86_400_000;

/**
 * Retention of spec §3's server settings, for every customer at once:
 * - sensor history (`sensor_history_retention_days`): whole monthly partitions of `reading`
 *   past the cutoff are dropped, the straddling month is deleted by row, rollups likewise;
 * - logs (`log_retention_days`): the system log (from the start of each customer's hash chain)
 *   and the ingest reject log;
 * - export files (`export_retention_days`): download records of kind 'export' (their files go
 *   with them) that ended before the cutoff (docs/exports.md); a record still "generating" whose
 *   export run is gone (failed for good, deleted) ends failed, never generating for ever;
 * - cache (`cache_retention_days`): spent captchas, login QR keys and sessions, finished job runs;
 * - positions (`gps_history_retention_days`): trip_position rows, but those of a trip under way.
 * Records are GxP records: under `gxpRecords` (the default; GXP_RECORDS=off turns it off) the
 * history and the log are kept at least 5 years whatever is stored, and the log never less
 * than the history (effectiveRetention). Nothing an open exception refers to goes: the
 * readings and rollups of its sensor from its start on, and its customer's log rows from its
 * start on. Nor what a verification task (mapping study) refers to, as long as the task exists:
 * its figures are computed from its points' readings whenever it is opened, so the readings of
 * its recording and its customer's log rows from the recording's start on stay. Exceptions and
 * notices are never deleted. Answers what it removed (rows, and the partitions dropped), for
 * /sys/scheduled.
 */
export async function enforceRetention(db: Db, now = Date.now(), gxpRecords = true) {
  const days = async (key: Parameters<typeof param>[1]) => Number(await param(db, key));
  const k = crossTenant(db, 'retention applies to every customer\'s old rows');
  const n = (r: { numDeletedRows: bigint }[]) => r.reduce((a, x) => a + Number(x.numDeletedRows), 0);
  const affected = (r: { numAffectedRows?: bigint }) => Number(r.numAffectedRows ?? 0);
  const kept = effectiveRetention(await list(db), gxpRecords);
  const open = await heldStarts(db);

  const history = new Date(now - kept.history * DAY_MS);
  const oldestHeld = Math.min(...[...open.values()].map((d) => d.getTime()));
  const dropped = await dropPartitionsBefore(db, Math.min(history.getTime(), oldestHeld));
  const readings = affected(await sql`DELETE FROM reading r WHERE r.ts < ${history} AND NOT ${held(sql`r.ts`, sql`r.ts`)}`.execute(k));
  const rollups =
    affected(await sql`DELETE FROM reading_5m r WHERE r.bucket < ${history} AND NOT ${held(sql`r.bucket`, sql`r.last_ts`)}`.execute(k)) +
    affected(await sql`DELETE FROM reading_1h r WHERE r.bucket < ${history} AND NOT ${held(sql`r.bucket`, sql`r.last_ts`)}`.execute(k));

  const logsBefore = new Date(now - kept.log * DAY_MS);
  // The system log leaves only from the start of each customer's chain, by moving its anchor (docs/security.md).
  const logs =
    (await trimLog(db, logsBefore, open)) +
    n(await k.deleteFrom('ingest_reject').where('created_at', '<', logsBefore).execute());

  const nowTs = sql<Date>`now()`;
  const exportsBefore = new Date(now - (await days('export_retention_days')) * DAY_MS);
  const stale = await k
    .updateTable('download_record as d')
    .set({ status: 'failed', error: 'errors.export.interrupted', finished_at: nowTs, updated_at: nowTs })
    .where('d.status', '=', 'generating')
    .where('d.created_at', '<', sql<Date>`now() - interval '1 hour'`)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('job as j').select('j.id').whereRef('j.id', '=', 'd.job_id').where('j.state', 'in', ['queued', 'running']))))
    .executeTakeFirstOrThrow();
  const files =
    n(await k.deleteFrom('download_record').where('kind', '=', 'export').where('status', '<>', 'generating').where(sql<boolean>`coalesce(finished_at, created_at) < ${exportsBefore}`).execute()) +
    Number(stale.numUpdatedRows);

  const cacheBefore = new Date(now - (await days('cache_retention_days')) * DAY_MS);
  const cache =
    n(await k.deleteFrom('captcha_spent').where('expires_at', '<', nowTs).execute()) +
    n(await k.deleteFrom('login_qr').where('expires_at', '<', cacheBefore).execute()) +
    n(await k.deleteFrom('user_session').where('expires_at', '<', nowTs).execute()) +
    n(await k.deleteFrom('job').where('state', 'in', ['done', 'failed']).where('finished_at', '<', cacheBefore).execute());

  const heartbeatsBefore = new Date(now - (await days('gateway_heartbeat_history_days')) * DAY_MS);
  const heartbeats = n(await k.deleteFrom('gateway_heartbeat').where('received_at', '<', heartbeatsBefore).execute());

  // Positions of carriers in transport mode (spec §3 "GPS history retention (days)"): a trip still under way keeps its whole route.
  const positionsBefore = new Date(now - (await days('gps_history_retention_days')) * DAY_MS);
  const positions = affected(
    await sql`DELETE FROM trip_position p WHERE p.ts < ${positionsBefore}
                AND NOT EXISTS (SELECT 1 FROM trip t WHERE t.id = p.trip_id AND t.end_ts IS NULL)`.execute(k),
  );

  return { readings, partitions: dropped.join(', ') || '-', rollups, logs, files, cache, heartbeats, positions };
}

/** Not closed, or still going on: its records stay (exception_record.status 2 is closed). */
const OPEN = sql`(e.status <> ${EXCEPTION_STATUS.closed} OR e.ongoing)`;

/**
 * A row of sensor `r.sensor_id` spanning `first`..`last` (one instant for a reading, a bucket for
 * a rollup) that an open exception of that sensor covers (from its start on), or that lies in the
 * recording of a verification task the sensor is a point of.
 */
const held = (first: RawBuilder<unknown>, last: RawBuilder<unknown>) =>
  sql`(EXISTS (SELECT 1 FROM exception_record e WHERE ${OPEN} AND e.sensor_id = r.sensor_id AND ${last} >= e.start_ts)
       OR EXISTS (SELECT 1 FROM verify_task_device d JOIN verify_task v ON v.id = d.task_id
                   WHERE d.sensor_id = r.sensor_id AND ${last} >= v.record_start AND ${first} <= coalesce(v.ended_at, v.end_time)))`;

/**
 * Each customer's oldest held moment, keyed by its system-log chain (the customer id): the start
 * of its oldest open exception or of its oldest verification task's recording.
 */
async function heldStarts(db: Db): Promise<Map<number, Date>> {
  const { rows } = await sql<{ customer_id: number; start: Date }>`
    SELECT customer_id, min(start) AS start FROM (
      SELECT e.customer_id, e.start_ts AS start FROM exception_record e WHERE ${OPEN}
      UNION ALL SELECT v.customer_id, v.record_start FROM verify_task v) held
     GROUP BY customer_id`.execute(crossTenant(db, 'retention holds every customer\'s records of its open exceptions and verification tasks'));
  return new Map(rows.map((r) => [r.customer_id, new Date(r.start)]));
}
