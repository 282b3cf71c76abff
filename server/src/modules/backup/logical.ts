import type { Writable } from 'node:stream';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { migrationFiles, MIGRATIONS_DIR } from '../../platform/db/migrate.js';
import { CopyOut } from './pgCopyOut.js';
import { drained } from './stream.js';

/*
 * The console's own logical backup: one gzipped SQL script that psql could run as it is, and
 * that restore.ts reads part by part. It replays the migrations the database had (their text
 * is in the file, so the backup does not depend on the code that reads it), creates the
 * partitions the console made at run time, empties what the migrations seeded, loads every
 * table with COPY and puts the foreign keys, triggers and sequences back:
 *
 *   --@coldwatch {"format":"coldwatch-logical","version":1,…}     header: what, when, from where
 *   --@coldwatch {"part":"schema"}        schema_migration itself
 *   --@coldwatch {"part":"migration",…}   each migration, then its schema_migration row
 *   --@coldwatch {"part":"prepare"}       partitions; triggers off; foreign keys dropped; TRUNCATE
 *   --@coldwatch {"part":"copy","table":…,"columns":[…]}   COPY … FROM stdin; rows; \.
 *   --@coldwatch {"part":"finish"}        foreign keys (checked again), triggers on, setval
 *   --@coldwatch {"part":"end","rows":{…}}   the row count of every table: a file cut short lacks it
 *
 * Why foreign keys are dropped and added back rather than tables ordered by them: the order
 * does not exist when references form a cycle, and adding a key back checks every row of the
 * restored data against it. User triggers are off during the load because they would rewrite
 * what is restored (the system log's hash chain is computed on insert; its TRUNCATE is refused).
 * Everything is read in one REPEATABLE READ snapshot, so the tables agree with each other.
 */

export const LOGICAL_FORMAT = 'coldwatch-logical';
export const LOGICAL_VERSION = 1;
export const MARK = '--@coldwatch ';

/** Where a logical dump reads from: a PostgreSQL snapshot, or a PGlite (restore's conversion of a PGlite backup). */
export interface DumpSource {
  engine: 'postgres' | 'pglite';
  query<T>(text: string): Promise<T[]>;
  /** `COPY table (columns) TO` in text format, into sink; answers the row count. */
  copyOut(table: string, columns: string[], sink: Writable): Promise<number>;
}

export interface LogicalHeader {
  format: typeof LOGICAL_FORMAT;
  version: number;
  createdAt: string;
  engine: 'postgres' | 'pglite';
  serverVersion: string;
  migrations: string[];
  tables: number;
}

export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
export const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;
const columnList = (columns: string[]) => columns.map(ident).join(', ');
/** What `COPY <target> FROM` names, for a table and its columns. */
export const copyTarget = (table: string, columns: string[]) => `${ident(table)} (${columnList(columns)})`;

interface Catalog {
  serverVersion: string;
  tables: { name: string; columns: string[] }[];
  partitions: { name: string; parent: string; bound: string }[];
  foreignKeys: { table: string; name: string; def: string }[];
  triggered: string[];
  sequences: { name: string; last_value: number | null; start_value: number }[];
  migrations: { name: string; checksum: string | null }[];
}

async function readCatalog(src: DumpSource): Promise<Catalog> {
  const ns = `n.nspname = current_schema()`;
  const [{ server_version }] = await src.query<{ server_version: string }>('SHOW server_version');
  return {
    serverVersion: server_version,
    // Generated columns are computed again on load; dropped ones are gone.
    tables: await src.query(
      `SELECT c.relname AS name, array_agg(a.attname::text ORDER BY a.attnum) AS columns
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
        WHERE ${ns} AND c.relkind = 'r' GROUP BY c.relname ORDER BY c.relname`,
    ),
    // In creation order, so that a partition that is itself partitioned comes before its own.
    partitions: await src.query(
      `SELECT c.relname AS name, p.relname AS parent, pg_get_expr(c.relpartbound, c.oid) AS bound
         FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
         JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE ${ns} AND c.relispartition AND c.relkind IN ('r', 'p') ORDER BY c.oid`,
    ),
    foreignKeys: await src.query(
      `SELECT cl.relname AS table, con.conname AS name, pg_get_constraintdef(con.oid) AS def
         FROM pg_constraint con JOIN pg_class cl ON cl.oid = con.conrelid JOIN pg_namespace n ON n.oid = cl.relnamespace
        WHERE ${ns} AND con.contype = 'f' AND con.conparentid = 0 ORDER BY 1, 2`,
    ),
    triggered: (
      await src.query<{ name: string }>(
        `SELECT DISTINCT c.relname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE ${ns} AND NOT t.tgisinternal AND t.tgparentid = 0 ORDER BY 1`,
      )
    ).map((r) => r.name),
    sequences: await src.query(`SELECT sequencename AS name, last_value, start_value FROM pg_sequences WHERE schemaname = current_schema() ORDER BY 1`),
    migrations: await src.query(`SELECT name, checksum FROM schema_migration ORDER BY name`),
  };
}

/** Text or bytes into the sink, waiting while it is full (and failing if it is closed meanwhile). */
function put(sink: Writable, data: string | Buffer): Promise<void> | void {
  if (sink.destroyed) return drained(sink);
  if (!sink.write(data)) return drained(sink);
}

const marker = (o: object) => `${MARK}${JSON.stringify(o)}\n`;

/**
 * Writes the whole database of `src` as a logical dump into `sink` (which the caller compresses
 * and ends). Answers the row count of every table. A migration the database has but the code
 * does not (or has changed) stops the dump: its text is what a restore would need.
 */
