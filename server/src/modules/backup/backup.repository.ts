import { sql } from 'kysely';
import type { BackupFile, BackupKind } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import { system } from '../../platform/db/kysely.js';
import { msOf, msOrNull, paged, type PageInput, type Paged } from '../../platform/db/query.js';

/** The record of the backups (migration 0032): platform data, no customer's, so the `system` builder. */

export interface BackupRecord {
  name: string;
  kind: BackupKind;
  startedAt: number;
  durationMs: number;
  sizeBytes?: number;
  sha256?: string;
  outcome: 'ok' | 'failed';
  error?: string;
  replica?: string;
}

export type BackupRow = Omit<BackupFile, 'present'>;

const columns = [
  'id',
  'name',
  'kind',
  msOf('started_at').as('startedAt'),
  msOf('finished_at').as('finishedAt'),
  'duration_ms as durationMs',
  'size_bytes as sizeBytes',
  'sha256',
  'outcome',
  'error',
  msOrNull('deleted_at').as('deletedAt'),
] as const;

export async function record(q: Queryable, r: BackupRecord): Promise<number> {
  const row = await system(q)
    .insertInto('backup_file')
    .values({
      name: r.name,
      kind: r.kind,
      started_at: new Date(r.startedAt),
      duration_ms: r.durationMs,
      size_bytes: r.sizeBytes ?? null,
      sha256: r.sha256 ?? null,
      outcome: r.outcome,
      error: (r.error ?? '').slice(0, 1000),
      replica: r.replica ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function page(q: Queryable, input: PageInput): Promise<Paged<BackupRow>> {
  return paged(system(q).selectFrom('backup_file').select([...columns]), input, { by: ['started_at desc', 'id desc'] }) as Promise<Paged<BackupRow>>;
}

/** A kept backup by id, or by file name (a signed link names its file). */
export function kept(q: Queryable, by: { id: number } | { name: string }) {
  let query = system(q).selectFrom('backup_file').select([...columns]).where('outcome', '=', 'ok').where('deleted_at', 'is', null);
  query = 'id' in by ? query.where('id', '=', by.id) : query.where('name', '=', by.name);
  return query.executeTakeFirst() as Promise<BackupRow | undefined>;
}

/**
 * The kept backups older than `cutoff`, except the newest good backup of all: however old it
 * is, the last good backup is never deleted (a console whose backups have failed for years
 * still holds one).
 */
export function expired(q: Queryable, cutoff: number) {
  const k = system(q);
  return k
    .selectFrom('backup_file')
    .select(['id', 'name'])
    .where('outcome', '=', 'ok')
    .where('deleted_at', 'is', null)
    .where('started_at', '<', new Date(cutoff))
    .where('id', '<>', k.selectFrom('backup_file').select(sql<number>`max(id)`.as('m')).where('outcome', '=', 'ok'))
    .execute();
}

/** Whether a good backup of this name was ever recorded (its file may have been deleted since). */
export async function named(q: Queryable, name: string): Promise<boolean> {
  return !!(await system(q).selectFrom('backup_file').select('id').where('name', '=', name).where('outcome', '=', 'ok').executeTakeFirst());
}

export async function markDeleted(q: Queryable, id: number) {
  await system(q).updateTable('backup_file').set({ deleted_at: sql<Date>`now()` }).where('id', '=', id).execute();
}

/** When the backup job runs next (its schedule row, jobs/backup.ts). */
export async function nextRun(q: Queryable, job: string): Promise<number | null> {
  const row = await system(q).selectFrom('job_schedule').select(msOf('next_run_at').as('at')).where('name', '=', job).executeTakeFirst();
  return row?.at ?? null;
}

/** When the last good backup started, and the last failed attempt if it came after it (the GSP check of /count/guidance). */
export async function lastAttempts(q: Queryable): Promise<{ lastAt: number | null; failedAt: number | null }> {
  const k = system(q);
  const newest = (outcome: 'ok' | 'failed') =>
    k.selectFrom('backup_file').select(msOf('started_at').as('at')).where('outcome', '=', outcome).orderBy('started_at', 'desc').limit(1).executeTakeFirst();
  const [ok, failed] = await Promise.all([newest('ok'), newest('failed')]);
  const lastAt = ok?.at ?? null;
  const failedAt = failed && (lastAt === null || failed.at > lastAt) ? failed.at : null;
  return { lastAt, failedAt };
}
