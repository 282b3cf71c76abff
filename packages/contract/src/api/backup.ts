import { z } from 'zod';
import { id, ms, pageOf, pageQuery, route, startNotAfterEnd, timeRange } from './route.js';

/*
 * Data backup (spec §2 /dataBackup, §3 "backup history deletion (years)", §7 share/backup/…):
 * the whole-database backups the `backup` job writes every day (docs/operations.md "Backups"),
 * their download by platform administrators and by a signed, expiring link, and a customer's
 * own export of one scene.
 */

/**
 * How a backup was written: `pglite` the embedded database's data directory (tar.gz),
 * `pg_dump` PostgreSQL's custom format, `logical` the console's own SQL and COPY script (gzip).
 */
export const BACKUP_KINDS = ['pglite', 'pg_dump', 'logical'] as const;
export type BackupKind = (typeof BACKUP_KINDS)[number];

export const backupFile = z.object({
  id: z.number().int(),
  /** The file's name in the backup folder ('' for a run that failed before it had one). */
  name: z.string(),
  kind: z.enum(BACKUP_KINDS),
  startedAt: ms,
  finishedAt: ms,
  durationMs: z.number().int(),
  sizeBytes: z.number().int().nullable(),
  sha256: z.string().nullable(),
  /** ok: written and recorded; failed: `error` says why (no file kept). */
  outcome: z.enum(['ok', 'failed']),
  error: z.string(),
  /** When retention deleted the file (backup_retention_years); null while it is kept. */
  deletedAt: ms.nullable(),
  /** The file is in the backup folder of the console that answered (false: deleted, moved or on another machine). */
  present: z.boolean(),
});
export type BackupFile = z.infer<typeof backupFile>;

/** A link's fields, as /dataBackup receives them in its query (signed by the server, checked on use). */
export const backupLinkQuery = z.object({
  name: z.string().trim().min(1).max(120),
  /** Expiry, UTC ms. */
  exp: z.coerce.number().int().positive(),
  /** The user who made the link (for the system log of its downloads). */
  by: z.coerce.number().int().positive(),
  sig: z.string().trim().min(1).max(100),
});
export type BackupLink = z.infer<typeof backupLinkQuery>;

/** How long a download link of a backup works. */
export const BACKUP_LINK_TTL_MS = 24 * 3600_000;
/** The longest period of one scene export (spec §9's longest quick range, three months). */
export const SCENE_EXPORT_MAX_DAYS = 92;
export const SCENE_EXPORT_DEFAULT_DAYS = 30;

export const backupApi = {
  list: route({
    method: 'GET',
    path: '/service/share/backup/file/list',
    tag: 'backup',
    summary: 'The whole-database backups, newest first, with the backup folder, how long they are kept and when the next one runs',
    query: pageQuery({}),
    result: pageOf(backupFile).extend({
      /** The backup folder of the console that answered (BACKUP_DIR). */
      dir: z.string(),
      /** backup_retention_years: backups older than this are deleted by the job. */
      retentionYears: z.number().int(),
      /** When the backup job runs next (null before the job first started). */
      nextRunAt: ms.nullable(),
    }),
  }),
  download: route({
    method: 'GET',
    path: '/service/share/backup/file/download',
    tag: 'backup',
    summary: 'One backup file (platform administrators)',
    query: z.object({ id }),
    result: z.unknown(),
    raw: 'file',
  }),
  link: route({
    method: 'POST',
    path: '/service/share/backup/file/link',
    tag: 'backup',
    summary: 'A signed link to one backup file that works without signing in until it expires (platform administrators)',
    query: z.object({ id }),
    result: z.object({ url: z.string(), expiresAt: ms }),
  }),
  shared: route({
    method: 'GET',
    path: '/service/share/backup/file/shared',
    tag: 'backup',
    summary: 'What a signed link names (the /dataBackup page; no sign-in)',
    query: backupLinkQuery,
    result: z.object({ name: z.string(), sizeBytes: z.number().int().nullable(), createdAt: ms, expiresAt: ms }),
  }),
  sharedFile: route({
    method: 'GET',
    path: '/service/share/backup/file/shared/download',
    tag: 'backup',
    summary: 'The file a signed link names (no sign-in)',
    query: backupLinkQuery,
    result: z.unknown(),
    raw: 'file',
  }),
  scene: route({
    method: 'GET',
    path: '/service/share/backup/scene',
    tag: 'backup',
    summary: `One scene's records for the customer to keep (xlsx): carriers, sensors, readings and exceptions of a period of at most ${SCENE_EXPORT_MAX_DAYS} days (default the last ${SCENE_EXPORT_DEFAULT_DAYS})`,
    query: z
      .object({ sceneId: id, ...timeRange })
      .refine(...startNotAfterEnd)
      .refine((q) => q.startTime === undefined || q.endTime === undefined || q.endTime - q.startTime <= SCENE_EXPORT_MAX_DAYS * 86_400_000, {
        error: 'errors.backup.sceneSpan',
        path: ['startTime'],
      }),
    result: z.unknown(),
    raw: 'file',
  }),
};
