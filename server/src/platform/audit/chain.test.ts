import fc from 'fast-check';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb } from '../../../test/db.js';
import type { Db } from '../db/client.js';
import { writeLog } from './audit.js';
import { rowHash, trimLog, verifyLog, type ChainRow, type Finding } from './chain.js';
import { enforceRetention } from '../../jobs/retention.js';

/*
 * The system log's tamper evidence (migration 0030, chain.ts) on the engine the suite runs on:
 * every insert is chained by the database; an intruder with SQL who disables the guard and
 * changes, deletes or inserts rows is named by the verifier; retention cuts a chain only from
 * its start and leaves the chain verifiable; the database refuses updates and deletions that
 * retention did not anchor.
 */

let fresh: Awaited<ReturnType<typeof freshDb>>;
let db: Db;
const DAY = 86_400_000;

beforeAll(async () => {
  fresh = await freshDb();
  db = fresh.db;
});
afterAll(() => fresh?.drop());

let serial = 0;
async function customer(): Promise<number> {
  const n = ++serial;
  return (await db.one<{ id: number }>(`INSERT INTO customer (name, code) VALUES ($1, $2) RETURNING id`, [`Chain ${n}`, `CH${n}`]))!.id;
}

/** n rows of one customer as mutate() writes them; answers their ids in order. */
async function write(customerId: number | null, n: number, at?: Date): Promise<number[]> {
  const req = { scope: customerId === null ? undefined : { customerId, userId: 7, account: 'nurse' }, ip: '192.0.2.10' } as unknown as FastifyRequest;
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    if (at) {
      const r = await db.one<{ id: number }>(
        `INSERT INTO sys_log (customer_id, user_id, operator, module, method, content, params, result, created_at) VALUES ($1, 7, 'nurse', 'carrier', 'add', $2, '{"n": 1}', 1, $3) RETURNING id`,
        [customerId, `old ${i}`, at],
      );
      ids.push(r!.id);
    } else {
      await writeLog(db, req, { module: 'carrier', method: 'update', content: `change ${i}`, params: { id: i, name: `Fridge ${i}` } }, 1);
      ids.push((await db.one<{ id: number }>('SELECT max(id)::int AS id FROM sys_log'))!.id);
    }
  }
  return ids;
}

/** What an intruder with psql does: switch the table's triggers off around a statement. */
async function asIntruder(triggers: 'sys_log_guard' | 'USER', text: string, params: unknown[] = []) {
  await db.exec(`ALTER TABLE sys_log DISABLE TRIGGER ${triggers}`);
  try {
    return await db.query(text, params);
  } finally {
    await db.exec(`ALTER TABLE sys_log ENABLE TRIGGER ${triggers}`);
  }
}

const findings = async () => (await verifyLog(db, { pageSize: 7 })).findings;
const brief = (f: Finding[]) => f.map(({ kind, customerId, ids }) => ({ kind, customerId, ids }));
const rowOf = (id: number) => db.one<Record<string, any>>('SELECT * FROM sys_log WHERE id = $1', [id]);

// The intruder's scratch tables: rows kept aside exactly as stored (to put back after a test), and forgeries.
beforeAll(async () => {
  await db.exec('CREATE TABLE kept_aside (LIKE sys_log); CREATE TABLE forged (LIKE sys_log)');
});

/** Deletes rows (guard off), keeping them aside to be put back. */
async function takeOut(...ids: number[]) {
  await db.query('INSERT INTO kept_aside SELECT * FROM sys_log WHERE id = ANY($1)', [ids]);
  await asIntruder('sys_log_guard', 'DELETE FROM sys_log WHERE id = ANY($1)', [ids]);
}

/** Puts rows taken out back exactly as they were, every column, the chain's included. */
async function putBack() {
  await asIntruder('USER', 'INSERT INTO sys_log SELECT * FROM kept_aside');
  await db.exec('DELETE FROM kept_aside');
}

/**
 * A forged copy of row `from` (in the log or taken out) with new content, at `seq`, linked to row `after`, its hash
 * computed as the database computes it: an intruder who knows the algorithm. Answers its id.
 */
