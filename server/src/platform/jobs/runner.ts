import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '../db/client.js';
import { isConnectionError, reportFailure, type FailureLog } from '../db/outage.js';

/*
 * Durable jobs in the database (docs/jobs.md): a `job` row per run, claimed with
 * FOR UPDATE SKIP LOCKED under a lease, retried with exponential back-off, and periodic runs
 * enqueued from `job_schedule`. The same code runs on PostgreSQL and on PGlite, and several
 * console replicas share the work: a run is claimed by one of them, a schedule fires once.
 */

export interface JobSpec {
  /** Seconds between periodic runs; omitted = only on demand (enqueue / run now). */
  everyS?: number;
  /** Tries before a run is failed for good. Default 5. */
  maxAttempts?: number;
  /** A run still going after this is taken to be dead (its process died) and is run again. Default 10 min. */
  leaseMs?: number;
  /**
   * Answers the run's figures (`{ buckets: 12 }`), stored as JSON and shown on /sys/scheduled
   * in the reader's language (the web catalogue's `figures.<job name>`).
   */
  run: (payload: Record<string, unknown>, signal: AbortSignal) => Promise<JobFigures>;
  /**
   * The lane it runs in (default `main`). A runner works one run at a time per lane: long work
   * (an export of a year of readings) has a lane of its own, so that it holds up none of the
   * short periodic jobs (relay-switch, notice-retry, presence) of the main lane.
   */
  lane?: string;
}

export type JobFigures = Record<string, number | string>;

export interface JobLog extends FailureLog {
  info(obj: object, msg?: string): void;
}

/** Back-off of the n-th failed try: 5 s, 10 s, 20 s … capped at 10 minutes. */
export const backoffMs = (attempt: number) => Math.min(600_000, 5_000 * 2 ** Math.max(0, attempt - 1));

interface Claimed {
  id: number;
  name: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
}

/**
 * Queues one run of a job, unless a run of the same kind (the periodic one, or a manual "run
 * now") already waits or runs: the partial unique index job_singleton decides. True when queued.
 */
export async function queueRun(q: Queryable, name: string, singleton: 'schedule' | 'manual', maxAttempts = 5): Promise<boolean> {
  const rows = await q.query(`INSERT INTO job (name, singleton, max_attempts) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING id`, [name, singleton, maxAttempts]);
  return rows.length > 0;
}

/**
 * Queues one run of a job with its payload (an export: the record it makes), beside any other
 * runs of the same job: no singleton. Answers the run's id. Run inside the caller's transaction,
 * the run exists exactly when what it is for does; wake the runner after the commit (`kick`).
 */
export async function enqueue(q: Queryable, name: string, payload: Record<string, unknown>, opts: { maxAttempts?: number; runAt?: Date } = {}): Promise<number> {
  const [row] = await q.query<{ id: number }>(`INSERT INTO job (name, payload, max_attempts, run_at) VALUES ($1, $2, $3, coalesce($4, now())) RETURNING id`, [
    name,
    JSON.stringify(payload),
    opts.maxAttempts ?? 5,
    opts.runAt ?? null,
  ]);
  return row.id;
}

export const MAIN_LANE = 'main';

/** One lane's loop: its run in flight, whether it should look again, an outcome waiting to be written. */
interface Lane {
  running: Promise<void> | null;
  again: boolean;
  /** The outcome of a run that could not be written (the database went away): written first when it is back. */
  unrecorded: (() => Promise<void>) | null;
}

export class JobRunner {
  private readonly specs = new Map<string, JobSpec>();
  private readonly owner = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private readonly lanes = new Map<string, Lane>();
  private stopped = false;
  /** Aborted by stop(): a long run in flight (an export) gives up and cleans up after itself. */
  private readonly abort = new AbortController();

  constructor(
    private readonly db: Db,
    private readonly log: JobLog,
    private readonly pollMs = 1000,
  ) {}

  register(name: string, spec: JobSpec) {
    this.specs.set(name, spec);
    const lane = spec.lane ?? MAIN_LANE;
    if (!this.lanes.has(lane)) this.lanes.set(lane, { running: null, again: false, unrecorded: null });
    return this;
  }

  get names() {
    return [...this.specs.keys()];
  }

  /** The jobs of one lane. */
  private namesOf(lane: string) {
    return this.names.filter((n) => (this.specs.get(n)!.lane ?? MAIN_LANE) === lane);
  }

  spec(name: string) {
    return this.specs.get(name);
  }

  /** Writes each periodic job's schedule (its interval may have changed) and starts polling. */
  async start() {
    for (const [name, s] of this.specs) {
      if (!s.everyS) continue;
      await this.db.query(
        `INSERT INTO job_schedule (name, every_s) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET every_s = EXCLUDED.every_s,
           next_run_at = LEAST(job_schedule.next_run_at, now() + EXCLUDED.every_s * interval '1 second')`,
        [name, s.everyS],
      );
    }
    this.timer = setInterval(() => void this.kick(), this.pollMs);
    this.timer.unref();
    void this.kick();
  }

  /** Queues a run now (at most one manual run waits at a time) and wakes the loop. */
  async runNow(name: string): Promise<{ queued: boolean }> {
    if (!this.specs.has(name)) throw new Error(`unknown job ${name}`);
    const spec = this.specs.get(name)!;
    const queued = await queueRun(this.db, name, 'manual', spec.maxAttempts);
    void this.kick(spec.lane ?? MAIN_LANE);
    return { queued };
  }

