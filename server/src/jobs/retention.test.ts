import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../test/helper.js';
import { seedRecords, type Records } from '../modules/shared/records.fixture.js';
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
    await t.db.query(`INSERT INTO setting (key, value) VALUES ('sensor_history_retention_days', '60'), ('log_retention_days', '60'), ('export_retention_days', '7'), ('cache_retention_days', '1')`);
    const times = [Date.UTC(2026, 7, 10), Date.UTC(2026, 8, 10), Date.UTC(2026, 8, 28), Date.UTC(2026, 10, 1)];
    await new Partitions(t.db).ensureFor(times);
    for (const ts of times) {
      await t.db.query('INSERT INTO reading (sensor_id, ts, customer_id, temp) VALUES ($1, $2, $3, 5)', [a.sensorId, new Date(ts), a.customerId]);
      await t.db.query('INSERT INTO reading_5m (sensor_id, bucket, customer_id, n, first_ts, last_ts) VALUES ($1, $2, $3, 1, $2, $2)', [a.sensorId, new Date(ts), a.customerId]);
    }
    await t.db.query(`INSERT INTO sys_log (operator, module, method, content, params, result, created_at) VALUES ('x', 'm', 'old', '', '{}', 1, $1), ('x', 'm', 'new', '', '{}', 1, $2)`, [
      new Date(NOW - 61 * DAY),
      new Date(NOW - 59 * DAY),
    ]);
    // Export files: A's ended 8 days ago goes (its chunk with it), B's of 6 days stays.
    const file = `INSERT INTO download_record (customer_id, user_id, key, name, kind, source, format, status, sha256, created_at, finished_at) VALUES ($1, $2, gen_random_uuid(), 'h.xlsx', 'export', 'history', 'xlsx', 'generated', repeat('0', 64), $3, $3) RETURNING id`;
    const [old] = await t.db.query<{ id: number }>(file, [t.tenants.a.customerId, t.tenants.a.userId, new Date(NOW - 8 * DAY)]);
    await t.db.query(`INSERT INTO download_chunk (record_id, seq, customer_id, data) VALUES ($1, 0, $2, '\\x41')`, [old.id, t.tenants.a.customerId]);
    await t.db.query(file, [t.tenants.b.customerId, t.tenants.b.userId, new Date(NOW - 6 * DAY)]);
    await t.db.query(`INSERT INTO job (name, state, finished_at) VALUES ('x', 'done', $1), ('x', 'done', $2)`, [new Date(NOW - 2 * DAY), new Date(NOW - 3_600_000)]);

    // The mechanics on short settings: the "not for GxP records" mode (GXP_RECORDS=off) allows them.
    const summary = await enforceRetention(t.db, NOW, false);
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
    expect(await count(`download_record WHERE kind = 'export'`)).toBe(1);
    expect(await count(`download_chunk`)).toBe(0);
    expect(await count(`job WHERE name = 'x'`)).toBe(1);
  });

  it('a second run finds nothing more to remove', async () => {
    expect(await enforceRetention(t.db, NOW, false)).toEqual({ readings: 0, partitions: '-', rollups: 0, logs: 0, files: 0, cache: 0, heartbeats: 0, positions: 0 });
  });
});