export async function writeLogical(src: DumpSource, sink: Writable, migrationsDir = MIGRATIONS_DIR): Promise<Record<string, number>> {
  const cat = await readCatalog(src);
  const files = new Map((await migrationFiles(migrationsDir)).map((f) => [f.name, f]));
  for (const m of cat.migrations) {
    const f = files.get(m.name);
    if (!f) throw new Error(`the database has migration ${m.name}, which this console does not have: back it up with the console version that applied it`);
    if (m.checksum && m.checksum !== f.checksum) throw new Error(`migration ${m.name} of the database differs from this console's file`);
  }
  const header: LogicalHeader = {
    format: LOGICAL_FORMAT,
    version: LOGICAL_VERSION,
    createdAt: new Date().toISOString(),
    engine: src.engine,
    serverVersion: cat.serverVersion,
    migrations: cat.migrations.map((m) => m.name),
    tables: cat.tables.length,
  };
  await put(sink, marker(header));
  await put(sink, `-- Coldwatch logical backup. Restore: npm run restore -- <this file>, or into an empty database: gunzip -c <this file> | psql -v ON_ERROR_STOP=1 -1 -d <database>\n`);
  await put(sink, "SET client_encoding = 'UTF8';\nSET standard_conforming_strings = on;\n");
  await put(sink, marker({ part: 'schema' }));
  // What migrate.ts makes before the first migration.
  await put(sink, 'CREATE TABLE IF NOT EXISTS schema_migration (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());\n');
  await put(sink, 'ALTER TABLE schema_migration ADD COLUMN IF NOT EXISTS checksum text;\n');
  for (const m of cat.migrations) {
    const f = files.get(m.name)!;
    await put(sink, marker({ part: 'migration', name: f.name, checksum: f.checksum }));
    await put(sink, `${f.sql}\n;\nINSERT INTO schema_migration (name, checksum) VALUES (${literal(f.name)}, ${literal(f.checksum)});\n`);
  }

  const prepare = [
    ...cat.partitions.map((p) => `CREATE TABLE IF NOT EXISTS ${ident(p.name)} PARTITION OF ${ident(p.parent)} ${p.bound};`),
    ...cat.triggered.map((t) => `ALTER TABLE ${ident(t)} DISABLE TRIGGER USER;`),
    ...cat.foreignKeys.map((k) => `ALTER TABLE ${ident(k.table)} DROP CONSTRAINT ${ident(k.name)};`),
    // What the migrations seeded goes; the rows of the backup take its place.
    cat.tables.length ? `TRUNCATE TABLE ${cat.tables.map((t) => ident(t.name)).join(', ')};` : '',
  ];
  await put(sink, marker({ part: 'prepare' }) + prepare.filter(Boolean).join('\n') + '\n');

  const rows: Record<string, number> = {};
  for (const t of cat.tables) {
    await put(sink, marker({ part: 'copy', table: t.name, columns: t.columns }));
    await put(sink, `COPY ${copyTarget(t.name, t.columns)} FROM stdin;\n`);
    rows[t.name] = await src.copyOut(t.name, t.columns, sink);
    await put(sink, '\\.\n');
  }

  const finish = [
    ...cat.foreignKeys.map((k) => `ALTER TABLE ${ident(k.table)} ADD CONSTRAINT ${ident(k.name)} ${k.def};`),
    ...cat.triggered.map((t) => `ALTER TABLE ${ident(t)} ENABLE TRIGGER USER;`),
    ...cat.sequences.map((s) =>
      s.last_value === null ? `SELECT pg_catalog.setval(${literal(ident(s.name))}, ${s.start_value}, false);` : `SELECT pg_catalog.setval(${literal(ident(s.name))}, ${s.last_value}, true);`,
    ),
  ];
  await put(sink, marker({ part: 'finish' }) + finish.join('\n') + '\n');
  await put(sink, marker({ part: 'end', rows }));
  return rows;
}

/**
 * A logical dump of a PostgreSQL database on a connection of its own, in one REPEATABLE READ
 * READ ONLY transaction (the tables agree with each other as of its start). A lock it cannot get
 * within a minute fails the dump (the job tries again later) instead of waiting behind DDL.
 */
export async function dumpPostgres(url: string, sink: Writable): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  // A lost connection emits 'error' on the client; the query in flight rejects as well.
  client.on('error', () => undefined);
  await client.connect();
  // The file closed early (the job stopped, the disk failed): the COPY in flight is cut off with the connection.
  sink.once('close', () => void client.end().catch(() => undefined));
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await client.query(`SET LOCAL lock_timeout = '60s'`);
    const rows = await writeLogical(
      {
        engine: 'postgres',
        query: async <T>(text: string) => (await client.query(text)).rows as T[],
        copyOut: (table, columns, out) => {
          const copy = new CopyOut(`COPY ${copyTarget(table, columns)} TO STDOUT`, out);
          void client.query(copy);
          return copy.finished;
        },
      },
      sink,
    );
    await client.query('COMMIT');
    return rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The same from a PGlite of its own (restore's conversion of a PGlite backup for PostgreSQL). */
export function pgliteSource(lite: PGlite): DumpSource {
  return {
    engine: 'pglite',
    query: async <T>(text: string) => (await lite.query(text)).rows as T[],
    async copyOut(table, columns, sink) {
      const r = await lite.query(`COPY ${copyTarget(table, columns)} TO '/dev/blob'`);
      const data = r.blob ? Buffer.from(await r.blob.arrayBuffer()) : Buffer.alloc(0);
      await put(sink, data);
      let n = 0;
      for (let i = data.indexOf(10); i !== -1; i = data.indexOf(10, i + 1)) n++;
      return n;
    },
  };
}
