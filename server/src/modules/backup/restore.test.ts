import { createWriteStream } from 'node:fs';
import { readFile, rm, truncate, writeFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { PassThrough } from 'node:stream';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDb, freshDb } from '../../../test/db.js';
import { openDb, type Db } from '../../platform/db/client.js';
import { prepareDb } from '../../platform/db/prepare.js';
import { verifyLog } from '../../platform/audit/chain.js';
import { writeLog } from '../../platform/audit/audit.js';
import { fillForBackup, fingerprint, tempDir, type Fingerprint } from './backup.fixture.js';
import { runBackup } from './backup.service.js';
import { pgliteSource, writeLogical } from './logical.js';
import { restoreBackup } from './restore.js';

/*
 * "A backup that has never been restored is not a backup": each kind of backup is written by
 * the job's own code, restored by `npm run restore`'s own code into a new database, and the
 * copy compared with the original: the row count of every table, the last reading, the system
 * log's hash chains (verifyLog), the sequences; then the console's start (prepareDb) runs on it
 * and a new row takes the next id.
 */

const PG = process.env.DATABASE_URL;
const SLOW = 240_000;

let src: { db: Db; url?: string; drop: () => Promise<void> };
let dir: string;
const cleanup: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  src = await freshDb();
  await fillForBackup(src.db);
  dir = await tempDir('backup');
}, SLOW);
afterAll(async () => {
  for (const c of cleanup.reverse()) await c().catch(() => undefined);
  await src?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A backup of the source, with the source as it was when the backup was taken (each backup adds its own row afterwards). */
async function backup(kind?: 'logical' | 'pg_dump') {
  const expected = await fingerprint(src.db);
  return { b: await runBackup({ db: src.db, backupDir: dir, databaseUrl: src.url }, { kind }), expected };
}

/** The copy holds what the original held, its chains verify, the console starts on it and goes on numbering. */
async function expectSameAs(copy: Db, original: Fingerprint) {
  const got = await fingerprint(copy);
  expect(got.counts).toEqual(original.counts);
  expect(got.lastReading).toEqual(original.lastReading);
  expect(got.sequences).toEqual(original.sequences);
  expect(got.readings).toBe(original.readings);
  expect(original.readings).toBeGreaterThan(1000);
  expect(Object.keys(original.counts).filter((t) => t.startsWith('reading_2') && original.counts[t] > 0).length).toBeGreaterThanOrEqual(2);
  const report = await verifyLog(copy);
  expect(report.findings).toEqual([]);
  expect(report.rows).toBe(original.counts.sys_log);
  await prepareDb(copy);
  const before = original.sequences.sys_log_id_seq;
  await writeLog(copy, undefined, { module: 'backup-test', method: 'after-restore', content: 'a new row' }, 1);
  const [row] = await copy.query<{ id: number }>(`SELECT max(id)::int AS id FROM sys_log`);
  expect(row.id).toBeGreaterThan(before);
  expect((await verifyLog(copy)).findings).toEqual([]);
}

async function newPostgres() {
  const target = await emptyDb(PG);
  cleanup.push(target.drop);
  return target;
}

describe.runIf(PG)('backup and restore on PostgreSQL', () => {
  for (const kind of ['logical', 'pg_dump'] as const) {
    it(`${kind}: backup → restore into a new database → the same database`, async () => {
      const { b, expected } = await backup(kind);
      expect(b.kind).toBe(kind);
      expect((await stat(b.path)).size).toBe(b.sizeBytes);
      expect(await readFile(`${b.path}.sha256`, 'utf8')).toBe(`${b.sha256}  ${b.name}\n`);
      const target = await newPostgres();
      await target.db.close();
      await restoreBackup(b.path, { databaseUrl: target.url! });
      const copy = await openDb({ databaseUrl: target.url });
      cleanup.push(() => copy.close());
      await expectSameAs(copy, expected);
    }, SLOW);
  }

  it('refuses a database that is not empty, and leaves it as it was', async () => {
    const { b } = await backup('logical');
    const before = await fingerprint(src.db);
    await expect(restoreBackup(b.path, { databaseUrl: src.url! })).rejects.toThrow(/not empty/);
    expect(await fingerprint(src.db)).toEqual(before);
  }, SLOW);

  it('a logical backup cut short is refused and the new database stays empty', async () => {
    const { b } = await backup('logical');
    // Inflated, cut in the middle of the rows, compressed again (and no checksum file: that alone would refuse it).
    const cut = path.join(dir, 'cut.sql.gz');
    const text = (await import('node:zlib')).gunzipSync(await readFile(b.path));
    await writeFile(cut, (await import('node:zlib')).gzipSync(text.subarray(0, Math.floor(text.length * 0.7))));
    const target = await newPostgres();
    await expect(restoreBackup(cut, { databaseUrl: target.url! })).rejects.toThrow(/incomplete|end mark/);
    const [{ n }] = await target.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = 'public'`);
    expect(n).toBe(0);
  }, SLOW);

  it('a backup whose bytes changed after it was written is refused by its checksum', async () => {
    const { b } = await backup('pg_dump');
    const bytes = await readFile(b.path);
    bytes[bytes.length >> 1] ^= 0xff;
    await writeFile(b.path, bytes);
    const target = await newPostgres();
    await expect(restoreBackup(b.path, { databaseUrl: target.url! })).rejects.toThrow(/does not match/);
  }, SLOW);

  it('a PGlite backup restores into PostgreSQL (the way from the embedded database to a server)', async () => {
    const lite = await openDb({});
    cleanup.push(() => lite.close());
    await prepareDb(lite);
    await fillForBackup(lite);
    const liteFingerprint = await fingerprint(lite);
    const b = await runBackup({ db: lite, backupDir: dir });
    expect(b.kind).toBe('pglite');
    const target = await newPostgres();
    await target.db.close();
    const report = await restoreBackup(b.path, { databaseUrl: target.url! });
    expect(report.rows?.reading_default).toBe(liteFingerprint.counts.reading_default);
    const copy = await openDb({ databaseUrl: target.url });
    cleanup.push(() => copy.close());
    const got = await fingerprint(copy);
    expect(got.counts).toEqual(liteFingerprint.counts);
    expect(got.readings).toBe(liteFingerprint.readings);
    expect(got.lastReading).toEqual(liteFingerprint.lastReading);
    expect((await verifyLog(copy)).findings).toEqual([]);
  }, SLOW);
});

describe.runIf(!PG)('backup and restore on PGlite', () => {
  it('data directory: backup → restore into a new DATA_DIR → the same database', async () => {
    const { b, expected } = await backup();
    expect(b.kind).toBe('pglite');
    const dataDir = await tempDir('restored');
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    await restoreBackup(b.path, { dataDir });
    const copy = await openDb({ dataDir: path.join(dataDir, 'pg') });
    cleanup.push(() => copy.close());
    await expectSameAs(copy, expected);
    // Into a data directory that holds a database already: refused.
    await expect(restoreBackup(b.path, { dataDir })).rejects.toThrow(/not empty/);
  }, SLOW);

  it('logical dump written from PGlite → restore into a new DATA_DIR → the same database', async () => {
    // What the conversion of a PGlite backup writes, as a file: the logical format on the embedded engine alone.
    const { PGlite } = await import('@electric-sql/pglite');
    const { b, expected } = await backup();
    const lite = await PGlite.create({ loadDataDir: new Blob([new Uint8Array(await readFile(b.path))]) });
    const file = path.join(dir, 'from-pglite.sql.gz');
    const text = new PassThrough();
    const written = pipeline(text, createGzip(), createWriteStream(file));
    await writeLogical(pgliteSource(lite), text);
    text.end();
    await written;
    await lite.close();
    const dataDir = await tempDir('logical');
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    const report = await restoreBackup(file, { dataDir });
    expect(report.kind).toBe('logical');
    const copy = await openDb({ dataDir: path.join(dataDir, 'pg') });
    cleanup.push(() => copy.close());
    await expectSameAs(copy, expected);
  }, SLOW);

  it('a file that is no backup is refused before anything is made', async () => {
    const junk = path.join(dir, 'junk.sql.gz');
    await pipeline(async function* () {
      yield Buffer.from('SELECT 1;\n');
    }, createGzip(), createWriteStream(junk));
    const dataDir = await tempDir('junk');
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    await expect(restoreBackup(junk, { dataDir })).rejects.toThrow(/not a Coldwatch backup/);
    await truncate(junk, 0);
    await expect(restoreBackup(junk, { dataDir })).rejects.toThrow(/not a Coldwatch backup/);
  });
});
