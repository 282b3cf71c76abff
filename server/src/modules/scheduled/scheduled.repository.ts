import { sql } from 'kysely';
import { Code, type ScheduledJob } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import { system } from '../../platform/db/kysely.js';
import { msOf, msOrNull } from '../../platform/db/query.js';
import { AppError } from '../../platform/http/errors.js';
import { queueRun } from '../../platform/jobs/runner.js';

/** The periodic jobs: their schedule rows with whether a run is going on or waiting. */
export async function list(q: Queryable): Promise<ScheduledJob[]> {
  const k = system(q);
  const rows = await k
    .selectFrom('job_schedule as s')
    .select((eb) => {
      const runs = (state: string) => sql<boolean>`EXISTS (${eb.selectFrom('job as j').select('j.id').whereRef('j.name', '=', 's.name').where('j.state', '=', state)})`;
      return [
      's.name',
      's.every_s as everyS',
      msOrNull('s.last_run_at').as('lastRunAt'),
      's.last_state as lastState',
      's.last_result as lastResult',
      's.last_ms as lastMs',
      msOf('s.next_run_at').as('nextRunAt'),
        runs('running').as('running'),
        runs('queued').as('queued'),
      ];
    })
    .orderBy('s.name')
    .execute();
  // A success stores the run's figures as JSON, a failure its error text.
  return rows.map(({ lastResult, ...r }) => (r.lastState === 'done' ? { ...r, lastFigures: figures(lastResult), lastError: '' } : { ...r, lastFigures: null, lastError: lastResult }));
}

function figures(json: string): ScheduledJob['lastFigures'] {
  try {
    const v = JSON.parse(json) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, number | string>) : null;
  } catch {
    return null;
  }
}

/** Queues a manual run of a scheduled job; at most one manual run waits at a time. */
export async function runNow(q: Queryable, name: string): Promise<{ queued: boolean }> {
  const k = system(q);
  if (!(await k.selectFrom('job_schedule').select('name').where('name', '=', name).executeTakeFirst())) throw new AppError(Code.NOT_FOUND, 'errors.job.unknown', 404);
  return { queued: await queueRun(q, name, 'manual') };
}
