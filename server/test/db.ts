import pg from 'pg';
import { randomBytes } from 'node:crypto';
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
