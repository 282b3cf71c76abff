import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { constants, createGunzip, gunzipSync } from 'node:zlib';
import type { BackupKind } from '@coldwatch/contract';
import { openDb, pgliteParsers, type Db } from '../../platform/db/client.js';
import { checkFile, recordedSha256 } from './files.js';
import { MARK, pgliteSource, writeLogical } from './logical.js';
import { BadBackup, loadLogical } from './logicalLoad.js';
import { pgRestore } from './pgTools.js';

/*
 * `npm run restore -- <file> [--database-url …|--data-dir …]` (server/scripts/restore.ts):
 * a backup into an EMPTY database, which the console then starts on (its start applies the
 * migrations newer than the backup). What goes where:
 *
 *   backup \ into   PostgreSQL (--database-url)                 PGlite (--data-dir, as DATA_DIR)
 *   pglite tar.gz   converted: opened in memory, copied as a    unpacked into DATA_DIR/pg
 *                   logical dump (the way off PGlite)
 *   pg_dump         pg_restore (the machine needs it)           refused (PGlite cannot read it)
 *   logical sql.gz  loaded in one transaction                   loaded in one transaction
 */

export type RestoreTarget = { databaseUrl: string } | { dataDir: string };

export interface RestoreReport {
  kind: BackupKind;
  /** Rows loaded per table (the logical paths; pg_restore and an unpacked data directory do not count). */
  rows?: Record<string, number>;
  ms: number;
}

const PGDMP = Buffer.from('PGDMP');

/** The backup's kind from its first bytes (not from its name, which may have been changed). */
export async function kindOf(file: string): Promise<BackupKind> {
  const fd = await open(file, 'r');
  let head: Buffer;
  try {
    const buf = Buffer.alloc(64 * 1024);
    const { bytesRead } = await fd.read(buf, 0, buf.length, 0);
    head = buf.subarray(0, bytesRead);
  } finally {
    await fd.close();
  }
  if (head.subarray(0, 5).equals(PGDMP)) return 'pg_dump';
  if (head[0] === 0x1f && head[1] === 0x8b) {
    // Enough of the start inflated to see a tar header or our first line.
    let start: Buffer;
    try {
      start = gunzipSync(head, { finishFlush: constants.Z_SYNC_FLUSH });
    } catch {
      throw new BadBackup('the file is not a readable gzip file');
    }
    if (start.subarray(0, MARK.length).toString() === MARK) return 'logical';
    if (start.subarray(257, 262).toString() === 'ustar') return 'pglite';
  }
  throw new BadBackup('this is not a Coldwatch backup (neither a PGlite data directory, a pg_dump archive nor a logical backup)');
}

/** A database with nothing of its own yet: no table, view or sequence outside the system schemas. */
export async function assertEmpty(db: Db, where: string) {
  const [{ n }] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
      WHERE s.nspname NOT IN ('pg_catalog', 'information_schema') AND s.nspname NOT LIKE 'pg\\_%' AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')`,
  );
  if (n > 0) throw new BadBackup(`${where} is not empty (${n} tables, views or sequences): restore only into an empty database`);
}

async function assertEmptyDir(dir: string) {
  const names = await readdir(dir).catch(() => [] as string[]);
  if (names.length) throw new BadBackup(`${dir} is not empty: restore only into a new data directory`);
}

async function loadInto(db: Db, input: AsyncIterable<Buffer>) {
  return db.tx((q) => loadLogical(input, q));
}

const where = (t: RestoreTarget) => ('databaseUrl' in t ? t.databaseUrl.replace(/\/\/[^@/]*@/, '//') : path.join(t.dataDir, 'pg'));

export async function restoreBackup(file: string, target: RestoreTarget): Promise<RestoreReport> {
  const t0 = performance.now();
  const kind = await kindOf(file);
  const recorded = await recordedSha256(file);
  if (recorded && (await checkFile(file, kind !== 'pg_dump')).sha256 !== recorded) throw new BadBackup(`${file} does not match its ${path.basename(file)}.sha256: the file was changed or damaged`);
  const report = (rows?: Record<string, number>): RestoreReport => ({ kind, rows, ms: Math.round(performance.now() - t0) });

  if ('dataDir' in target) {
    const pgDir = path.join(target.dataDir, 'pg');
    await assertEmptyDir(pgDir);
    if (kind === 'pg_dump') throw new BadBackup('a pg_dump archive restores into PostgreSQL only: give --database-url');
    await mkdir(pgDir, { recursive: true });
    if (kind === 'pglite') {
      const { PGlite } = await import('@electric-sql/pglite');
      const lite = await PGlite.create({ dataDir: pgDir, loadDataDir: new Blob([new Uint8Array(await readFile(file))]), parsers: pgliteParsers });
      // Opening is the check: a damaged directory does not start.
      await lite.query('SELECT count(*) FROM schema_migration');
      await lite.close();
      return report();
    }
    const db = await openDb({ dataDir: pgDir });
    try {
      return report((await loadInto(db, createReadStream(file).pipe(createGunzip()))).rows);
    } finally {
      await db.close();
    }
  }

  const db = await openDb({ databaseUrl: target.databaseUrl });
  try {
    await assertEmpty(db, where(target));
    if (kind === 'pg_dump') {
      await pgRestore(target.databaseUrl, file);
      return report();
    }
    if (kind === 'logical') return report((await loadInto(db, createReadStream(file).pipe(createGunzip()))).rows);
    return report(await convertPglite(file, db));
  } finally {
    await db.close();
  }
}

/** A PGlite backup into PostgreSQL: opened in memory and copied across as a logical dump, without a file between. */
async function convertPglite(file: string, db: Db): Promise<Record<string, number>> {
  const { PGlite } = await import('@electric-sql/pglite');
  const lite = await PGlite.create({ loadDataDir: new Blob([new Uint8Array(await readFile(file))]), parsers: pgliteParsers });
  try {
    const pipe = new PassThrough();
    const writing = writeLogical(pgliteSource(lite), pipe).then(
      () => void pipe.end(),
      (err: Error) => void pipe.destroy(err),
    );
    try {
      const { rows } = await loadInto(db, pipe);
      await writing;
      return rows;
    } catch (err) {
      // The writer may be waiting for the reader that gave up: closing the pipe ends it.
      pipe.destroy();
      await writing;
      throw err;
    }
  } finally {
    await lite.close();
  }
}
