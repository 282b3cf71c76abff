import type { Locale } from '@coldwatch/contract';
import type { Db } from '../../platform/db/client.js';
import { isConnectionError } from '../../platform/db/outage.js';
import type { JobFigures, JobRunner } from '../../platform/jobs/runner.js';
import { EXPORT_JOB, EXPORT_LANE, type ExportPayload } from '../../modules/download/exports.js';
import { forJob, markFailed, markStarted, setProgress } from '../../modules/download/download.repository.js';
import { generate } from '../../modules/download/download.service.js';
import { removeChunks } from '../../modules/download/download.store.js';
import { tableWriter, type TableWriter } from '../../modules/download/table.js';
import { PRODUCERS } from './producers.js';
import type { ExportContext } from './context.js';

/*
 * The export job (docs/exports.md "Lifecycle"): one run per download record, in a lane of its
 * own on the runner (platform/jobs/runner.ts), so a 30 s export of a year of readings holds up
 * none of the short periodic jobs. A run reads the record, writes the table a page at a time
 * into the record's chunks and ends it generated, or failed with its reason and no chunk.
 *
 * - Cut off (the database went away under it, the process died): the run comes again (when the
 *   database is back, or when its lease runs out) and finds the record begun: it ends it failed,
 *   `interrupted`, its chunks removed. Never "generating" for ever.
 * - The console stopping aborts it: failed, `cancelled`, no chunk.
 */

/** Writes the record's progress at most this often. */
const PROGRESS_MS = 1_000;

export function registerExportJob(runner: JobRunner, db: Db) {
  // Three tries for failures of the job itself; a failed export is not retried (its record says why).
  runner.register(EXPORT_JOB, { lane: EXPORT_LANE, leaseMs: 30 * 60_000, maxAttempts: 3, run: (p, signal) => runExport(db, p as unknown as ExportPayload, signal) });
}

export async function runExport(db: Db, p: ExportPayload, signal?: AbortSignal): Promise<JobFigures> {
  const rec = { id: p.recordId, customerId: p.customerId };
  const r = await forJob(db, rec);
  if (!r || r.status !== 'generating') return { skipped: 1 };
  if (r.startedAt) {
    // A try began and never ended: its file is incomplete. The user generates it again.
    await removeChunks(db, rec);
    await markFailed(db, rec, 'errors.export.interrupted');
    return { interrupted: 1 };
  }
  if (!(await markStarted(db, rec))) return { skipped: 1 };
  const criteria = r.criteria as Record<string, unknown>;
  const produce = PRODUCERS[r.source as keyof typeof PRODUCERS];
  if (!produce) {
    await markFailed(db, rec, `errors.export.failed|unknown export ${r.source}`);
    return { failed: 1 };
  }
  let last = 0;
  let lastPct = -1;
  const ctx: ExportContext = {
    db,
    scope: { userId: r.userId, customerIds: p.scope.customerIds, sceneIds: p.scope.sceneIds },
    criteria,
    locale: (criteria.locale as Locale | undefined) ?? 'zh-CN',
    exportedBy: r.userName || r.account,
    now: Date.now(),
    progress: (done) => {
      const pct = Math.floor(done * 100);
      if (pct === lastPct || Date.now() - last < PROGRESS_MS) return;
      last = Date.now();
      lastPct = pct;
      setProgress(db, rec, pct).catch(() => undefined);
    },
    checkpoint: () => {
      if (signal?.aborted) throw new Error('errors.export.cancelled');
    },
  };
  let rows = 0;
  try {
    const file = await generate(
      db,
      rec,
      async (sink) => {
        const table: TableWriter = tableWriter(r.format === 'csv' ? 'csv' : 'xlsx', sink);
        rows = await produce(ctx, table, r.format === 'csv' ? 'csv' : 'xlsx');
        await table.end();
      },
      () => rows,
    );
    return { rows, bytes: file.size };
  } catch (err) {
    // The database went away: the runner tries again once it is back, and that try ends the record (above).
    if (isConnectionError(err)) throw err;
    return { failed: 1 };
  }
}
