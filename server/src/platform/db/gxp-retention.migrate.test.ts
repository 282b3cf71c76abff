import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './client.js';
import { migrate } from './migrate.js';
import { emptyDb, migrationsBefore } from '../../../test/db.js';
import { verifyLog } from '../audit/chain.js';

/*
 * Migration 0033 on an installation that predates the GxP defaults: the old defaults it stored
 * (365 days of history, 180 of logs) become 5 years, once, and the system log says so; a value
 * chosen otherwise stays as it was.
 */

let db: Db;
let drop: () => Promise<void>;
let remove: () => Promise<void>;

beforeAll(async () => {
  ({ db, drop } = await emptyDb());
  const before = await migrationsBefore('0033');
  remove = before.remove;
  await migrate(db, before.dir);
});
afterAll(async () => {
  await drop?.();
  await remove?.();
});

const values = async () => Object.fromEntries((await db.query<{ key: string; value: string }>('SELECT key, value FROM setting ORDER BY key')).map((r) => [r.key, r.value]));
const noted = () => db.query<{ content: string; params: { keys: string[] } }>(`SELECT content, params FROM sys_log WHERE module = 'param' AND content LIKE 'retention raised%'`);

describe('migration 0033', () => {
  it('raises the old defaults to 5 years and says so once; other values stay', async () => {
    await db.query(`INSERT INTO setting (key, value) VALUES ('sensor_history_retention_days', '365'), ('log_retention_days', '180'), ('export_retention_days', '7')`);
    expect(await migrate(db)).toContain('0033_gxp_retention.sql');
    expect(await values()).toMatchObject({ sensor_history_retention_days: '1827', log_retention_days: '1827', export_retention_days: '7' });
    const rows = await noted();
    expect(rows).toHaveLength(1);
    expect(rows[0].params.keys).toEqual(['log_retention_days', 'sensor_history_retention_days']);
    expect((await verifyLog(db)).findings).toEqual([]);
    // Applied once: a second start changes and says nothing.
    expect(await migrate(db)).toEqual([]);
    expect(await noted()).toHaveLength(1);
  });
});

describe('migration 0033 on chosen values', () => {
  let other: Db;
  let dropOther: () => Promise<void>;
  beforeAll(async () => {
    ({ db: other, drop: dropOther } = await emptyDb());
    const before = await migrationsBefore('0033');
    await migrate(other, before.dir);
    await before.remove();
  });
  afterAll(() => dropOther?.());

  it('leaves a value that is not the old default, and writes nothing to the log', async () => {
    await other.query(`INSERT INTO setting (key, value) VALUES ('sensor_history_retention_days', '3650'), ('log_retention_days', '3650')`);
    await migrate(other);
    const rows = await other.query<{ key: string; value: string }>('SELECT key, value FROM setting ORDER BY key');
    expect(rows.map((r) => r.value)).toEqual(['3650', '3650']);
    expect(await other.query(`SELECT 1 FROM sys_log WHERE module = 'param'`)).toHaveLength(0);
  });
});
