import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MIGRATIONS_DIR } from '../src/platform/db/migrate.js';
import { openDb, type Db } from '../src/platform/db/client.js';
import { prepareDb } from '../src/platform/db/prepare.js';

/**
 * A fresh, migrated database for one test file: a new database on the PostgreSQL server
 * named by DATABASE_URL (CI sets it) or by `base`, or an in-memory PGlite when neither is set.
 */
export async function freshDb(base = process.env.DATABASE_URL): Promise<{ db: Db; url?: string; drop: () => Promise<void> }> {
  const { db, url, drop } = await emptyDb(base);
  await prepareDb(db);
  return { db, url, drop };
}

/**
 * A new, empty database (no migrations run): on the PostgreSQL server named by `base`, or an
 * in-memory PGlite. For tests that migrate it themselves, step by step.
 */
export async function emptyDb(base = process.env.DATABASE_URL): Promise<{ db: Db; url?: string; drop: () => Promise<void> }> {
  if (!base) {
    const db = await openDb({});
    return { db, drop: () => db.close() };
  }
  const name = `cw_test_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const db = await openDb({ databaseUrl: url.toString() });
  return {
    db,
    url: url.toString(),
    drop: async () => {
      await db.close();
      const a = new pg.Client({ connectionString: base });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

/**
 * A folder holding the migrations numbered before `prefix` (e.g. '0030'): migrate(db, dir) makes
 * a database as an installation that predates that migration has it.
 */
export async function migrationsBefore(prefix: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `cw-before-${prefix}-`));
  for (const f of (await readdir(MIGRATIONS_DIR)).filter((x) => /^\d{4}_.+\.sql$/.test(x) && x < prefix)) await copyFile(path.join(MIGRATIONS_DIR, f), path.join(dir, f));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
