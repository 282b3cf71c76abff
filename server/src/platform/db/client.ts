import { createHash } from 'node:crypto';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { Outage, alwaysUp, type DbStatus } from './outage.js';
import { CopyIn } from './copy.js';
import { arrayParams } from './arrays.js';

/**
 * One small interface over both engines: node-postgres when DATABASE_URL is set, PGlite
 * otherwise. SQL is written once, in PostgreSQL, and runs on both. CRUD code does not call
 * `query` itself: it goes through the typed, tenant-scoped builders of `platform/db/kysely.ts`
 * and `platform/db/scoped.ts`; hand-written SQL is for the hot path (docs/data-layer.md).
 */
/**
 * A row of hand-written SQL whose caller names no row type. Callers name it
 * (`q.query<{ id: number }>(…)`); the default stays loose for those that do not yet
 * (server/src/alarm/testkit.ts reads its rows' columns as the types it returns).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- until every caller names its row type (above)
export type UntypedRow = Record<string, any>;

export interface Queryable {
  query<T = UntypedRow>(text: string, params?: unknown[]): Promise<T[]>;
  /** The rows and the number of rows a statement inserted, updated or deleted (Kysely's results). */
  run<T = UntypedRow>(text: string, params?: unknown[]): Promise<{ rows: T[]; rowCount: number }>;
  /** Several statements without parameters (a migration file), on this connection or transaction. */
  exec(sql: string): Promise<void>;
  /** `COPY table (columns) FROM STDIN` with these rows: COPY's text format, or its binary format as a Buffer (platform/db/copy.ts). */
  copyIn(target: string, data: string | Buffer): Promise<void>;
}

/** The channels every PostgreSQL connection of the console listens on. */
export const NOTICE_CHANNELS = ['coldwatch_auth'] as const;
export type NoticeChannel = (typeof NOTICE_CHANNELS)[number];

export interface Db extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /**
   * PostgreSQL only (undefined on PGlite): fn runs on every notice of the channel that reaches
   * any of the pool's connections (a connection's own commit's notices arrive before that
   * commit returns), whenever the pool opens a connection and when its last one closes (while
   * none is open, notices go unheard).
   */
  readonly onNotice?: (channel: NoticeChannel, fn: () => void) => void;
  one<T = UntypedRow>(text: string, params?: unknown[]): Promise<T | undefined>;
  /** Runs fn in one transaction; rolls back if it throws. */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /** Whether the database is reachable now (platform/db/outage.ts). */
  readonly status: DbStatus;
  /**
   * PGlite only: its whole data directory as a gzipped tar (the backup job, modules/backup).
   * PGlite runs one statement at a time and the dump takes its turn like a statement, so the
   * copy is never taken in the middle of one: it is what a power cut would leave, which
   * PostgreSQL opens by replaying its WAL.
   */
  readonly dumpDataDir?: () => Promise<Blob>;
  close(): Promise<void>;
}

// numeric and bigint come back as numbers: our numerics are zone bounds, our bigints ids.
pg.types.setTypeParser(1700, (v) => (v === null ? null : Number(v)));
pg.types.setTypeParser(20, (v) => (v === null ? null : Number(v)));

/**
 * The statements of `run` (every Kysely query, the writer's insert) go as named prepared
 * statements: each connection parses and plans a statement once, then PostgreSQL may keep a
 * generic plan, which takes planning (about 0.4 ms a statement, a third of a list page's
 * database time) off every request. Their texts are few (one per query shape), so the
 * per-connection cache stays small. `query` stays unnamed: hand-written SQL includes texts
 * built per call.
 */
const names = new Map<string, string>();
function prepared(text: string, values: unknown[] | undefined): pg.QueryConfig {
  let name = names.get(text);
  if (!name) names.set(text, (name = `cw${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`));
  return { name, text, values };
}

