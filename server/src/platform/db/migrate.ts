import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './client.js';

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Key of the advisory lock that serialises migration runs: replicas starting together apply each file once. */
const LOCK_KEY = 0x636f6c64; // 'cold'

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationChecksumError extends Error {}

const checksumOf = (sql: string) => createHash('sha256').update(sql.replace(/\r\n/g, '\n')).digest('hex');

export async function migrationFiles(dir = MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const names = (await readdir(dir)).filter((f) => /^\d{4}_.+\.sql$/.test(f)).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name), 'utf8');
      return { name, sql, checksum: checksumOf(sql) };
    }),
  );
}

/**
 * Applies the numbered SQL files that this database has not seen, in order. Each file runs
 * whole (the engine parses it: no statement splitter of ours) in its own transaction, under
 * a transaction-level advisory lock, and records its SHA-256. A file that was applied and
 * has changed since stops the start with a message naming it: an applied migration is
 * history, and a change belongs in a new file.
 */
export async function migrate(db: Db, dir = MIGRATIONS_DIR): Promise<string[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migration (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  await db.exec(`ALTER TABLE schema_migration ADD COLUMN IF NOT EXISTS checksum text`);
  const files = await migrationFiles(dir);
  const applied: string[] = [];
  for (const file of files) {
    const done = await db.tx(async (q) => {
      await q.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
      const [row] = await q.query<{ checksum: string | null }>('SELECT checksum FROM schema_migration WHERE name = $1', [file.name]);
      if (row) {
        // Databases migrated before checksums were kept take the file as it is now.
        if (row.checksum === null) await q.query('UPDATE schema_migration SET checksum = $2 WHERE name = $1', [file.name, file.checksum]);
        else if (row.checksum !== file.checksum) {
          throw new MigrationChecksumError(
            `migration ${file.name} was changed after it was applied to this database (checksum ${row.checksum.slice(0, 12)}… recorded, ${file.checksum.slice(0, 12)}… on disk). ` +
              'Restore the file as it was and put the change in a new numbered migration.',
          );
        }
        return false;
      }
      await q.exec(file.sql);
      await q.query('INSERT INTO schema_migration(name, checksum) VALUES ($1, $2)', [file.name, file.checksum]);
      return true;
    });
    if (done) applied.push(file.name);
  }
  return applied;
}
