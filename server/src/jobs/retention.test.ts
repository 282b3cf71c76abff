import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../test/helper.js';
import { seedRecords, type Records } from '../modules/dm/records.fixture.js';
import { Partitions } from '../ingest/partitions.js';
import { enforceRetention } from './retention.js';
import { verifyLog } from '../platform/audit/chain.js';

/*
 * Retention by the server settings: old months of readings go by dropping their partitions,
 * the straddling month by row; logs, export files and cache by their own settings. What is
 * younger than its setting stays.
 */

let t: TestCtx;
let a: Records;
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 23, 12);

beforeAll(async () => {
  t = await setup();
  a = await seedRecords(t, 'alpha', 'Alpha', 'A1');
}, 180_000);
afterAll(() => t.close());

const count = async (sql: string, params: unknown[] = []) => (await t.db.one<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params))!.n;
const partitions = async () =>
  (await t.db.query<{ relname: string }>(`SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'reading'::regclass ORDER BY 1`)).map((r) => r.relname);

describe('retention job', () => {
  it('drops whole old months, deletes the straddling month by row, keeps the rest', async () => {
    // Retention 60 days: the cutoff is 2026-09-24 12:00.
    await t.db.query(`INSERT INTO setting (key, value) VALUES ('sensor_history_retention_days', '60'), ('log_retention_days', '30'), ('export_retention_days', '7'), ('cache_retention_days', '1')`);
    const times = [Date.UTC(2026, 7, 10), Date.UTC(2026, 8, 10), Date.UTC(2026, 8, 28), Date.UTC(2026, 10, 1)];
    await new Partitions(t.db).ensureFor(times);
    for (const ts of times) {
      await t.db.query('INSERT INTO reading (sensor_id, ts, customer_id, temp) VALUES ($1, $2, $3, 5)', [a.sensorId, new Date(ts), a.customerId]);
      await t.db.query('INSERT INTO reading_5m (sensor_id, bucket, customer_id, n, first_ts, last_ts) VALUES ($1, $2, $3, 1, $2, $2)', [a.sensorId, new Date(ts), a.customerId]);
    }
    await t.db.query(`INSERT INTO sys_log (operator, module, method, content, params, result, created_at) VALUES ('x', 'm', 'old', '', '{}', 1, $1), ('x', 'm', 'new', '', '{}', 1, $2)`, [
      new Date(NOW - 31 * DAY),
      new Date(NOW - 29 * DAY),
    ]);
    const file = `INSERT INTO stored_file (customer_id, user_id, kind, mime, size, data, created_at) VALUES ($1, $2, 'export', 'text/csv', 1, '\\x41', $3)`;
    await t.db.query(file, [t.tenants.a.customerId, t.tenants.a.userId, new Date(NOW - 8 * DAY)]);
    await t.db.query(file, [t.tenants.b.customerId, t.tenants.b.userId, new Date(NOW - 6 * DAY)]);
    await t.db.query(`INSERT INTO job (name, state, finished_at) VALUES ('x', 'done', $1), ('x', 'done', $2)`, [new Date(NOW - 2 * DAY), new Date(NOW - 3_600_000)]);

    const summary = await enforceRetention(t.db, NOW);
    expect(summary).toMatchObject({ readings: 1, partitions: 'reading_2026_08', rollups: 2, logs: 1, files: 1, cache: 1 });
    expect(await partitions()).not.toContain('reading_2026_08');
    expect(await partitions()).toContain('reading_2026_09');
    const left = (await t.db.query<{ ts: Date }>('SELECT ts FROM reading WHERE sensor_id = $1 AND ts = ANY($2::timestamptz[]) ORDER BY ts', [a.sensorId, times.map((x) => new Date(x))])).map((r) => r.ts.getTime());
    expect(left).toEqual([Date.UTC(2026, 8, 28), Date.UTC(2026, 10, 1)]);
    expect(await count('reading_5m WHERE sensor_id = $1 AND bucket = ANY($2::timestamptz[])', [a.sensorId, times.map((x) => new Date(x))])).toBe(2);
    expect((await t.db.query<{ method: string }>(`SELECT method FROM sys_log WHERE module = 'm'`)).map((r) => r.method)).toEqual(['new']);
    // The system log went by moving its chain's start: what is left still verifies.
    expect(await count(`sys_log_anchor WHERE chain = 0 AND removed = 1`)).toBe(1);
    expect((await verifyLog(t.db)).findings).toEqual([]);
    expect(await count(`stored_file WHERE kind = 'export'`)).toBe(1);
    expect(await count(`job WHERE name = 'x'`)).toBe(1);
  });

  it('a second run finds nothing more to remove', async () => {
    expect(await enforceRetention(t.db, NOW)).toEqual({ readings: 0, partitions: '-', rollups: 0, logs: 0, files: 0, cache: 0, heartbeats: 0 });
  });
});
