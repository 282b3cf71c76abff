import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client.js';
import { emptyDb, migrationsBefore } from '../../../test/db.js';
import { migrate } from '../db/migrate.js';
import { verifyLog } from './chain.js';

/*
 * Migration 0030 on a database that already has a system log: the rows written before it are
 * chained in id order, each customer's apart, and the result verifies.
 */

let db: Db;
let dir: string;
let remove: () => Promise<void>;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ db, drop } = await emptyDb());
  // The migrations before this one, as a database that predates it has them.
  ({ dir, remove } = await migrationsBefore('0030'));
});
afterAll(async () => {
  await drop?.();
  await remove?.();
});

describe('migration 0030', () => {
  it('chains the rows already written, in id order per customer, and they verify', async () => {
    await migrate(db, dir);
    // Out of time order on purpose: the chain follows the ids, as the rows were written.
    const rows: [number | null, string][] = [
      [1, '2026-01-03T00:00:00Z'],
      [null, '2026-01-01T00:00:00Z'],
      [2, '2026-01-02T00:00:00Z'],
      [1, '2026-01-01T00:00:00Z'],
      [null, '2026-01-05T00:00:00Z'],
      [1, '2026-01-04T00:00:00.123456Z'],
    ];
    for (const [customer, at] of rows) {
      await db.query(`INSERT INTO sys_log (customer_id, operator, module, method, content, params, result, created_at) VALUES ($1, 'old', 'carrier', 'add', 'before the chain', '{"a": [1, 2]}', 1, $2)`, [customer, at]);
    }
    expect(await migrate(db)).toContain('0030_audit_chain.sql');
    const chained = await db.query<{ customer_id: number | null; seq: number }>('SELECT customer_id, seq FROM sys_log ORDER BY id');
    expect(chained.map((r) => [r.customer_id, r.seq])).toEqual([[1, 1], [null, 1], [2, 1], [1, 2], [null, 2], [1, 3]]);
    expect((await db.query<{ chain: number; last_seq: number; last_id: number }>('SELECT chain, last_seq, last_id FROM sys_log_chain ORDER BY chain'))).toEqual([
      { chain: 0, last_seq: 2, last_id: 5 },
      { chain: 1, last_seq: 3, last_id: 6 },
      { chain: 2, last_seq: 1, last_id: 3 },
    ]);
    expect((await verifyLog(db)).findings).toEqual([]);
    // And the next row links on.
    await db.query(`INSERT INTO sys_log (customer_id, operator, module, method, content, result) VALUES (1, 'new', 'carrier', 'del', 'after', 1)`);
    const report = await verifyLog(db);
    expect(report.findings).toEqual([]);
    expect(report.rows).toBe(7);
  });
});