export function postgresDb(url: string, max = 10): Db {
  const watchers = new Map<string, Set<() => void>>();
  const fire = (channel: string) => watchers.get(channel)?.forEach((fn) => fn());
  const pool = new pg.Pool({
    // Each new connection listens before its first caller's query (pg-pool waits for this hook).
    onConnect: async (client: pg.ClientBase) => {
      client.on('notification', (n) => fire(n.channel));
      await client.query(NOTICE_CHANNELS.map((c) => `LISTEN ${c}`).join('; '));
      for (const c of NOTICE_CHANNELS) fire(c);
    },
    connectionString: url,
    max,
    // A server that does not answer (a network cut, a failover in progress) fails the connect
    // instead of holding the caller forever; keep-alive finds a dead peer on an idle connection.
    connectionTimeoutMillis: 5_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  pool.on('error', () => {
    // An idle client lost its server (a database restart): the pool replaces it on next use.
  });
  // The last connection gone (idle, or its server lost): from now until the next one listens,
  // notices go unheard, so what they would have said is assumed to have happened.
  pool.on('remove', () => {
    if (pool.totalCount === 0) for (const c of NOTICE_CHANNELS) fire(c);
  });
  const outage = new Outage(() => pool.query('SELECT 1'));
  const guard = outage.guard.bind(outage);
  const db: Db = {
    kind: 'postgres',
    status: outage,
    onNotice(channel, fn) {
      if (!watchers.has(channel)) watchers.set(channel, new Set());
      watchers.get(channel)!.add(fn);
    },
    query: (text, params) => guard(async () => (await pool.query(text, arrayParams(params))).rows),
    run: (text, params) =>
      guard(async () => {
        const r = await pool.query(prepared(text, arrayParams(params)));
        return { rows: r.rows, rowCount: r.rowCount ?? 0 };
      }),
    one: (text, params) => guard(async () => (await pool.query(text, arrayParams(params))).rows[0]),
    tx: (fn) => guard(() => transaction(pool, fn)),
    exec: (sql) => guard(async () => void (await pool.query(sql))),
    copyIn: (target, data) => guard(() => transaction(pool, (q) => q.copyIn(target, data))),
    async close() {
      outage.close();
      await pool.end();
    },
  };
  return db;
}

const copyFormat = (data: string | Buffer) => (typeof data === 'string' ? '' : ' WITH (FORMAT binary)');

async function copyInto(client: pg.PoolClient, target: string, data: string | Buffer) {
  const copy = new CopyIn(`COPY ${target} FROM STDIN${copyFormat(data)}`, typeof data === 'string' ? Buffer.from(data) : data);
  void client.query(copy);
  await copy.finished;
}

/** PGlite reads COPY's input from a blob named /dev/blob. */
const copyLite = async (q: Pick<PGlite, 'query'>, target: string, data: string | Buffer) =>
  void (await q.query(`COPY ${target} FROM '/dev/blob'${copyFormat(data)}`, [], { blob: new Blob([typeof data === 'string' ? data : new Uint8Array(data)]) }));

async function transaction<T>(pool: pg.Pool, fn: (q: Queryable) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A checked-out client that loses its server emits 'error' on itself, not on the pool:
  // unhandled, that would end the process. The failing query rejects as well, below.
  let broken: Error | undefined;
  const onError = (err: Error) => (broken = err);
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const result = await fn({
      query: async (t, p) => (await client.query(t, arrayParams(p))).rows,
      run: async (t, p) => {
        const r = await client.query(prepared(t, arrayParams(p)));
        return { rows: r.rows, rowCount: r.rowCount ?? 0 };
      },
      exec: async (sql) => void (await client.query(sql)),
      copyIn: (target, data) => copyInto(client, target, data),
    });
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch((e: Error) => (broken ??= e));
    throw err;
  } finally {
    client.off('error', onError);
    // A client whose connection failed is destroyed, never handed to the next caller.
    client.release(broken ?? undefined);
  }
}

export const pgliteParsers = {
  1700: (v: string) => Number(v),
  20: (v: string) => Number(v),
};

export async function pgliteDb(dataDir?: string): Promise<Db> {
  const { PGlite } = await import('@electric-sql/pglite');
  return pgliteFrom(await PGlite.create(dataDir ? { dataDir, parsers: pgliteParsers } : { parsers: pgliteParsers }));
}

/** The Db over an open PGlite (the benchmark keeps the PGlite itself for COPY). */
export function pgliteFrom(lite: PGlite): Db {
  return {
    kind: 'pglite',
    status: alwaysUp,
    async query<T>(text: string, params?: unknown[]) {
      return (await lite.query<T>(text, params)).rows;
    },
    async run<T>(text: string, params?: unknown[]) {
      const r = await lite.query<T>(text, params);
      return { rows: r.rows, rowCount: r.affectedRows ?? 0 };
    },
    async one<T>(text: string, params?: unknown[]) {
      return (await lite.query<T>(text, params)).rows[0];
    },
    async tx(fn) {
      // PGlite is one connection: its transaction holds a mutex, so other queries wait.
      return lite.transaction(async (t) =>
        fn({
          query: async <T>(q: string, p?: unknown[]) => (await t.query<T>(q, p)).rows,
          run: async <T>(q: string, p?: unknown[]) => {
            const r = await t.query<T>(q, p);
            return { rows: r.rows, rowCount: r.affectedRows ?? 0 };
          },
          exec: async (sql) => void (await t.exec(sql)),
          copyIn: (target, data) => copyLite(t, target, data),
        }),
      );
    },
    async exec(sql) {
      await lite.exec(sql);
    },
    copyIn: (target, data) => copyLite(lite, target, data),
    dumpDataDir: () => lite.dumpDataDir('gzip'),
    async close() {
      await lite.close();
    },
  };
}

export async function openDb(opts: { databaseUrl?: string; dataDir?: string }): Promise<Db> {
  return opts.databaseUrl ? postgresDb(opts.databaseUrl) : pgliteDb(opts.dataDir);
}
