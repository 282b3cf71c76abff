import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb } from '../../../test/db.js';
import { openDb, type Db } from './client.js';
import { migrate, MigrationChecksumError } from './migrate.js';

/*
 * The migration runner on a directory of its own, on the engine the suite runs on: files run
 * whole (dollar-quoted bodies and several statements per line included), replicas starting
 * together apply each file once, and an applied file that was edited stops the start.
 */

let dir: string;
let fresh: Awaited<ReturnType<typeof freshDb>>;
let db: Db;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cw-migrate-'));
  fresh = await freshDb();
  db = fresh.db;
  await db.exec('CREATE SCHEMA mtest');
  await writeFile(
    path.join(dir, '0001_first.sql'),
    `-- two statements on one line, and a function with semicolons in its body
     CREATE TABLE mtest.a (id int); INSERT INTO mtest.a VALUES (1);
     CREATE FUNCTION mtest.f() RETURNS int LANGUAGE plpgsql AS $body$ BEGIN RETURN 1; END; $body$;`,
  );
});
afterAll(async () => {
  await fresh?.drop();
  await rm(dir, { recursive: true, force: true });
});

describe('migrations', () => {
  it('applies a file whole, once, with its checksum', async () => {
    expect(await migrate(db, dir)).toEqual(['0001_first.sql']);
    expect(await migrate(db, dir)).toEqual([]);
    expect(await db.query('SELECT id FROM mtest.a')).toEqual([{ id: 1 }]);
    const [row] = await db.query<{ checksum: string }>(`SELECT checksum FROM schema_migration WHERE name = '0001_first.sql'`);
    expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
  });

  it('applies a new file once when two runners start together', async () => {
    await writeFile(path.join(dir, '0002_second.sql'), 'INSERT INTO mtest.a VALUES (2);');
    // On PostgreSQL the second runner is a second pool, as a second replica would be.
    const other = fresh.url ? await openDb({ databaseUrl: fresh.url }) : db;
    try {
      const [x, y] = await Promise.all([migrate(db, dir), migrate(other, dir)]);
      expect([...x, ...y]).toEqual(['0002_second.sql']);
    } finally {
      if (other !== db) await other.close();
    }
    expect(await db.query('SELECT id FROM mtest.a ORDER BY id')).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('stops with a clear message when an applied file was edited, and applies nothing after it', async () => {
    await writeFile(path.join(dir, '0002_second.sql'), 'INSERT INTO mtest.a VALUES (22);');
    await writeFile(path.join(dir, '0003_third.sql'), 'INSERT INTO mtest.a VALUES (3);');
    const err = await migrate(db, dir).catch((e) => e);
    expect(err).toBeInstanceOf(MigrationChecksumError);
    expect(err.message).toContain('0002_second.sql was changed after it was applied');
    expect(await db.query('SELECT id FROM mtest.a ORDER BY id')).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('rolls back a failing file whole', async () => {
    await writeFile(path.join(dir, '0002_second.sql'), 'INSERT INTO mtest.a VALUES (2);');
    await writeFile(path.join(dir, '0003_third.sql'), 'INSERT INTO mtest.a VALUES (3); SELECT no_such_function();');
    await expect(migrate(db, dir)).rejects.toThrow(/no_such_function/);
    expect(await db.query('SELECT id FROM mtest.a ORDER BY id')).toEqual([{ id: 1 }, { id: 2 }]);
    expect(await db.query(`SELECT name FROM schema_migration WHERE name = '0003_third.sql'`)).toEqual([]);
  });
});
