import { sql } from 'kysely';
import { NOTICE_STATUS } from '@coldwatch/contract';
import type { AppDeps } from '../deps.js';
import { crossTenant } from '../platform/db/kysely.js';
import type { Alarm } from '../alarm/index.js';
import { markSilentDevices } from '../ingest/presence.js';
import { rollupAll } from '../ingest/rollup.js';
import { JobRunner, type JobLog } from '../platform/jobs/runner.js';
import { enforceRetention } from './retention.js';
import { failOverdue } from './configTimeout.js';
import { returnDueLoans } from './loanReturn.js';
import { runRelaySwitches } from './relaySwitch.js';
import { startBackupJob } from './backup.js';
import { get as paramValue } from '../modules/param/param.repository.js';

/** The console's periodic work, by name (docs/jobs.md). The names are what /sys/scheduled shows. */
export const JOB = { presence: 'presence', rollup: 'rollup', retention: 'retention', noticeRetry: 'notice-retry', configTimeout: 'config-timeout', loanReturn: 'loan-return', relaySwitch: 'relay-switch' } as const;

export interface JobOptions {
  /** The alarm whose notices the retry job sweeps; absent = no notice job (tests of other parts). */
  alarm?: Alarm;
  pollMs?: number;
}

/**
 * Registers and starts the periodic jobs: presence scan (30 s), rollups (30 s), notice
 * retries (15 s) and retention (hourly). Each survives a restart (its schedule and runs are
 * rows) and is retried with back-off when it fails.
 */
export async function startJobs(deps: AppDeps, opts: JobOptions = {}): Promise<JobRunner> {
  const { db, bus } = deps;
  const log: JobLog = (deps.log as JobLog | undefined) ?? console;
  const runner = new JobRunner(db, log, opts.pollMs);
  runner.register(JOB.presence, {
    everyS: 30,
    leaseMs: 60_000,
    run: async () => ({ offline: await markSilentDevices(db, bus) }),
  });
  runner.register(JOB.rollup, {
    everyS: 30,
    run: async () => ({ buckets: await rollupAll(db) }),
  });
  runner.register(JOB.retention, { everyS: 3600, leaseMs: 30 * 60_000, run: () => enforceRetention(db, Date.now(), deps.config.gxpRecords) });
  runner.register(JOB.configTimeout, {
    everyS: 60,
    run: async () => ({ failed: await failOverdue(db, Number(await paramValue(db, 'sensor_config_timeout_minutes'))) }),
  });
  runner.register(JOB.relaySwitch, { everyS: 10, run: () => runRelaySwitches(deps) });
  runner.register(JOB.loanReturn, { everyS: 60, run: async () => ({ returned: await returnDueLoans(db, bus) }) });
  const alarm = opts.alarm;
  if (alarm) {
    runner.register(JOB.noticeRetry, {
      everyS: 15,
      run: async () => {
        await alarm.sweepNotices();
        const rows = await crossTenant(db, 'the notice queue of every customer')
          .selectFrom('notice_log')
          .select(['status', sql<number>`count(*)::int`.as('n')])
          .where('status', 'in', [NOTICE_STATUS.pending, NOTICE_STATUS.failed])
          .groupBy('status')
          .execute();
        const of = (st: number) => rows.find((r) => r.status === st)?.n ?? 0;
        return { waiting: of(NOTICE_STATUS.pending), failed: of(NOTICE_STATUS.failed) };
      },
    });
  }
  await runner.start();
  // The daily backup, on a runner of its own (jobs/backup.ts says why); stopping the jobs stops it too.
  const backup = await startBackupJob(deps, log, opts.pollMs);
  const stopOthers = runner.stop.bind(runner);
  runner.stop = async () => void (await Promise.all([backup.stop(), stopOthers()]));
  deps.jobs = runner;
  return runner;
}