  /** Queues a run of a job with its payload (no singleton: several wait at once) and wakes its lane. */
  async enqueue(name: string, payload: Record<string, unknown>): Promise<number> {
    const spec = this.specs.get(name);
    if (!spec) throw new Error(`unknown job ${name}`);
    const id = await enqueue(this.db, name, payload, { maxAttempts: spec.maxAttempts });
    void this.kick(spec.lane ?? MAIN_LANE);
    return id;
  }

  /**
   * Runs everything due now in every lane (or in the one named), then returns (tests, and a kick
   * after a burst). Each lane is a loop of its own: a long run in one holds up no other.
   */
  kick(only?: string): Promise<void> {
    const names = only ? [only] : [...this.lanes.keys()];
    return Promise.all(names.map((n) => this.kickLane(n))).then(() => undefined);
  }

  private kickLane(name: string): Promise<void> {
    const lane = this.lanes.get(name);
    if (!lane) return Promise.resolve();
    if (this.stopped) return lane.running ?? Promise.resolve();
    if (lane.running) {
      lane.again = true;
      return lane.running;
    }
    lane.running = (async () => {
      try {
        do {
          lane.again = false;
          if (lane.unrecorded) {
            await lane.unrecorded();
            lane.unrecorded = null;
          }
          await this.enqueueDue(name);
          while (!this.stopped && (await this.runOne(name, lane)));
        } while (lane.again && !this.stopped);
      } catch (err) {
        // The database is away: the next poll tries again; queued runs wait in their table.
        reportFailure(this.log, err, { lane: name }, 'jobs: poll failed');
      } finally {
        lane.running = null;
      }
    })();
    return lane.running;
  }

  /** Stops polling; a run in flight is told (its signal aborts) and waited for. */
  async stop() {
    this.stopped = true;
    clearInterval(this.timer);
    this.abort.abort();
    await Promise.all([...this.lanes.values()].map((l) => l.running));
  }

  /** A periodic job fires once per interval whichever replica sees it first; a run still waiting is not doubled. */
  private async enqueueDue(lane: string) {
    const names = this.namesOf(lane).filter((n) => this.specs.get(n)!.everyS);
    const due = await this.db.query<{ name: string }>(
      `UPDATE job_schedule SET next_run_at = now() + every_s * interval '1 second'
        WHERE next_run_at <= now() AND name = ANY($1::text[]) RETURNING name`,
      [names],
    );
    for (const { name } of due) await queueRun(this.db, name, 'schedule', this.specs.get(name)!.maxAttempts);
  }

  /** Claims and runs one due job of the lane; false when none is due. */
  private async runOne(laneName: string, lane: Lane): Promise<boolean> {
    const names = this.namesOf(laneName);
    const leases = names.map((n) => this.specs.get(n)!.leaseMs ?? 600_000);
    const [job] = await this.db.query<Claimed>(
      `UPDATE job j SET state = 'running', attempts = j.attempts + 1, started_at = now(), finished_at = NULL,
              lease_until = now() + l.ms * interval '1 millisecond', result = ''
         FROM unnest($1::text[], $2::int[]) AS l(name, ms)
        WHERE j.name = l.name AND j.id = (
              SELECT id FROM job
               WHERE name = ANY($1::text[]) AND run_at <= now()
                 AND (state = 'queued' OR (state = 'running' AND lease_until < now()))
               ORDER BY run_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING j.id, j.name, j.payload, j.attempts, j.max_attempts`,
      [names, leases],
    );
    if (!job) return false;
    const started = Date.now();
    let state: 'done' | 'failed' | 'queued';
    let result: string;
    let away = false;
    try {
      result = JSON.stringify(await this.specs.get(job.name)!.run(job.payload ?? {}, this.abort.signal)).slice(0, 2000);
      state = 'done';
    } catch (err) {
      // The database went away under the run: it is run again as soon as it is back, and
      // the try does not count against the job's attempts.
      away = isConnectionError(err);
      result = (err instanceof Error ? err.message : String(err)).slice(0, 500);
      state = !away && job.attempts >= job.max_attempts ? 'failed' : 'queued';
      reportFailure(this.log, err, { job: job.name, attempt: job.attempts }, `job ${job.name} failed`);
    }
    const ms = Date.now() - started;
    // `attempts` names this run: an outcome written late never overwrites a later claim of the row.
    const record = () =>
      this.db.tx(async (q) => {
        await q.query(
          `UPDATE job SET state = $2, result = $3, lease_until = NULL, attempts = attempts - $5,
                  finished_at = CASE WHEN $2 = 'queued' THEN NULL ELSE now() END,
                  run_at = CASE WHEN $2 = 'queued' THEN now() + $4 * interval '1 millisecond' ELSE run_at END
            WHERE id = $1 AND state = 'running' AND attempts = $6`,
          [job.id, state, result, away ? 0 : backoffMs(job.attempts), away ? 1 : 0, job.attempts],
        );
        await q.query(
          `UPDATE job_schedule SET last_run_at = now(), last_state = $2, last_result = $3, last_ms = $4 WHERE name = $1`,
          [job.name, state === 'queued' ? 'retrying' : state, result, ms],
        );
      });
    try {
      await record();
    } catch (err) {
      // Kept until the database is back; if this process dies first, the lease runs it again.
      lane.unrecorded = record;
      throw err;
    }
    return true;
  }
}
