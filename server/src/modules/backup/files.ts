import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { Transform, Writable } from 'node:stream';
import type { BackupKind } from '@coldwatch/contract';

/*
 * The backup folder: a file is written under a temporary name, flushed to the disk, checked by
 * reading it back, and only then renamed to its final name (and the folder flushed), so that
 * a crash or a full disk in the middle of a backup never leaves a half file under a backup's
 * name, and never touches the backups already there. Next to each file, `<name>.sha256` in the
 * format of `sha256sum` (`sha256sum -c` checks a copy anywhere; restore checks it too).
 */

export const EXTENSION: Record<BackupKind, string> = { pglite: 'tar.gz', pg_dump: 'dump', logical: 'sql.gz' };
const PARTIAL = '.partial';
/** A partial file older than this belongs to no running backup (the job's lease is shorter). */
const STALE_PARTIAL_MS = 24 * 3600_000;

/** Backup names are ours: what a link or a request names is only ever looked up among them. */
export const BACKUP_NAME = /^coldwatch-\d{8}T\d{6}Z(?:-\d+)?-(pglite|pg_dump|logical)\.(tar\.gz|dump|sql\.gz)$/;

/**
 * `coldwatch-20250301T020000Z-logical.sql.gz`; `-2`, `-3` … when that second already has one,
 * in the folder or (`recorded`) among the names of the record, whose file may be gone.
 */
export async function freshName(dir: string, kind: BackupKind, at: number, recorded: (name: string) => Promise<boolean>): Promise<string> {
  const stamp = new Date(at).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  for (let n = 1; ; n++) {
    const name = `coldwatch-${stamp}${n > 1 ? `-${n}` : ''}-${kind}.${EXTENSION[kind]}`;
    if (!(await exists(path.join(dir, name))) && !(await exists(path.join(dir, name + PARTIAL))) && !(await recorded(name))) return name;
  }
}

export const exists = (p: string) => stat(p).then(() => true, () => false);

export interface Written {
  name: string;
  path: string;
  sizeBytes: number;
  sha256: string;
}

/**
 * Runs `produce` on a temporary path in `dir`, then makes the result a backup named `name`:
 * fsync, a read-back that hashes it (and for gzip files inflates it whole, so a damaged
 * stream fails here and not on the day of a restore), rename, fsync of the folder, checksum
 * file. On any failure the temporary file is removed and nothing else changes.
 */
export async function writeAtomically(dir: string, name: string, produce: (tmp: string) => Promise<void>): Promise<Written> {
  await mkdir(dir, { recursive: true });
  const final = path.join(dir, name);
  const tmp = final + PARTIAL;
  try {
    await produce(tmp);
    await fsyncFile(tmp);
    const { sha256, sizeBytes } = await checkFile(tmp, name.endsWith('.gz'));
    await rename(tmp, final);
    await fsyncFile(dir);
    await writeSmall(path.join(dir, `${name}.sha256`), `${sha256}  ${name}\n`);
    return { name, path: final, sizeBytes, sha256 };
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

async function fsyncFile(p: string) {
  const fd = await open(p, 'r');
  try {
    await fd.sync();
  } finally {
    await fd.close();
  }
}

async function writeSmall(p: string, text: string) {
  await writeFile(p + PARTIAL, text);
  await fsyncFile(p + PARTIAL);
  await rename(p + PARTIAL, p);
}

/** SHA-256 and size of a file; a gzip file is also inflated to its end (a truncated or damaged one throws). */
export async function checkFile(p: string, gzip: boolean): Promise<{ sha256: string; sizeBytes: number }> {
  const hash = createHash('sha256');
  let sizeBytes = 0;
  const hashing = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      sizeBytes += chunk.length;
      done(null, chunk);
    },
  });
  const discard = new Writable({ write: (_c, _e, done) => done() });
  await (gzip ? pipeline(createReadStream(p), hashing, createGunzip(), discard) : pipeline(createReadStream(p), hashing, discard));
  return { sha256: hash.digest('hex'), sizeBytes };
}

/** The checksum a backup's `.sha256` file records, when there is one. */
export async function recordedSha256(file: string): Promise<string | undefined> {
  const text = await readFile(`${file}.sha256`, 'utf8').catch(() => undefined);
  return text ? /^([0-9a-f]{64})\b/.exec(text.trim())?.[1] : undefined;
}

/** Deletes a backup and its checksum file; false when it was not there. */
export async function removeBackup(dir: string, name: string): Promise<boolean> {
  const had = await exists(path.join(dir, name));
  await rm(path.join(dir, name), { force: true });
  await rm(path.join(dir, `${name}.sha256`), { force: true });
  return had;
}

/** Removes what an interrupted backup left behind (a crash, a kill); a partial being written now is younger. */
export async function removeStalePartials(dir: string, now: number): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const n of names) {
    if (!n.endsWith(PARTIAL) || !n.startsWith('coldwatch-')) continue;
    const st = await stat(path.join(dir, n)).catch(() => undefined);
    if (st && now - st.mtimeMs > STALE_PARTIAL_MS) {
      await rm(path.join(dir, n), { force: true });
      removed++;
    }
  }
  return removed;
}
