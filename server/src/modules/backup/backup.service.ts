import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { PassThrough } from 'node:stream';
import { createGzip } from 'node:zlib';
import path from 'node:path';
import type { BackupKind } from '@coldwatch/contract';
import type { Db } from '../../platform/db/client.js';
import { get as paramValue } from '../param/param.repository.js';
import * as repo from './backup.repository.js';
import { freshName, removeBackup, removeStalePartials, writeAtomically, type Written } from './files.js';
import { dumpPostgres } from './logical.js';
import { pgDump, serverMajor, toolMajor } from './pgTools.js';

/*
 * One whole-database backup (the `backup` job, jobs/backup.ts; docs/operations.md "Backups"):
 *  - PGlite: its data directory (PGlite's dumpDataDir, a tar.gz), exactly the files the
 *    console runs on; restore unpacks it into a new DATA_DIR.
 *  - PostgreSQL: `pg_dump --format=custom` when the machine has a pg_dump of at least the
 *    server's major version (PostgreSQL's own, complete format); otherwise the console's own
 *    logical dump (logical.ts), which needs no tool on the machine and restores on either engine.
 * The file is written beside the others under a temporary name and becomes a backup only
 * once it is complete on disk (files.ts); then the run is recorded, and only then are backups
 * older than backup_retention_years deleted, never the newest good one.
 */

/** The backup job's name in job_schedule (jobs/backup.ts runs it; the list and the GSP check read its schedule). */
export const BACKUP_JOB = 'backup';

export interface BackupTarget {
  db: Db;
  backupDir: string;
  databaseUrl?: string;
  replicaId?: string;
}

export interface BackupOutcome extends Written {
  kind: BackupKind;
  durationMs: number;
  /** Old backups retention deleted after this one. */
  deleted: number;
}

/** What this console writes: PGlite's data directory, pg_dump's archive when a usable pg_dump is there, else the logical dump. */
export async function chooseKind(t: BackupTarget): Promise<BackupKind> {
  if (t.db.kind === 'pglite') return 'pglite';
  const tool = await toolMajor('pg_dump');
  return tool !== undefined && tool >= (await serverMajor(t.db)) ? 'pg_dump' : 'logical';
}

async function produce(t: BackupTarget, kind: BackupKind, tmp: string, signal?: AbortSignal): Promise<void> {
  if (kind === 'pglite') {
    if (!t.db.dumpDataDir) throw new Error('a PGlite backup needs the embedded database');
    // CHECKPOINT first: the copy then needs little WAL replayed when it is opened.
    await t.db.exec('CHECKPOINT');
    const tar = await t.db.dumpDataDir();
    await writeFile(tmp, new Uint8Array(await tar.arrayBuffer()), { signal });
    return;
  }
  if (!t.databaseUrl) throw new Error(`a ${kind} backup needs DATABASE_URL`);
  if (kind === 'pg_dump') {
    await pgDump(t.databaseUrl, tmp, signal);
    return;
  }
  const text = new PassThrough();
  const written = pipeline(text, createGzip({ level: 6 }), createWriteStream(tmp), { signal });
  try {
    await dumpPostgres(t.databaseUrl, text);
    text.end();
  } catch (err) {
    text.destroy(err as Error);
  }
  await written;
}

/**
 * Writes one backup and records it; a failure is recorded too (its row, then the error goes on
 * to the job, which logs it, retries it and shows it on /sys/scheduled). `kind` is for tests.
 */
export async function runBackup(t: BackupTarget, opts: { kind?: BackupKind; signal?: AbortSignal; now?: number } = {}): Promise<BackupOutcome> {
  const startedAt = opts.now ?? Date.now();
  const t0 = performance.now();
  let kind: BackupKind = opts.kind ?? (t.db.kind === 'pglite' ? 'pglite' : 'logical');
  let name = '';
  let written: Written;
  try {
    kind = opts.kind ?? (await chooseKind(t));
    await removeStalePartials(t.backupDir, startedAt);
    name = await freshName(t.backupDir, kind, startedAt, (n) => repo.named(t.db, n));
    written = await writeAtomically(t.backupDir, name, (tmp) => produce(t, kind, tmp, opts.signal));
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    await repo.record(t.db, { name, kind, startedAt, durationMs: Math.round(performance.now() - t0), outcome: 'failed', error, replica: t.replicaId }).catch(() => undefined);
    throw err;
  }
  const durationMs = Math.round(performance.now() - t0);
  await repo.record(t.db, { name, kind, startedAt, durationMs, sizeBytes: written.sizeBytes, sha256: written.sha256, outcome: 'ok', replica: t.replicaId });
  const deleted = await deleteExpired(t, startedAt);
  return { ...written, kind, durationMs, deleted };
}

/** Deletes the backups older than backup_retention_years (spec §3), keeping the newest good one whatever its age. */
export async function deleteExpired(t: BackupTarget, now: number): Promise<number> {
  const years = Number(await paramValue(t.db, 'backup_retention_years'));
  const cutoff = new Date(now);
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - years);
  let n = 0;
  for (const b of await repo.expired(t.db, cutoff.getTime())) {
    await removeBackup(t.backupDir, b.name);
    await repo.markDeleted(t.db, b.id);
    n++;
  }
  return n;
}

/** A backup's path in the folder; names come from the record, never from a request as such. */
export const backupPath = (dir: string, name: string) => path.join(dir, path.basename(name));
