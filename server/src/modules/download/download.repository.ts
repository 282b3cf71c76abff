import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { translate, type DownloadKind, type DownloadProgress, type DownloadRecord, type DownloadStatus, type Locale } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { Scope } from '../../platform/auth/scope.js';
import { isSceneLimited } from '../../platform/auth/scope.js';
import { scoped } from '../../platform/db/scoped.js';
import { contains, msOf, msOrNull, paged, type AnyExpressionBuilder, type PageInput, type Paged } from '../../platform/db/query.js';

/*
 * Download records (migration 0050; docs/exports.md): who asked for which file, its state and
 * progress, and what it holds. A user sees its own records; a customer's administrator (not
 * scene-limited) every record of its customers, as it sees their other records.
 */

export interface NewRecord {
  customerId: number;
  userId: number;
  kind: DownloadKind;
  /** What it holds (history, exceptions, report …). */
  source: string;
  /** The file name as downloaded, with its extension. */
  name: string;
  format: string;
  criteria: Record<string, unknown>;
}

/** A record as the store and the jobs need it. */
export interface RecordRef {
  id: number;
  customerId: number;
}

const ownScope = (customerId: number) => ({ customerIds: [customerId] });

export async function createRecord(q: Queryable, r: NewRecord, status: 'generating' = 'generating'): Promise<RecordRef & { key: string }> {
  const key = randomUUID();
  const row = await scoped(q, ownScope(r.customerId))
    .insertInto('download_record')
    .values({
      customer_id: r.customerId,
      user_id: r.userId,
      key,
      name: r.name.slice(0, 200),
      kind: r.kind,
      source: r.source.slice(0, 30),
      format: r.format,
      status,
      criteria: JSON.stringify(r.criteria),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, customerId: r.customerId, key };
}

/** The export job's run that makes it. */
export async function setJob(q: Queryable, rec: RecordRef, jobId: number) {
  await scoped(q, ownScope(rec.customerId)).updateTable('download_record').set({ job_id: jobId }).where('id', '=', rec.id).execute();
}

/** A record as its job reads it at the start of a try. */
export async function forJob(q: Queryable, rec: RecordRef) {
  return scoped(q, ownScope(rec.customerId))
    .selectFrom('download_record as d')
    .innerJoin('app_user as u', 'u.id', 'd.user_id')
    .select(['d.id', 'd.customer_id as customerId', 'd.user_id as userId', 'd.status', 'd.source', 'd.format', 'd.name', 'd.criteria', 'd.started_at as startedAt', 'u.name as userName', 'u.account'])
    .where('d.id', '=', rec.id)
    .executeTakeFirst();
}

/** A try begins: null when the record is no longer being generated (deleted, ended). */
export async function markStarted(q: Queryable, rec: RecordRef) {
  return scoped(q, ownScope(rec.customerId))
    .updateTable('download_record')
    .set({ started_at: sql`now()`, updated_at: sql`now()`, progress: 0 })
    .where('id', '=', rec.id)
    .where('status', '=', 'generating')
    .returning('id')
    .executeTakeFirst();
}

export async function setProgress(q: Queryable, rec: RecordRef, progress: number) {
  await scoped(q, ownScope(rec.customerId))
    .updateTable('download_record')
    .set({ progress: Math.max(0, Math.min(99, Math.floor(progress))), updated_at: sql`now()` })
    .where('id', '=', rec.id)
    .where('status', '=', 'generating')
    .execute();
}

export async function markGenerated(q: Queryable, rec: RecordRef, file: { size: number; sha256: string; rows?: number | null }) {
  await scoped(q, ownScope(rec.customerId))
    .updateTable('download_record')
    .set({ status: 'generated', progress: 100, size: file.size, sha256: file.sha256, rows: file.rows ?? null, error: null, updated_at: sql`now()`, finished_at: sql`now()` })
    .where('id', '=', rec.id)
    .execute();
}

/** Ends a record failed with its reason (a message key of errors.export, or the error's text). */
export async function markFailed(q: Queryable, rec: RecordRef, reason: string) {
  await scoped(q, ownScope(rec.customerId))
    .updateTable('download_record')
    .set({ status: 'failed', error: reason.slice(0, 500), size: null, sha256: null, updated_at: sql`now()`, finished_at: sql`now()` })
    .where('id', '=', rec.id)
    .where('status', '=', 'generating')
    .execute();
}

/** The records the caller may see: its own; an administrator's (not scene-limited), its customers'. */
const visible = (scope: Scope) => (eb: AnyExpressionBuilder) => (scope.isAdmin && !isSceneLimited(scope) ? eb.lit(true) : eb('d.user_id', '=', scope.userId));

/** A failure's reason in the reader's language: our keys translated, anything else as it was written. */
export const reasonText = (error: string | null, locale: Locale) => {
  if (!error) return null;
  const [key, ...rest] = error.split('|');
  return key.startsWith('errors.') ? translate(key, locale, { reason: rest.join('|') }) : error;
};

const DAY_MS = 86_400_000;

function recordOf(r: RecordRow, locale: Locale, exportDays: number): DownloadRecord {
  const end = r.status !== 'generating';
  return {
    id: r.id,
    key: r.key,
    name: r.name,
    kind: r.kind as DownloadKind,
    source: r.source,
    format: r.format,
    status: r.status as DownloadStatus,
    progress: r.progress,
    end,
    criteria: (r.criteria ?? {}) as Record<string, unknown>,
    rows: r.rows,
    size: r.size,
    sha256: r.sha256,
    error: reasonText(r.error, locale),
    userName: r.userName,
    createdAt: r.createdAt,
    finishedAt: r.finishedAt,
    expiresAt: r.kind === 'export' && r.finishedAt !== null ? r.finishedAt + exportDays * DAY_MS : null,
  };
}

interface RecordRow {
  id: number;
  key: string;
  name: string;
  kind: string;
  source: string;
  format: string;
  status: string;
  progress: number;
  criteria: unknown;
  rows: number | null;
  size: number | null;
  sha256: string | null;
  error: string | null;
  userName: string;
  createdAt: number;
  finishedAt: number | null;
}

const select = (q: Queryable, scope: Scope) =>
  scoped(q, scope)
    .selectFrom('download_record as d')
    .innerJoin('app_user as u', 'u.id', 'd.user_id')
    .select([
      'd.id',
      'd.key',
      'd.name',
      'd.kind',
      'd.source',
      'd.format',
      'd.status',
      'd.progress',
      'd.criteria',
      'd.rows',
      'd.size',
      'd.sha256',
      'd.error',
      'u.name as userName',
      msOf('d.created_at').as('createdAt'),
      msOrNull('d.finished_at').as('finishedAt'),
    ])
    .where(visible(scope));

export interface PageFilters extends PageInput {
  status?: DownloadStatus;
  kind?: DownloadKind;
  name?: string;
}

export async function page(q: Queryable, scope: Scope, f: PageFilters, locale: Locale, exportDays: number): Promise<Paged<DownloadRecord>> {
  let query = select(q, scope);
  if (f.status) query = query.where('d.status', '=', f.status);
  if (f.kind) query = query.where('d.kind', '=', f.kind);
  if (f.name) query = query.where('d.name', 'ilike', contains(f.name));
  const p = await paged(query, f, { sortable: { name: 'd.name', createdAt: 'd.created_at', size: 'd.size', status: 'd.status' }, by: ['d.id desc'] });
  return { ...p, rows: (p.rows as RecordRow[]).map((r) => recordOf(r, locale, exportDays)) };
}

export async function detail(q: Queryable, scope: Scope, id: number, locale: Locale, exportDays: number): Promise<DownloadRecord | undefined> {
  const r = (await select(q, scope).where('d.id', '=', id).executeTakeFirst()) as RecordRow | undefined;
  return r && recordOf(r, locale, exportDays);
}

/** What the store needs to send a record's file. */
export async function fileOf(q: Queryable, scope: Scope, id: number) {
  return scoped(q, scope)
    .selectFrom('download_record as d')
    .select(['d.id', 'd.customer_id as customerId', 'd.name', 'd.format', 'd.status', 'd.size', 'd.sha256', 'd.error', 'd.kind', 'd.source', 'd.criteria'])
    .where('d.id', '=', id)
    .where(visible(scope))
    .executeTakeFirst();
}

const progressOf = (r: { id: number; key: string; name: string; status: string; progress: number; error: string | null }, locale: Locale): DownloadProgress => ({
  id: r.id,
  key: r.key,
  name: r.name,
  status: r.status as DownloadStatus,
  progress: r.progress,
  end: r.status !== 'generating',
  error: reasonText(r.error, locale),
});

const progressColumns = ['d.id', 'd.key', 'd.name', 'd.status', 'd.progress', 'd.error'] as const;

/** The caller's own records being generated (the watch list the login guard loads, §4). */
export async function generating(q: Queryable, scope: Scope, locale: Locale): Promise<DownloadProgress[]> {
  const rows = await scoped(q, scope)
    .selectFrom('download_record as d')
    .select([...progressColumns])
    .where('d.user_id', '=', scope.userId)
    .where('d.status', '=', 'generating')
    .orderBy('d.id')
    .limit(100)
    .execute();
  return rows.map((r) => progressOf(r, locale));
}

/** The caller's records of these keys (the poll, §9); another's key answers nothing. */
export async function byKeys(q: Queryable, scope: Scope, keys: string[], locale: Locale): Promise<DownloadProgress[]> {
  if (!keys.length) return [];
  const rows = await scoped(q, scope).selectFrom('download_record as d').select([...progressColumns]).where('d.key', 'in', keys).where(visible(scope)).orderBy('d.id').execute();
  return rows.map((r) => progressOf(r, locale));
}

/** How many of the user's exports are being generated now (the in-flight limit). */
export async function inFlight(q: Queryable, scope: Scope): Promise<number> {
  const r = await scoped(q, scope)
    .selectFrom('download_record as d')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('d.user_id', '=', scope.userId)
    .where('d.kind', '=', 'export')
    .where('d.status', '=', 'generating')
    .executeTakeFirstOrThrow();
  return r.n;
}

/** Deletes the caller's generated and failed records of these ids (their files go with them); answers those deleted and those refused (being generated). */
export async function remove(q: Queryable, scope: Scope, ids: number[]) {
  const found = await scoped(q, scope).selectFrom('download_record as d').select(['d.id', 'd.status']).where('d.id', 'in', ids).where(visible(scope)).execute();
  const busy = found.filter((r) => r.status === 'generating').map((r) => r.id);
  const gone = found.filter((r) => r.status !== 'generating').map((r) => r.id);
  if (busy.length || !gone.length) return { deleted: 0, found: found.length, busy: busy.length };
  const r = await scoped(q, scope).deleteFrom('download_record').where('id', 'in', gone).where('status', '<>', 'generating').executeTakeFirst();
  return { deleted: Number(r.numDeletedRows), found: found.length, busy: 0 };
}
