import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb } from '../../../test/db.js';
import type { Db } from '../db/client.js';
import { backoffMs, enqueue, JobRunner } from './runner.js';

/*
 * The job runner on the real database (PGlite, or PostgreSQL with DATABASE_URL): runs survive
 * a restart, failures retry with back-off, a schedule fires once across replicas, a dead
 * runner's lease is taken over.
 */

let db: Db;
let drop: () => Promise<void>;
const quiet = { info: () => undefined, error: () => undefined };

beforeAll(async () => ({ db, drop } = await freshDb()));
afterAll(() => drop());

const row = (id: number) => db.one<{ state: string; attempts: number; result: string; run_at: Date }>('SELECT state, attempts, result, run_at FROM job WHERE id = $1', [id]);
const runnable = () => db.query('UPDATE job SET run_at = now() WHERE state = $1', ['queued']);

describe('job runner', () => {
  it('a run queued before a restart is done by the next process', async () => {
    const first = new JobRunner(db, quiet, 60_000).register('persist', { run: async () => ({ never: 'here' }) });
    const { queued } = await first.runNow('persist');
    expect(queued).toBe(true);
    await first.stop(); // stopped before its loop claimed the run: the row waits in the table
    const [{ id }] = await db.query<{ id: number }>(`SELECT id FROM job WHERE name = 'persist'`);
    let ran = 0;
    const second = new JobRunner(db, quiet, 60_000).register('persist', { run: async () => ({ ran: ++ran }) });
    await second.kick();
    expect(await row(id)).toMatchObject({ state: 'done', attempts: 1, result: '{"ran":1}' });
    await second.stop();
  });

  it('a run cut off by a database outage is run again when it is back, without using up an attempt', async () => {
    // The runner's view of the database, which "goes away" while the job runs.
    let away = false;
    const lost = () => Object.assign(new Error('Connection terminated unexpectedly'), { code: undefined });
    const flaky: Db = {
      ...db,
      query: (text, params) => (away ? Promise.reject(lost()) : db.query(text, params)),
      tx: (fn) => (away ? Promise.reject(lost()) : db.tx(fn)),
    };
    let tries = 0;
    const r = new JobRunner(flaky, quiet, 60_000).register('cut', {
      maxAttempts: 1,
      run: async () => {
        if (++tries === 1) {
          away = true;
          throw lost();
        }
        return { tries };
      },
    });
    await r.runNow('cut');
    const [{ id }] = await db.query<{ id: number }>(`SELECT id FROM job WHERE name = 'cut'`);
    await r.kick();
    // Its outcome could not be written: the row still says running, under its lease.
    expect(await row(id)).toMatchObject({ state: 'running', attempts: 1 });
    away = false;
    await r.kick();
    // Written when the database came back, queued again at once (its one attempt not spent), and run.
    expect(await row(id)).toMatchObject({ state: 'done', attempts: 1, result: '{"tries":2}' });
    await r.stop();
  });

  it('a failing run is retried with back-off, then failed for good after maxAttempts', async () => {
    let tries = 0;
    const r = new JobRunner(db, quiet, 60_000).register('flaky', {
      maxAttempts: 3,
      run: async () => {
        tries++;
        throw new Error(`broken ${tries}`);
      },
    });
    await r.runNow('flaky');
    const [{ id }] = await db.query<{ id: number }>(`SELECT id FROM job WHERE name = 'flaky'`);
    await r.kick();
    const after1 = (await row(id))!;
    expect(after1).toMatchObject({ state: 'queued', attempts: 1, result: 'broken 1' });
    // The next try waits for its back-off: a kick now does nothing.
    expect(after1.run_at.getTime()).toBeGreaterThan(Date.now() + backoffMs(1) - 2_000);
    await r.kick();
    expect(tries).toBe(1);
    await runnable();
    await r.kick();
    await runnable();
    await r.kick();
    expect(tries).toBe(3);
    expect(await row(id)).toMatchObject({ state: 'failed', attempts: 3, result: 'broken 3' });
    await r.stop();
    expect([1, 2, 3, 10].map(backoffMs)).toEqual([5_000, 10_000, 20_000, 600_000]);
  });

  it('a schedule fires once per interval across two replicas, and records its last run', async () => {
    let runs = 0;
    const spec = { everyS: 3600, run: async () => ({ run: ++runs }) };
    const a = new JobRunner(db, quiet, 60_000).register('hourly', spec);
    const b = new JobRunner(db, quiet, 60_000).register('hourly', spec);
    await a.start();
    await b.start();
    await Promise.all([a.kick(), b.kick()]);
    await Promise.all([a.kick(), b.kick()]);
    expect(runs).toBe(1);
    const s = await db.one<{ last_state: string; last_result: string; next_run_at: Date }>(`SELECT last_state, last_result, next_run_at FROM job_schedule WHERE name = 'hourly'`);
    expect(s).toMatchObject({ last_state: 'done', last_result: '{"run":1}' });
    expect(s!.next_run_at.getTime()).toBeGreaterThan(Date.now() + 3500_000);
    // Due again: one more run, not two.
    await db.query(`UPDATE job_schedule SET next_run_at = now() WHERE name = 'hourly'`);
    await Promise.all([a.kick(), b.kick()]);
    expect(runs).toBe(2);
    await a.stop();
    await b.stop();
  });

  it('a run whose runner died (lease ran out) is taken over; a live lease is not', async () => {
    await db.query(`INSERT INTO job (name, state, attempts, lease_until, started_at) VALUES ('orphan', 'running', 1, now() + interval '1 hour', now())`);
    let ran = 0;
    const r = new JobRunner(db, quiet, 60_000).register('orphan', { run: async () => ({ takenOver: ++ran }) });
    await r.kick();
    expect(ran).toBe(0);
    await db.query(`UPDATE job SET lease_until = now() - interval '1 second' WHERE name = 'orphan'`);
    await r.kick();
    expect(ran).toBe(1);
    expect(await db.one(`SELECT state, attempts FROM job WHERE name = 'orphan'`)).toEqual({ state: 'done', attempts: 2 });
    await r.stop();
  });

  it('enqueue queues runs with payloads beside each other (no singleton), each run with its own', async () => {
    const seen: unknown[] = [];
    const r = new JobRunner(db, quiet, 60_000).register('with-payload', { run: async (p) => (seen.push(p.recordId), { record: Number(p.recordId) }) });
    const ids = [await r.enqueue('with-payload', { recordId: 7 }), await enqueue(db, 'with-payload', { recordId: 8 }), await enqueue(db, 'with-payload', { recordId: 8 })];
    expect(new Set(ids).size).toBe(3);
    await r.kick();
    expect(seen).toEqual([7, 8, 8]);
    expect(await row(ids[1])).toMatchObject({ state: 'done', result: '{"record":8}' });
    await r.stop();
  });

  it('a long run in a lane of its own holds up none of the main lane, and is told to stop when the runner stops', async () => {
    let release!: () => void;
    const held = new Promise<void>((res) => (release = res));
    let started!: () => void;
    const began = new Promise<void>((res) => (started = res));
    let aborted = false;
    let quick = 0;
    const r = new JobRunner(db, quiet, 60_000)
      .register('long-export', {
        lane: 'long',
        run: async (_p, signal) => {
          started();
          signal.addEventListener('abort', () => ((aborted = true), release()));
          await held;
          return { aborted: String(aborted) };
        },
      })
      .register('quick', { everyS: 3600, run: async () => ({ quick: ++quick }) });
    await r.enqueue('long-export', { recordId: 1 });
    await began;
    // The main lane goes on while the long run holds its own: its periodic job runs, twice.
    await r.start();
    await r.kick('main');
    await r.runNow('quick');
    await r.kick('main');
    expect(quick).toBe(2);
    expect(await db.one(`SELECT state FROM job WHERE name = 'long-export'`)).toEqual({ state: 'running' });
    // Stopping aborts the long run's signal and waits for it.
    await r.stop();
    expect(aborted).toBe(true);
    expect(await db.one(`SELECT state, result FROM job WHERE name = 'long-export'`)).toEqual({ state: 'done', result: '{"aborted":"true"}' });
  });
});