async function forge(from: number, seq: number, after: number, content: string): Promise<number> {
  const id = from + 100_000;
  await db.query('INSERT INTO forged SELECT * FROM sys_log WHERE id = $1 UNION ALL SELECT * FROM kept_aside WHERE id = $1', [from]);
  await db.query('UPDATE forged SET id = $2, seq = $3, content = $4, prev_hash = (SELECT hash FROM sys_log WHERE id = $5) WHERE id = $1', [from, id, seq, content, after]);
  const r = (await db.one<any>(
    `SELECT id, seq, (extract(epoch FROM created_at) * 1000000)::bigint::text AS us, customer_id, user_id, operator, ip, module, method, content, params::text AS params, result, prev_hash FROM forged WHERE id = $1`,
    [id],
  ))!;
  await db.query('UPDATE forged SET hash = $2 WHERE id = $1', [id, rowHash({ ...r, prev_hash: Buffer.from(r.prev_hash) } as ChainRow)]);
  await asIntruder('USER', 'INSERT INTO sys_log SELECT * FROM forged WHERE id = $1', [id]);
  await db.query('DELETE FROM forged');
  return id;
}

describe('the chain', () => {
  it('chains every insert, each customer apart, and verifies', async () => {
    const a = await customer();
    const b = await customer();
    await write(a, 3);
    await write(b, 2);
    await write(null, 2);
    const rows = await db.query<{ customer_id: number | null; seq: number }>('SELECT customer_id, seq FROM sys_log WHERE customer_id = ANY($1) OR customer_id IS NULL ORDER BY id', [[a, b]]);
    expect(rows.map((r) => [r.customer_id, r.seq])).toEqual([[a, 1], [a, 2], [a, 3], [b, 1], [b, 2], [null, 1], [null, 2]]);
    const report = await verifyLog(db, { pageSize: 2 });
    expect(report.findings).toEqual([]);
    expect(report.rows).toBe(7);
    expect(report.heads.map((h) => [h.customerId, h.lastSeq])).toEqual([[null, 2], [a, 3], [b, 2]]);
  });

  it('hashes any content the same way in the database and in the verifier', async () => {
    const c = await customer();
    // PostgreSQL text holds no NUL and no lone surrogate; everything else goes, astral characters and field-like text included.
    const text = (max: number) => fc.string({ unit: 'binary', maxLength: max }).map((s) => s.replace(/\0/g, '').replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
    const scalar = fc.oneof(text(20), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
    const json = fc.oneof(scalar, fc.array(scalar, { maxLength: 4 }), fc.dictionary(text(12), fc.oneof(scalar, fc.array(scalar, { maxLength: 3 })), { maxKeys: 5 }));
    await fc.assert(
      fc.asyncProperty(fc.record({ operator: text(50), module: text(40), method: text(60), content: text(250), ip: fc.option(text(64)), params: fc.option(json), user: fc.option(fc.integer({ min: 1, max: 2 ** 31 - 1 })) }), async (r) => {
        await db.query(`INSERT INTO sys_log (customer_id, user_id, operator, ip, module, method, content, params, result) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, 0)`, [
          c, r.user, r.operator, r.ip, r.module, r.method, r.content, r.params === null ? null : JSON.stringify(r.params),
        ]);
      }),
      { numRuns: 40 },
    );
    expect(await findings()).toEqual([]);
  });

  it('concurrent writers of one customer take turns: one chain, no gap, no fork', async () => {
    const c = await customer();
    const req = { scope: { customerId: c, userId: 1, account: 'many' }, ip: '192.0.2.11' } as unknown as FastifyRequest;
    // In transactions, as mutate() writes: each holds the chain from its insert to its commit.
    await Promise.all(Array.from({ length: 40 }, (_, i) => db.tx((q) => writeLog(q, req, { module: 'contact', method: 'add', content: `c${i}`, params: {} }, 1))));
    const seqs = (await db.query<{ seq: number }>('SELECT seq FROM sys_log WHERE customer_id = $1 ORDER BY seq', [c])).map((r) => r.seq);
    expect(seqs).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(await findings()).toEqual([]);
  });
});

describe('the database refuses', () => {
  it('an update, a deletion retention did not anchor, and a truncate', async () => {
    const c = await customer();
    const [id] = await write(c, 2);
    await expect(db.query(`UPDATE sys_log SET content = 'x' WHERE id = $1`, [id])).rejects.toThrow(/append-only: UPDATE/);
    await expect(db.query(`DELETE FROM sys_log WHERE id = $1`, [id])).rejects.toThrow(/append-only: DELETE/);
    await expect(db.exec(`TRUNCATE sys_log`)).rejects.toThrow(/append-only: TRUNCATE/);
    await expect(db.query(`DELETE FROM sys_log_chain WHERE chain = $1`, [c])).rejects.toThrow(/chain records are kept/);
    expect((await rowOf(id))!.content).toBe('change 0');
  });
});

describe('the verifier names what an intruder did', () => {
  let c: number;
  let ids: number[];
  beforeAll(async () => {
    c = await customer();
    ids = await write(c, 5);
  });

  it('a changed row (content edited with the guard trigger off)', async () => {
    expect(await findings()).toEqual([]);
    await asIntruder('sys_log_guard', `UPDATE sys_log SET content = 'nothing happened' WHERE id = $1`, [ids[2]]);
    const f = await findings();
    expect(brief(f)).toEqual([{ kind: 'changed', customerId: c, ids: [ids[2]] }]);
    expect(f[0].message).toContain(`row #${ids[2]}`);
    // The same row put back as written verifies again: the check is exact, not a heuristic.
    await asIntruder('sys_log_guard', `UPDATE sys_log SET content = 'change 2' WHERE id = $1`, [ids[2]]);
    expect(await findings()).toEqual([]);
  });

  it('a changed time, address or result', async () => {
    for (const [set, back] of [
      [`created_at = created_at - interval '1 microsecond'`, `created_at = created_at + interval '1 microsecond'`],
      [`ip = '198.51.100.1'`, `ip = '192.0.2.10'`],
      [`result = 0`, `result = 1`],
    ]) {
      await asIntruder('sys_log_guard', `UPDATE sys_log SET ${set} WHERE id = $1`, [ids[1]]);
      expect(brief(await findings())).toEqual([{ kind: 'changed', customerId: c, ids: [ids[1]] }]);
      await asIntruder('sys_log_guard', `UPDATE sys_log SET ${back} WHERE id = $1`, [ids[1]]);
    }
    expect(await findings()).toEqual([]);
  });

  it('a deleted row in the middle', async () => {
    await takeOut(ids[2]);
    const f = await findings();
    expect(brief(f)).toEqual([{ kind: 'deleted', customerId: c, ids: [ids[1], ids[3]] }]);
    expect(f[0].message).toMatch(/1 row missing at position 3, between/);
    await putBack();
    expect(await findings()).toEqual([]);
  });

  it('the last rows deleted (the head remembers them)', async () => {
    await takeOut(ids[3], ids[4]);
    const f = await findings();
    expect(brief(f)).toEqual([{ kind: 'deleted', customerId: c, ids: [ids[2], ids[4]] }]);
    expect(f[0].message).toMatch(/2 rows missing at the end of the chain \(positions 4-5/);
    await putBack();
    expect(await findings()).toEqual([]);
  });

  it('an inserted row: slipped in with the triggers off', async () => {
    const [{ id }] = await asIntruder('USER', `INSERT INTO sys_log (customer_id, operator, module, method, content, result) VALUES ($1, 'nurse', 'carrier', 'del', 'alibi', 1) RETURNING id`, [c]);
    expect(brief(await findings())).toEqual([{ kind: 'inserted', customerId: c, ids: [id] }]);
    await asIntruder('sys_log_guard', `DELETE FROM sys_log WHERE id = $1`, [id]);
    expect(await findings()).toEqual([]);
  });

  it('an inserted row: a forged one in the place of a deleted one, its hash computed as the database would', async () => {
    await takeOut(ids[2]);
    const forgery = await forge(ids[2], 3, ids[1], 'nothing happened');
    const f = await findings();
    expect(brief(f)).toEqual([{ kind: 'inserted', customerId: c, ids: [forgery, ids[3]] }]);
    expect(f[0].message).toContain(`row #${ids[3]} does not link to row #${forgery}`);
    await asIntruder('sys_log_guard', 'DELETE FROM sys_log WHERE id = $1', [forgery]);
    await putBack();
    expect(await findings()).toEqual([]);
  });

  it('an inserted row: appended past the head with a valid link', async () => {
    const extra = await forge(ids[4], 6, ids[4], 'backdated approval');
    expect(brief(await findings())).toEqual([{ kind: 'inserted', customerId: c, ids: [extra] }]);
    await asIntruder('sys_log_guard', 'DELETE FROM sys_log WHERE id = $1', [extra]);
    expect(await findings()).toEqual([]);
  });

  it('a disabled trigger', async () => {
    await db.exec('ALTER TABLE sys_log DISABLE TRIGGER sys_log_guard');
    try {
      const f = await findings();
      expect(brief(f)).toEqual([{ kind: 'chain', customerId: null, ids: [] }]);
      expect(f[0].message).toContain('sys_log_guard');
    } finally {
      await db.exec('ALTER TABLE sys_log ENABLE TRIGGER sys_log_guard');
    }
  });
});

describe('retention', () => {
  it('cuts each chain from its start, leaves an anchor, and the chains still verify', async () => {
    const now = Date.now();
    const c = await customer();
    const old = await write(c, 4, new Date(now - 40 * DAY));
    const young = await write(c, 2);
    // A chain of old rows only goes whole; its head stays, and its next row links on.
    const d = await customer();
    await write(d, 3, new Date(now - 50 * DAY));
    await db.query(
      `INSERT INTO setting (key, value) VALUES ('log_retention_days', '30'), ('sensor_history_retention_days', '30') ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
    );

    // Short settings: the "not for GxP records" mode allows them (the GxP floor: jobs/retention.test.ts).
    const summary = await enforceRetention(db, now, false);
    expect(summary.logs).toBe(7);
    expect((await db.query<{ id: number }>('SELECT id FROM sys_log WHERE customer_id = $1 ORDER BY id', [c])).map((r) => r.id)).toEqual(young);
    expect(await db.query('SELECT id FROM sys_log WHERE customer_id = $1', [d])).toEqual([]);
    const anchor = await db.one<any>('SELECT * FROM sys_log_anchor WHERE chain = $1', [c]);
    expect(anchor).toMatchObject({ from_seq: 1, first_seq: 5, removed: 4, last_removed_id: old[3] });
    expect(Buffer.from(anchor.prev_hash).equals(Buffer.from((await rowOf(young[0]))!.prev_hash as Uint8Array))).toBe(true);
    expect(await findings()).toEqual([]);

    const [next] = await write(d, 1);
    expect((await rowOf(next))!.seq).toBe(4);
    expect(await findings()).toEqual([]);
    expect(await trimLog(db, new Date(now - 30 * DAY))).toBe(0);
    // Anchors are kept, whatever asks.
    await expect(db.query('DELETE FROM sys_log_anchor WHERE chain = $1', [c])).rejects.toThrow(/chain records are kept/);
  });

  it('an old row after a younger one waits for the next run: nothing goes before its time', async () => {
    const now = Date.now();
    const c = await customer();
    const [first] = await write(c, 1, new Date(now - 40 * DAY));
    const [youngId] = await write(c, 1);
    const [late] = await write(c, 1, new Date(now - 45 * DAY));
    expect(await trimLog(db, new Date(now - 30 * DAY))).toBe(1);
    expect((await db.query<{ id: number }>('SELECT id FROM sys_log WHERE customer_id = $1 ORDER BY id', [c])).map((r) => r.id)).toEqual([youngId, late]);
    expect(first).toBeLessThan(youngId);
    expect(await findings()).toEqual([]);
  });

  it('a deletion among old rows is still named after retention removed them', async () => {
    const now = Date.now();
    const c = await customer();
    const old = await write(c, 4, new Date(now - 40 * DAY));
    await write(c, 1);
    await takeOut(old[1]);
    await db.exec('DELETE FROM kept_aside');
    expect(await trimLog(db, new Date(now - 30 * DAY))).toBe(3);
    const f = await findings();
    expect(brief(f)).toEqual([{ kind: 'deleted', customerId: c, ids: [old[3]] }]);
    expect(f[0].message).toMatch(/removed 3 rows at positions 1-4, where the chain had 4: 1 was already missing/);
    await expect(db.query('DELETE FROM sys_log_anchor WHERE chain = $1', [c])).rejects.toThrow(/chain records are kept/);
  });

  it('after retention, a deletion in the middle is still named', async () => {
    const c = await customer();
    const ids = await write(c, 3);
    await takeOut(ids[1]);
    expect(brief((await findings()).filter((f) => f.customerId === c))).toEqual([{ kind: 'deleted', customerId: c, ids: [ids[0], ids[2]] }]);
  });
});
