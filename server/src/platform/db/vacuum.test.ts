import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from './client.js';
import { prepareDb } from './prepare.js';
import { emptyDb } from '../../../test/db.js';
import { vacuumEmbedded } from './vacuum.js';

/** PGlite runs no autovacuum: the job gives its tables what autovacuum gives PostgreSQL's (platform/db/vacuum.ts). */
describe('the embedded database upkeep', () => {
  let lite: Db;
  beforeAll(async () => {
    lite = await openDb({});
    await prepareDb(lite);
  }, 120_000);
  afterAll(() => lite.close());

  const customerStats = () => lite.one<{ reltuples: number; dead: number }>(
    `SELECT c.reltuples, coalesce(s.n_dead_tup, 0)::int AS dead FROM pg_class c LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid WHERE c.relname = 'customer'`,
  );

  it('on PGlite, vacuums and analyses every table: statistics where there were none, no dead rows left', async () => {
    await lite.query(`INSERT INTO customer (name, code) SELECT 'Upkeep ' || g, 'UK' || g FROM generate_series(1, 500) g`);
    await lite.query(`UPDATE customer SET address = 'rewritten' WHERE name LIKE 'Upkeep %'`);
    // The update's 500 dead rows are counted in the backend until it flushes its statistics (when
    // idle, at most once a second); flushed after the vacuum's report, they would read as dead
    // again. So they are flushed first, and seen.
    await lite.query('SELECT pg_stat_force_next_flush()');
    for (let i = 0; i < 100 && (await customerStats())!.dead < 500; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await customerStats())!.dead).toBe(500);
    // Never analysed: the planner knows nothing of the table (and nothing else would ever tell it).
    expect((await customerStats())!.reltuples).toBe(-1);
    const out = await vacuumEmbedded(lite);
    expect(out.engine).toBe('pglite');
    expect(out.tables).toBeGreaterThan(50);
    const after = (await customerStats())!;
    expect(after.reltuples).toBeGreaterThanOrEqual(500);
    expect(after.dead).toBe(0);
  });

  it('on PostgreSQL, leaves the work to autovacuum', async () => {
    if (!process.env.DATABASE_URL) return;
    const { db, drop } = await emptyDb();
    try {
      expect(await vacuumEmbedded(db)).toEqual({ tables: 0, engine: 'postgres' });
    } finally {
      await drop();
    }
  });
});
