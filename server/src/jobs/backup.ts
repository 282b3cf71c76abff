import type { AppDeps } from '../deps.js';
import { JobRunner, type JobLog } from '../platform/jobs/runner.js';
import { BACKUP_JOB, runBackup } from '../modules/backup/backup.service.js';

/*
 * The daily whole-database backup (GxP: monitoring data backed up every day; modules/backup,
 * docs/operations.md "Backups"), at BACKUP_AT local time, shown on /sys/scheduled with "run now"
 * like every job. It has a runner of its own: a runner does one job at a time, and a dump of a
 * large database takes minutes, during which presence and rollups must go on. Its lease is
 * long for the same reason (a shorter one would let another replica start a second dump
 * beside a slow first one). A failed run is retried (three tries) and shows on /sys/scheduled.
 */

export { BACKUP_JOB };
const DAY_S = 86_400;

/** The next time of day `hhmm` (local time) after `now`. */
export function nextAt(hhmm: string, now: number): Date {
  const [h, m] = hhmm.split(':').map(Number);
  const d = new Date(now);
  d.setHours(h, m, 0, 0);
  if (d.getTime() <= now) d.setDate(d.getDate() + 1);
  return d;
}

const size = (bytes: number) => (bytes >= 1 << 30 ? `${(bytes / 2 ** 30).toFixed(2)} GB` : `${(bytes / 2 ** 20).toFixed(1)} MB`);

export interface BackupJob {
  runner: JobRunner;
  stop(): Promise<void>;
}

export async function startBackupJob(deps: AppDeps, log: JobLog, pollMs?: number): Promise<BackupJob> {
  const { db, config } = deps;
  const abort = new AbortController();
  // Polled every 5 s, not every second: "run now" starts within seconds, and the database is asked less.
  const runner = new JobRunner(db, log, pollMs ?? 5_000);
  /*
   * The runner moves a schedule on by its interval from when it fired; pinned to the time of
   * day here instead, so that a run made late (the console was down, or "run now") does not
   * shift the backups of the days after it. A missed time stays due and runs at the start.
   */
  const pin = () =>
    db.query(`UPDATE job_schedule SET next_run_at = $2 WHERE name = $1 AND next_run_at > now()`, [BACKUP_JOB, nextAt(config.backupAt, Date.now())]);
  await db.query(`INSERT INTO job_schedule (name, every_s, next_run_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING`, [BACKUP_JOB, DAY_S, nextAt(config.backupAt, Date.now())]);
  runner.register(BACKUP_JOB, {
    everyS: DAY_S,
    leaseMs: 12 * 3600_000,
    maxAttempts: 3,
    run: async () => {
      const b = await runBackup({ db, backupDir: config.backupDir, databaseUrl: config.databaseUrl, replicaId: deps.replicaId }, { signal: abort.signal });
      await pin();
      return { file: b.name, kind: b.kind, size: size(b.sizeBytes), deleted: b.deleted };
    },
  });
  await pin();
  await runner.start();
  return {
    runner,
    async stop() {
      // A dump in flight is cut off (its partial file removed); the run is tried again after the restart.
      abort.abort();
      await runner.stop();
    },
  };
}
