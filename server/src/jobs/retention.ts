import { sql } from 'kysely';
import type { Db } from '../platform/db/client.js';
import { crossTenant } from '../platform/db/kysely.js';
import { get as param } from '../modules/param/param.repository.js';
import { dropPartitionsBefore } from '../ingest/partitions.js';
import { trimLog } from '../platform/audit/chain.js';

const DAY_MS = 86_400_000;

/**
 * Retention of spec §3's server settings, for every customer at once:
 * - sensor history (`sensor_history_retention_days`): whole monthly partitions of `reading`
 *   past the cutoff are dropped, the straddling month is deleted by row, rollups likewise;
 * - logs (`log_retention_days`): the system log and the ingest reject log;
 * - export files (`export_retention_days`): stored files of kind 'export';
 * - cache (`cache_retention_days`): spent captchas, login QR keys and sessions, finished job runs.
 * Answers what it removed (rows, and the partitions dropped), for /sys/scheduled.
 */
export async function enforceRetention(db: Db, now = Date.now()) {
  const days = async (key: Parameters<typeof param>[1]) => Number(await param(db, key));
  const k = crossTenant(db, 'retention applies to every customer\'s old rows');
  const n = (r: { numDeletedRows: bigint }[]) => r.reduce((a, x) => a + Number(x.numDeletedRows), 0);

  const history = new Date(now - (await days('sensor_history_retention_days')) * DAY_MS);
  const dropped = await dropPartitionsBefore(db, history.getTime());
  const readings = n(await k.deleteFrom('reading').where('ts', '<', history).execute());
  const rollups =
    n(await k.deleteFrom('reading_5m').where('bucket', '<', history).execute()) + n(await k.deleteFrom('reading_1h').where('bucket', '<', history).execute());

  const logsBefore = new Date(now - (await days('log_retention_days')) * DAY_MS);
  // The system log leaves only from the start of each customer's chain, by moving its anchor (docs/security.md).
  const logs =
    (await trimLog(db, logsBefore)) +
    n(await k.deleteFrom('ingest_reject').where('created_at', '<', logsBefore).execute());

  const exportsBefore = new Date(now - (await days('export_retention_days')) * DAY_MS);
  const files = n(await k.deleteFrom('stored_file').where('kind', '=', 'export').where('created_at', '<', exportsBefore).execute());

  const cacheBefore = new Date(now - (await days('cache_retention_days')) * DAY_MS);
  const nowTs = sql<Date>`now()`;
  const cache =
    n(await k.deleteFrom('captcha_spent').where('expires_at', '<', nowTs).execute()) +
    n(await k.deleteFrom('login_qr').where('expires_at', '<', cacheBefore).execute()) +
    n(await k.deleteFrom('user_session').where('expires_at', '<', nowTs).execute()) +
    n(await k.deleteFrom('job').where('state', 'in', ['done', 'failed']).where('finished_at', '<', cacheBefore).execute());

  const heartbeatsBefore = new Date(now - (await days('gateway_heartbeat_history_days')) * DAY_MS);
  const heartbeats = n(await k.deleteFrom('gateway_heartbeat').where('received_at', '<', heartbeatsBefore).execute());

  return { readings, partitions: dropped.join(', ') || '-', rollups, logs, files, cache, heartbeats };
}
