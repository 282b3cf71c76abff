import { z } from 'zod';
import { ms, route } from './route.js';

/** The periodic jobs (/sys/scheduled, the /sys section's default page): what runs, when, and how it went. */

export const scheduledJob = z.object({
  name: z.string(),
  /** Seconds between runs. */
  everyS: z.number().int(),
  lastRunAt: ms.nullable(),
  /** done | failed | retrying; null before the first run. */
  lastState: z.string().nullable(),
  /** What the last successful run did, as figures the page puts into its own sentence (`{ buckets: 12 }`). */
  lastFigures: z.record(z.string(), z.union([z.number(), z.string()])).nullable(),
  /** The error of the last failed try ('' after a success). */
  lastError: z.string(),
  lastMs: z.number().int().nullable(),
  nextRunAt: ms,
  /** A run is going on now. */
  running: z.boolean(),
  /** A run waits (a manual one, or a retry after a failure). */
  queued: z.boolean(),
});
export type ScheduledJob = z.infer<typeof scheduledJob>;

export const scheduledApi = {
  list: route({ method: 'GET', path: '/service/scheduled/list', tag: 'scheduled', summary: 'The periodic jobs with their last and next run', result: z.array(scheduledJob) }),
  run: route({
    method: 'POST',
    path: '/service/scheduled/run',
    tag: 'scheduled',
    summary: 'Run a job now (once; a run already waiting is not doubled)',
    query: z.object({ name: z.string().trim().min(1).max(40) }),
    result: z.object({ queued: z.boolean() }),
  }),
};
