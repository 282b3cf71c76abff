import { createReadStream } from 'node:fs';
import type { FastifyReply } from 'fastify';
import { backupApi, Code, USER_TYPE, type BackupLink } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { serve } from '../../platform/http/route.js';
import { writeLog } from '../../platform/audit/audit.js';
import { AppError, notFound } from '../../platform/http/errors.js';
import { ROOT_USER_ID } from '../../platform/auth/funcs.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { Db } from '../../platform/db/client.js';
import { get as paramValue } from '../param/param.repository.js';
import * as repo from './backup.repository.js';
import { BACKUP_JOB, backupPath } from './backup.service.js';
import { BACKUP_NAME, exists } from './files.js';
import { checkLink, linkInvalid, signLink } from './link.js';
import { exportScene } from './sceneExport.js';

/*
 * Data backup (spec §2 /dataBackup, §7 share/backup/…; docs/operations.md "Backups").
 * The list is for platform users (the parameters' view function, like /sys/scheduled where the
 * backup job runs); a backup holds every customer's data, so its download and its links are for
 * platform administrators only (editParam and account type 3, or root). A link works without a
 * session until it expires; each download, by session or link, leaves a system-log row.
 */

const platformAdmin = (s: Scope) => s.userType === USER_TYPE.platformAdmin || s.userId === ROOT_USER_ID;
const requireAdmin = (s: Scope) => {
  if (!platformAdmin(s)) throw new AppError(Code.NO_PERMISSION, 'errors.backup.notAdmin');
};

/** A kept backup whose file is in this console's folder, or 404. */
async function keptFile(db: Db, dir: string, by: { id: number } | { name: string }) {
  const row = await repo.kept(db, by);
  if (!row) throw notFound();
  const file = backupPath(dir, row.name);
  if (!(await exists(file))) throw new AppError(Code.NOT_FOUND, 'errors.backup.missing', 404);
  return { row, file };
}

function sendFile(reply: FastifyReply, file: string, name: string, size: number | null) {
  reply
    .type(name.endsWith('.gz') ? 'application/gzip' : 'application/octet-stream')
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff');
  if (size !== null) reply.header('content-length', size);
  return createReadStream(file);
}

export const backupRoutes: Module = (app, deps) => {
  const { db, config } = deps;
  const dir = config.backupDir;

  serve(app, backupApi.list, { funcs: ['viewParam'] }, async (req) => {
    const page = await repo.page(db, req.query);
    const rows = await Promise.all(page.rows.map(async (r) => ({ ...r, present: r.outcome === 'ok' && r.deletedAt === null && (await exists(backupPath(dir, r.name))) })));
    return { ...page, rows, dir, retentionYears: Number(await paramValue(db, 'backup_retention_years')), nextRunAt: await repo.nextRun(db, BACKUP_JOB) };
  });

  serve(app, backupApi.download, { funcs: ['editParam'] }, async (req, reply) => {
    requireAdmin(req.scope);
    const { row, file } = await keptFile(db, dir, { id: req.query.id });
    await writeLog(db, req, { module: 'backup', method: 'download', content: `download backup ${row.name}`, params: { id: row.id } }, 1);
    return sendFile(reply, file, row.name, row.sizeBytes);
  });

  serve(app, backupApi.link, { funcs: ['editParam'] }, async (req) => {
    requireAdmin(req.scope);
    const { row } = await keptFile(db, dir, { id: req.query.id });
    const link = await signLink(db, row.name, req.scope.userId);
    await writeLog(db, req, { module: 'backup', method: 'link', content: `download link for backup ${row.name}`, params: { id: row.id, expiresAt: link.exp } }, 1);
    const base = config.publicUrl ?? `${req.protocol}://${req.host}`;
    const query = new URLSearchParams({ name: link.name, exp: String(link.exp), by: String(link.by), sig: link.sig });
    return { url: `${base.replace(/\/$/, '')}/dataBackup?${query}`, expiresAt: link.exp };
  });

  /** What a genuine, unexpired link names; a name that is not a backup's is refused before any lookup. */
  const linked = async (link: BackupLink) => {
    if (!BACKUP_NAME.test(link.name)) throw linkInvalid();
    await checkLink(db, link);
    return keptFile(db, dir, { name: link.name });
  };

  serve(app, backupApi.shared, { public: true }, async (req) => {
    const { row } = await linked(req.query);
    return { name: row.name, sizeBytes: row.sizeBytes, createdAt: row.startedAt, expiresAt: req.query.exp };
  });

  serve(app, backupApi.sharedFile, { public: true }, async (req, reply) => {
    const { row, file } = await linked(req.query);
    await writeLog(db, req, { module: 'backup', method: 'download', content: `download backup ${row.name} by a link of user ${req.query.by}`, params: { name: row.name, by: req.query.by, exp: req.query.exp } }, 1);
    return sendFile(reply, file, row.name, row.sizeBytes);
  });

  serve(app, backupApi.scene, { funcs: ['viewScene', 'viewHistory', 'viewEx'] }, async (req, reply) => {
    const { filename, stream } = await exportScene(db, req.scope, req.query, req.locale ?? 'zh-CN');
    reply
      .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff');
    return stream;
  });
};
