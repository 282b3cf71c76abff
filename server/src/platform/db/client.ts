import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';

/**
 * One small interface over both engines: node-postgres when DATABASE_URL is set, PGlite
 * otherwise. SQL is written once, in PostgreSQL, and runs on both.
 */
export interface Queryable {
  query<T = Record<string, any>>(text: string, params?: unknown[]): Promise<T[]>;
}

export interface Db extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  one<T = Record<string, any>>(text: string, params?: unknown[]): Promise<T | undefined>;
  /** Runs fn in one transaction; rolls back if it throws. */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /** Several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

// numeric and bigint come back as numbers: our numerics are zone bounds, our bigints ids.
pg.types.setTypeParser(1700, (v) => (v === null ? null : Number(v)));
pg.types.setTypeParser(20, (v) => (v === null ? null : Number(v)));

export function postgresDb(url: string, max = 10): Db {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => {
    // An idle client lost its server (a database restart): the pool replaces it on next use.
  });
  const db: Db = {
    kind: 'postgres',
    async query(text, params) {
      return (await pool.query(text, params as any[])).rows;
    },
    async one(text, params) {
      return (await pool.query(text, params as any[])).rows[0];
    },
    async tx(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn({ query: async (t, p) => (await client.query(t, p as any[])).rows });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    async exec(sql) {
      await pool.query(sql);
    },
    async close() {
      await pool.end();
    },
  };
  return db;
}

const pgliteParsers = {
  1700: (v: string) => Number(v),
  20: (v: string) => Number(v),
};

export async function pgliteDb(dataDir?: string): Promise<Db> {
  const { PGlite } = await import('@electric-sql/pglite');
  const lite: PGlite = await PGlite.create(dataDir ? { dataDir, parsers: pgliteParsers } : { parsers: pgliteParsers });
  return {
    kind: 'pglite',
    async query(text, params) {
      return (await lite.query(text, params as any[])).rows as any[];
    },
    async one(text, params) {
      return (await lite.query(text, params as any[])).rows[0] as any;
    },
    async tx(fn) {
      // PGlite is one connection: its transaction holds a mutex, so other queries wait.
      return lite.transaction(async (t) => fn({ query: async (q, p) => (await t.query(q, p as any[])).rows as any[] }));
    },
    async exec(sql) {
      await lite.exec(sql);
    },
    async close() {
      await lite.close();
    },
  };
}

export async function openDb(opts: { databaseUrl?: string; dataDir?: string }): Promise<Db> {
  return opts.databaseUrl ? postgresDb(opts.databaseUrl) : pgliteDb(opts.dataDir);
}