describe('retention of GxP records', () => {
  /*
   * A system-log chain is cut from its start only, so these rows are dated after every row the
   * set-up wrote (now): the runs happen years ahead.
   */
  const F = Date.now() + 3000 * DAY;

  /** A reading and a 5-minute rollup of `sensor` at `ts`, in a partition made for it. */
  const reading = async (sensorId: number, customerId: number, ts: number) => {
    await new Partitions(t.db).ensureFor([ts]);
    await t.db.query('INSERT INTO reading (sensor_id, ts, customer_id, temp) VALUES ($1, $2, $3, 5) ON CONFLICT DO NOTHING', [sensorId, new Date(ts), customerId]);
    await t.db.query('INSERT INTO reading_5m (sensor_id, bucket, customer_id, n, first_ts, last_ts) VALUES ($1, $2, $3, 1, $2, $2) ON CONFLICT DO NOTHING', [sensorId, new Date(ts), customerId]);
  };
  const readingsAt = async (sensorId: number, ts: number) => count('reading WHERE sensor_id = $1 AND ts = $2', [sensorId, new Date(ts)]);
  const logRow = (customerId: number, module: string, method: string, at: number) =>
    t.db.query(`INSERT INTO sys_log (customer_id, operator, module, method, content, params, result, created_at) VALUES ($1, 'x', $2, $3, '', '{}', 1, $4)`, [customerId, module, method, new Date(at)]);

  it('keeps records 5 years under GxP whatever shorter value is stored', async () => {
    // Stored before the rule (an old installation): 60 days of history and of logs.
    const old = F - 400 * DAY;
    await reading(a.sensorId, a.customerId, old);
    await logRow(a.customerId, 'gxp', 'kept', old);
    await enforceRetention(t.db, F, true);
    expect(await readingsAt(a.sensorId, old)).toBe(1);
    expect(await count(`sys_log WHERE module = 'gxp'`)).toBe(1);
    // Past 5 years they go.
    await enforceRetention(t.db, old + 1828 * DAY, true);
    expect(await readingsAt(a.sensorId, old)).toBe(0);
    expect(await count(`sys_log WHERE module = 'gxp'`)).toBe(0);
    expect((await verifyLog(t.db)).findings).toEqual([]);
  });

  it('never deletes what an open exception refers to: its sensor\'s readings and rollups, its customer\'s log rows', async () => {
    const b = await seedRecords(t, 'beta', 'Beta', 'B1');
    const G = F + 5000 * DAY;
    const start = G - 100 * DAY;
    const ex = await t.db.one<{ id: number }>(
      `INSERT INTO exception_record (customer_id, carrier_id, sensor_id, type, category, start_ts, end_ts, status, ongoing) VALUES ($1, $2, $3, 'data', 'temp_high', $4, $5, 0, false) RETURNING id`,
      [a.customerId, a.carrierId, a.sensorId, new Date(start), new Date(start + DAY)],
    );
    for (const [sensor, customer] of [[a.sensorId, a.customerId], [b.sensorId, b.customerId]]) {
      await reading(sensor, customer, start - DAY); // before the exception: goes
      await reading(sensor, customer, start + 60_000); // during it: stays for A's sensor only
    }
    await logRow(a.customerId, 'held', 'before', start - DAY);
    await logRow(a.customerId, 'held', 'after', start + 60_000);
    await logRow(b.customerId, 'free', 'after', start + 60_000);

    // Ten days of retention, in the mode that allows it: everything above is older.
    await t.db.query(`UPDATE setting SET value = '10' WHERE key IN ('sensor_history_retention_days', 'log_retention_days')`);
    await enforceRetention(t.db, G, false);
    expect(await readingsAt(a.sensorId, start - DAY)).toBe(0);
    expect(await readingsAt(a.sensorId, start + 60_000)).toBe(1);
    expect(await count('reading_5m WHERE sensor_id = $1 AND bucket = $2', [a.sensorId, new Date(start + 60_000)])).toBe(1);
    expect(await readingsAt(b.sensorId, start + 60_000)).toBe(0);
    expect((await t.db.query<{ method: string }>(`SELECT method FROM sys_log WHERE module = 'held'`)).map((r) => r.method)).toEqual(['after']);
    expect(await count(`sys_log WHERE module = 'free'`)).toBe(0);
    expect((await verifyLog(t.db)).findings).toEqual([]);

    // Closed, the exception holds nothing more.
    await t.db.query('UPDATE exception_record SET status = 2 WHERE id = $1', [ex!.id]);
    await enforceRetention(t.db, G, false);
    expect(await readingsAt(a.sensorId, start + 60_000)).toBe(0);
    expect(await count(`sys_log WHERE module = 'held'`)).toBe(0);
  });

  it('never deletes what a verification task refers to while it exists: its points\' readings of its recording, its customer\'s log rows from then', async () => {
    const H = F + 6000 * DAY;
    const recordStart = H - 200 * DAY;
    const recordEnd = H - 190 * DAY;
    const task = (await t.db.one<{ id: number }>(
      `INSERT INTO verify_task (customer_id, carrier_id, name, setpoint, start_time, record_start, end_time, interval_s, status, ended_at)
       VALUES ($1, $2, 'Cold room mapping', 5, $3, $3, $4, 60, 3, $4) RETURNING id`,
      [a.customerId, a.carrierId, new Date(recordStart), new Date(recordEnd)],
    ))!.id;
    await t.db.query('INSERT INTO verify_task_device (task_id, sensor_id, customer_id) VALUES ($1, $2, $3)', [task, a.sensorId, a.customerId]);
    for (const at of [recordStart - DAY, recordStart + DAY, recordEnd + DAY]) await reading(a.sensorId, a.customerId, at);
    await logRow(a.customerId, 'study', 'before', recordStart - DAY);
    await logRow(a.customerId, 'study', 'during', recordStart + DAY);

    await enforceRetention(t.db, H, false);
    expect(await readingsAt(a.sensorId, recordStart - DAY)).toBe(0);
    expect(await readingsAt(a.sensorId, recordStart + DAY)).toBe(1);
    expect(await count('reading_5m WHERE sensor_id = $1 AND bucket = $2', [a.sensorId, new Date(recordStart + DAY)])).toBe(1);
    expect(await readingsAt(a.sensorId, recordEnd + DAY)).toBe(0);
    expect((await t.db.query<{ method: string }>(`SELECT method FROM sys_log WHERE module = 'study'`)).map((r) => r.method)).toEqual(['during']);
    expect((await verifyLog(t.db)).findings).toEqual([]);

    // The task deleted, its readings and log rows age out like any other.
    await t.db.query('DELETE FROM verify_task WHERE id = $1', [task]);
    await enforceRetention(t.db, H, false);
    expect(await readingsAt(a.sensorId, recordStart + DAY)).toBe(0);
    expect(await count(`sys_log WHERE module = 'study'`)).toBe(0);
  });
});
