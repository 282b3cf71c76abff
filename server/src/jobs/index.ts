import { sql } from 'kysely';
import { NOTICE_STATUS } from '@coldwatch/contract';
import type { AppDeps } from '../deps.js';
import { crossTenant } from '../platform/db/kysely.js';
import type { Alarm } from '../alarm/index.js';
import { scanDevices } from '../ingest/presence.js';
import { rollupAll } from '../ingest/rollup.js';
import { JobRunner, type JobLog } from '../platform/jobs/runner.js';
import { enforceRetention } from './retention.js';
import { failOverdue } from './configTimeout.js';
import { returnDueLoans } from './loanReturn.js';
import { runRelaySwitches } from './relaySwitch.js';
import { runDisplayBuzzers } from './displayBuzzer.js';
import { startBackupJob } from './backup.js';
import { Forwarder } from './forward/forwarder.js';
import { sendCalibrationNotices } from '../alarm/calibration.js';
import { advanceChains } from '../alarm/noticeChain.js';
import { resumeDuePauses } from '../alarm/pause.js';
import { advanceVerifyTasks } from './verifyTask.js';
import { get as paramValue } from '../modules/param/param.repository.js';
import { registerExportJob } from './export/index.js';
import { runReportSchedule } from './reportSchedule.js';
import { vacuumEmbedded } from '../platform/db/vacuum.js';

/** The console's periodic work, by name (docs/jobs.md). The names are what /sys/scheduled shows. */
export const JOB = { presence: 'presence', rollup: 'rollup', retention: 'retention', noticeRetry: 'notice-retry', configTimeout: 'config-timeout', loanReturn: 'loan-return', relaySwitch: 'relay-switch', calibrationNotice: 'calibration-notice', displayBuzzer: 'display-buzzer', verifyTask: 'verify-task', alarmNotice: 'alarm-notice', alarmResume: 'alarm-resume', reportSchedule: 'report-schedule', vacuum: 'vacuum' } as const;

export interface JobOptions {
  /** The alarm whose notices the retry job sweeps; absent = no notice job (tests of other parts). */
  alarm?: Alarm;
  pollMs?: number;
  /** Forwarding to external servers (jobs/forward); false in tests of other parts that need no worker polling. */
  forward?: boolean;
}

/**
 * Registers and starts the periodic jobs: presence scan and device exceptions (30 s), rollups (30 s), notice
 * retries (15 s) and retention (hourly). Each survives a restart (its schedule and runs are
 * rows) and is retried with back-off when it fails.
 */
export async function startJobs(deps: AppDeps, opts: JobOptions = {}): Promise<JobRunner> {
  const { db, bus } = deps;
  const log: JobLog = (deps.log as JobLog | undefined) ?? console;
  const runner = new JobRunner(db, log, opts.pollMs);
  // The presence scan: retried by the runner when it fails (a database that went away is retried
  // as soon as it is back), and idempotent, so each device exception opens once (ingest/presence.ts).
  runner.register(JOB.presence, {
    everyS: 30,
    leaseMs: 60_000,
    run: async () => {
      const figures = await scanDevices(db, bus);
      // Its notices go out now rather than at the next notice sweep.
      if (figures.notices > 0) void opts.alarm?.sweepNotices();
      return { ...figures };
    },
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
  runner.register(JOB.displayBuzzer, { everyS: 5, run: () => runDisplayBuzzers(deps) });
  // Each sensor's calibration expiry notice, once, at its notice date (alarm/calibration.ts).
  runner.register(JOB.calibrationNotice, {
    everyS: 300,
    run: async () => {
      const r = await sendCalibrationNotices(db, Date.now());
      if (r.notices > 0) void opts.alarm?.sweepNotices();
      return r;
    },
  });
  // Verification tasks move along their times and tell their contacts (jobs/verifyTask.ts).
  runner.register(JOB.verifyTask, {
    everyS: 30,
    run: async () => {
      const r = await advanceVerifyTasks(db, Date.now());
      if (r.notices > 0) void opts.alarm?.sweepNotices();
      return r;
    },
  });
  // Repeats, time points, escalation and end notices of the alarm triggers: every open chain in one pass (alarm/noticeChain.ts).
  runner.register(JOB.alarmNotice, {
    everyS: 15,
    run: async () => {
      const r = await db.tx((q) => advanceChains(q));
      if (r.notices > 0) void opts.alarm?.sweepNotices();
      return { ...r };
    },
  });
  // Alarm pauses that reached their end resume, each logged in the alarm-switch log, and their
  // still-ongoing excursions are told (alarm/pause.ts).
  runner.register(JOB.alarmResume, {
    everyS: 30,
    run: async () => {
      const r = await db.tx((q) => resumeDuePauses(q));
      if (r.notices > 0) void opts.alarm?.sweepNotices();
      return { ...r };
    },
  });
  // Scheduled reports of the print groups: each period's report once, e-mailed as PDF (jobs/reportSchedule.ts).
  runner.register(JOB.reportSchedule, {
    everyS: 300,
    leaseMs: 30 * 60_000,
    run: async () => {
      const r = await runReportSchedule(db);
      if (r.mails > 0) void opts.alarm?.sweepNotices();
      return r;
    },
  });
  // PGlite has no autovacuum: its tables' dead rows and planner statistics, hourly (platform/db/vacuum.ts); nothing on PostgreSQL.
  runner.register(JOB.vacuum, { everyS: 3600, leaseMs: 30 * 60_000, run: () => vacuumEmbedded(db) });
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
  // Exports (issue 30): a lane of their own, so a long one holds up none of the jobs above (jobs/export).
  registerExportJob(runner, db);
  await runner.start();
  // The daily backup, on a runner of its own (jobs/backup.ts says why); stopping the jobs stops it too.
  const backup = await startBackupJob(deps, log, opts.pollMs);
  // The forwarder: long-running workers, one per server, beside the runner (jobs/forward/forwarder.ts says why).
  const forwarder = opts.forward === false ? null : new Forwarder(db, log).start(deps.metrics);
  const stopOthers = runner.stop.bind(runner);
  runner.stop = async () => void (await Promise.all([backup.stop(), forwarder?.stop(), stopOthers()]));
  deps.jobs = runner;
  return runner;
}
