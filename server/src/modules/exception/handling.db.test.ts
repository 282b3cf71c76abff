import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb } from '../../../test/db.js';
import type { Db } from '../../platform/db/client.js';
import { createCustomerWithAdmin } from '../../platform/seed/root.js';

/*
 * Migration 0035 at the database itself, below every route: a signed step and the signature
 * copy it points at cannot be changed or deleted from any connection (the trigger), whoever
 * asks; they go only with their whole customer. Every customer gets the default reasons, at
 * the migration and at its creation.
 */

let db: Db;
let drop: () => Promise<void>;
let customerId: number;
let userId: number;
let stepId: number;
let copyId: number;
let exceptionId: number;

async function customerWithStep(code: string) {
  const c = await createCustomerWithAdmin(db, { name: `Hospital ${code}`, code, account: code.toLowerCase(), password: 'secret123' });
  const ex = await db.one<{ id: number }>(
    `INSERT INTO exception_record (customer_id, type, category, ongoing, start_ts, end_ts) VALUES ($1, 'data', 'temp_high', false, now() - interval '1 hour', now()) RETURNING id`,
    [c.customerId],
  );
  const copy = await db.one<{ id: number }>(
    `INSERT INTO signature_copy (customer_id, sha256, mime, size, data) VALUES ($1, sha256('img'::bytea), 'image/png', 3, 'img'::bytea) RETURNING id`,
    [c.customerId],
  );
  const step = await db.one<{ id: number }>(
    `INSERT INTO exception_handling (customer_id, exception_id, action, user_id, user_account, user_name, meaning, measures, status_before, status_after, signature_id)
     VALUES ($1, $2, 'handle', $3, 'x', 'X Y', 'reviewed', 'moved the goods', 0, 1, $4) RETURNING id`,
    [c.customerId, ex!.id, c.userId, copy!.id],
  );
  return { ...c, exceptionId: ex!.id, stepId: step!.id, copyId: copy!.id };
}

beforeAll(async () => {
  ({ db, drop } = await freshDb());
  const c = await customerWithStep('KEEP');
  ({ customerId, userId, stepId, copyId, exceptionId } = c);
}, 120_000);
afterAll(() => drop?.());

const refused = /refused: signed handling records are kept as signed/;

describe('signed steps are kept (migration 0035)', () => {
  it('refuses an UPDATE of a step, by anyone, even of a field nobody reads', async () => {
    await expect(db.query(`UPDATE exception_handling SET measures = 'nothing happened' WHERE id = $1`, [stepId])).rejects.toThrow(refused);
    await expect(db.query(`UPDATE exception_handling SET user_name = user_name WHERE id = $1`, [stepId])).rejects.toThrow(refused);
    expect((await db.one<{ measures: string }>('SELECT measures FROM exception_handling WHERE id = $1', [stepId]))!.measures).toBe('moved the goods');
  });

  it('refuses a DELETE and a TRUNCATE of steps', async () => {
    await expect(db.query('DELETE FROM exception_handling WHERE id = $1', [stepId])).rejects.toThrow(refused);
    await expect(db.query('TRUNCATE exception_handling CASCADE')).rejects.toThrow(refused);
    expect((await db.query('SELECT id FROM exception_handling WHERE id = $1', [stepId])).length).toBe(1);
  });

  it('refuses deleting the exception a step signs (the cascade meets the trigger)', async () => {
    await expect(db.query('DELETE FROM exception_record WHERE id = $1', [exceptionId])).rejects.toThrow(refused);
    expect((await db.query('SELECT id FROM exception_record WHERE id = $1', [exceptionId])).length).toBe(1);
  });

  it('keeps the signature copy as signed: no UPDATE, no DELETE', async () => {
    await expect(db.query(`UPDATE signature_copy SET data = 'forged'::bytea WHERE id = $1`, [copyId])).rejects.toThrow(refused);
    await expect(db.query('DELETE FROM signature_copy WHERE id = $1', [copyId])).rejects.toThrow(refused);
  });

  it('keeps the step when its signer is deleted (name and account as they were)', async () => {
    const spare = await db.one<{ id: number }>(`INSERT INTO app_user (customer_id, account, name, password_hash) VALUES ($1, 'spare', 'Spare', 'x') RETURNING id`, [customerId]);
    await db.query(
      `INSERT INTO exception_handling (customer_id, exception_id, action, user_id, user_account, user_name, meaning, status_before, status_after) VALUES ($1, $2, 'comment', $3, 'spare', 'Spare', 'reviewed', 1, 1)`,
      [customerId, exceptionId, spare!.id],
    );
    await db.query('DELETE FROM app_user WHERE id = $1', [spare!.id]);
    expect(await db.query('SELECT user_account, user_name FROM exception_handling WHERE user_id = $1', [spare!.id])).toEqual([{ user_account: 'spare', user_name: 'Spare' }]);
    expect(userId).toBeGreaterThan(0);
  });

  it('lets the steps go with their whole customer, and only then', async () => {
    const other = await customerWithStep('GONE');
    await db.query('DELETE FROM customer WHERE id = $1', [other.customerId]);
    expect(await db.query('SELECT id FROM exception_handling WHERE customer_id = $1', [other.customerId])).toEqual([]);
    expect(await db.query('SELECT id FROM signature_copy WHERE customer_id = $1', [other.customerId])).toEqual([]);
    // The other customer's steps are untouched.
    expect((await db.query('SELECT id FROM exception_handling WHERE id = $1', [stepId])).length).toBe(1);
  });
});

describe('the default reasons (ex_catalog)', () => {
  it('are seeded for every customer at its creation, in both languages, and once', async () => {
    const rows = await db.query<{ code: string; name_zh: string; name_en: string; enabled: boolean; builtin: boolean }>(
      'SELECT code, name_zh, name_en, enabled, builtin FROM ex_catalog WHERE customer_id = $1 ORDER BY sort',
      [customerId],
    );
    expect(rows.map((r) => r.code)).toEqual(['door_open', 'defrost', 'power_cut', 'loading', 'equipment', 'sensor_fault', 'gateway_fault', 'calibration', 'maintenance', 'other']);
    expect(rows.every((r) => r.name_zh && r.name_en && r.enabled && r.builtin)).toBe(true);
    expect(rows[0]).toMatchObject({ name_zh: '门未关好', name_en: 'Door left open' });
    await db.query('SELECT ex_catalog_seed($1)', [customerId]);
    expect((await db.query('SELECT id FROM ex_catalog WHERE customer_id = $1', [customerId])).length).toBe(10);
  });

  it('refuses a reason without any name, and a code twice in one customer', async () => {
    await expect(db.query(`INSERT INTO ex_catalog (customer_id, code) VALUES ($1, 'nameless')`, [customerId])).rejects.toThrow();
    await expect(db.query(`INSERT INTO ex_catalog (customer_id, code, name_en) VALUES ($1, 'door_open', 'Again')`, [customerId])).rejects.toThrow();
  });
});
