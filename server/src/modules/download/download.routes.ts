import { Code, downloadApi, exportApi, type ExportCreated, type ExportSource } from '@coldwatch/contract';
import type { FastifyRequest } from 'fastify';
import type { AppDeps, Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { scoped } from '../../platform/db/scoped.js';
import { AppError, notFound } from '../../platform/http/errors.js';
import { serve } from '../../platform/http/route.js';
import { get as paramValue } from '../param/param.repository.js';
import { estimateReadings, sensorInScope } from '../history/history.repository.js';
import { carrierSubjects } from '../detaildata/subjects.js';
import { localTime } from '../backup/sceneExport.js';
import { detail, fileOf, generating, byKeys, page, remove } from './download.repository.js';
import { chunkTotals, readChunks } from './download.store.js';
import { askExport, type ExportAsk } from './exports.js';
import { askExceptions, askMonitorPoints, askStatistic, askVerifyTask } from './asks.js';

/*
 * Spec §7 download/record/* and share/exportHistory, §2 /count/exportTask and /download
 * (docs/exports.md). A record and its file are reached only through the caller's scope: its own
 * records, an administrator's its customers'. Asking for an export finds its subject in the
 * caller's scope first (a carrier of another customer is a 404, as everywhere), checks the
 * limits, and only then creates the record.
 */

const exportDays = async (deps: AppDeps) => Number(await paramValue(deps.db, 'export_retention_days'));

/** The customer day of a time, for file names: 20260501. */
const day = (ms: number, tz: string) => localTime(ms, tz).slice(0, 10).replace(/-/g, '');

/** The file name's safe form of a subject's name (kept readable, Chinese included). */
const safe = (s: string) => s.replace(/[\\/:*?"<>|\s]+/g, '_').slice(0, 60);

/** The view function of the data each export holds: asking needs it, like reading the data. */
export const SOURCE_FUNC: Record<ExportSource, string> = {
  history: 'viewHistory',
  detailData: 'viewHistory',
  exceptions: 'viewEx',
  statistic: 'viewStatistic',
  verifyTask: 'viewVerifyTask',
  monitorPoints: 'viewMonitorPointRealTime',
};

/** A history or detail-data export: its subject in the caller's scope, its rows estimated, its file named. */
async function askReadings(deps: AppDeps, req: FastifyRequest, source: 'history' | 'detailData', b: { deviceNo?: string; carrierIds?: number[]; start: number; end: number; format: 'xlsx' | 'csv' }): Promise<ExportCreated> {
  const scope = req.scope!;
  const { db } = deps;
  const criteria = { deviceNo: b.deviceNo, carrierIds: b.carrierIds, start: b.start, end: b.end };
  if (b.deviceNo) {
    const s = await sensorInScope(db, scope, b.deviceNo);
    if (!s) throw notFound();
    const { tz } = await tzOf(deps, req, s.customerId);
    const rows = await estimateReadings(db, [s.id], b.start, b.end);
    return askExport(deps, req, { source, format: b.format, baseName: `history-${safe(s.devNo)}-${day(b.start, tz)}-${day(b.end, tz)}`, criteria: { ...criteria, subject: s.devNo }, rows });
  }
  const [c] = await carrierSubjects(db, scope, b.carrierIds!);
  const { tz } = await tzOf(deps, req, c.customerId);
  const rows = await estimateReadings(db, c.sensors.map((s) => s.id), b.start, b.end);
  const base = source === 'history' ? 'history' : 'detail-data';
  return askExport(deps, req, { source, format: b.format, baseName: `${base}-${safe(c.name)}-${day(b.start, tz)}-${day(b.end, tz)}`, criteria: { ...criteria, subject: c.name }, rows });
}

async function tzOf(deps: AppDeps, req: FastifyRequest, customerId: number) {
  return scoped(deps.db, req.scope!).selectFrom('customer as c').select('c.time_zone as tz').where('c.id', '=', customerId).executeTakeFirstOrThrow();
}

export const downloadRoutes: Module = (app, deps) => {
  const { db } = deps;
  const view = { funcs: ['viewDownload'] };

  serve(app, downloadApi.page, view, async (req) => page(db, req.scope, req.query, req.locale, await exportDays(deps)));
  serve(app, downloadApi.detail, view, async (req) => (await detail(db, req.scope, req.query.id, req.locale, await exportDays(deps))) ?? Promise.reject(notFound()));
  serve(app, downloadApi.progress, { ...view, read: true }, async (req) => generating(db, req.scope, req.locale));
  serve(app, downloadApi.userProgress, view, async (req) => byKeys(db, req.scope, req.query.keys, req.locale));

  serve(app, downloadApi.download, view, async (req, reply) => {
    const f = await fileOf(db, req.scope, req.query.id);
    if (!f) throw notFound();
    if (f.status === 'generating') throw new AppError(Code.FAILED, 'errors.export.notReady', 409);
    if (f.status === 'failed') throw new AppError(Code.FAILED, 'errors.export.notGenerated', 410, undefined, { reason: f.error ?? '' });
    const rec = { id: f.id, customerId: f.customerId };
    const totals = await chunkTotals(db, rec);
    // §8 "corrupted file asks to regenerate": 410 says the record stays but its file is gone.
    if (totals.bytes !== Number(f.size) || !f.sha256) throw new AppError(Code.FAILED, 'errors.export.corrupt', 410);
    const type = { xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', csv: 'text/csv; charset=utf-8', pdf: 'application/pdf', zip: 'application/zip' }[f.format] ?? 'application/octet-stream';
    reply
      .type(type)
      .header('content-length', String(f.size))
      // RFC 6266: an ASCII fallback and the real (Chinese) name in UTF-8.
      .header('content-disposition', `attachment; filename="${f.name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(f.name)}`)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff');
    return readChunks(db, rec, { size: Number(f.size), sha256: f.sha256 });
  });

  serve(app, downloadApi.delete, { funcs: ['removeDownload'] }, async (req) => {
    const ids = req.query.ids;
    return mutate(db, req, { module: 'download', method: 'delete', content: `delete download records ${ids.join(',')}`, params: { ids } }, async (q) => {
      const r = await remove(q, req.scope, ids);
      if (!r.found) throw notFound();
      if (r.busy) throw new AppError(Code.FAILED, 'errors.export.notDeletable');
      return { deleted: r.deleted };
    });
  });

  // Generate again (§8: a missing or corrupt file, a failed export): the same criteria asked again, checked again.
  serve(app, downloadApi.regenerate, { funcs: ['viewExportTask'] }, async (req) => {
    const f = await fileOf(db, req.scope, req.query.id);
    if (!f) throw notFound();
    if (f.kind !== 'export') throw new AppError(Code.FAILED, 'errors.export.notRegenerable');
    const source = f.source as ExportSource;
    if (!req.scope.funcs.has(SOURCE_FUNC[source])) throw new AppError(Code.NO_PERMISSION, 'errors.noPermission');
    const c = f.criteria as Record<string, unknown> & { format: 'xlsx' | 'csv' };
    return ask(deps, req, source, c as never);
  });

  const ask = (d: AppDeps, req: FastifyRequest, source: ExportSource, body: never): Promise<ExportCreated> => {
    switch (source) {
      case 'history':
      case 'detailData':
        return askReadings(d, req, source, body);
      case 'exceptions':
        return askExceptions(d, req, body).then((a: ExportAsk) => askExport(d, req, a));
      case 'statistic':
        return askStatistic(d, req, body).then((a: ExportAsk) => askExport(d, req, a));
      case 'verifyTask':
        return askVerifyTask(d, req, body).then((a: ExportAsk) => askExport(d, req, a));
      case 'monitorPoints':
        return askMonitorPoints(d, req, body).then((a: ExportAsk) => askExport(d, req, a));
    }
  };

  serve(app, exportApi.history, { funcs: ['viewHistory', 'viewExportTask'] }, async (req) => ask(deps, req, 'history', req.body as never));
  serve(app, exportApi.detailData, { funcs: ['viewHistory', 'viewExportTask'] }, async (req) => ask(deps, req, 'detailData', req.body as never));
  serve(app, exportApi.exceptions, { funcs: ['viewEx', 'viewExportTask'] }, async (req) => ask(deps, req, 'exceptions', req.body as never));
  serve(app, exportApi.statistic, { funcs: ['viewStatistic', 'viewExportTask'] }, async (req) => ask(deps, req, 'statistic', req.body as never));
  serve(app, exportApi.verifyTask, { funcs: ['viewVerifyTask', 'viewExportTask'] }, async (req) => ask(deps, req, 'verifyTask', req.body as never));
  serve(app, exportApi.monitorPoints, { funcs: ['viewMonitorPointRealTime', 'viewExportTask'] }, async (req) => ask(deps, req, 'monitorPoints', req.body as never));
};
