import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Code, printGroupApi, REPORT_LIMITS, REPORT_LOCALES, REPORT_SCHEDULES, reportApi, reportLocale } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate, refusedLogged, writeLog, type AuditEntry } from '../../platform/audit/audit.js';
import { serve } from '../../platform/http/route.js';
import { AppError } from '../../platform/http/errors.js';
import { readLogged } from '../../platform/http/upload.js';
import { copySignature, signRequired, verifySigner } from '../exception/signing.js';
import * as groups from './printGroup.repository.js';
import * as reports from './reports.js';
import { REPORT_FONT_NAME } from './font.js';
import { SCHEDULE_DELAY_MS } from './schedule.js';
import { storeDownload } from '../download/index.js';

/*
 * Spec §2 /arch/printer, §7 printGroup/* and printer/info (function object Statistic: its view
 * code reads and prints, new/edit/remove change groups; editStatistic signs a report), the
 * carrier report, the reports made, their signing and the check of a file (docs/reports.md).
 */
const F = { view: ['viewStatistic'], add: ['newStatistic'], edit: ['editStatistic'], remove: ['removeStatistic'] };

export const reportRoutes: Module = async (app, deps) => {
  const { db } = deps;
  // The file checked by /report/verify.
  await app.register(multipart, { throwFileSizeLimit: false, limits: { files: 1, fields: 5 } });

  const sendPdf = (reply: FastifyReply, made: { id: number; pdf: Buffer; filename: string; sha256: string; downloadKey?: string }) => {
    if (made.downloadKey) reply.header('x-download-key', made.downloadKey);
    reply
      .type('application/pdf')
      .header('content-disposition', reports.attachment(made.filename))
      .header('x-report-id', String(made.id))
      .header('x-report-sha256', made.sha256)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff');
    return made.pdf;
  };

  /** A report made now: logged with its id and the SHA-256 of its file (a refusal or failure with result 0). */
  const make = async (req: FastifyRequest, entry: AuditEntry, fn: () => Promise<reports.Made>) => {
    let made: reports.Made;
    try {
      made = await fn();
    } catch (err) {
      await writeLog(db, req, entry, 0).catch(() => undefined);
      throw err;
    }
    // Kept in the download centre too (/download, kind 'report'), as the caller's file.
    const stored = await storeDownload(db, { customerId: made.customerId, userId: req.scope.userId, kind: 'report', source: 'report', name: made.filename, criteria: { reportId: made.id, ...(entry.params as object) } }, made.pdf);
    await writeLog(db, req, { ...entry, params: { ...(entry.params as object), reportId: made.id, sha256: made.sha256, downloadId: stored.id } }, 1);
    return { ...made, downloadKey: stored.key };
  };

  serve(app, printGroupApi.list, { funcs: F.view }, async (req) => groups.listGroups(db, req.scope, req.query));
  serve(app, printGroupApi.info, { funcs: F.view }, async (req) => groups.groupInfo(db, req.scope, req.query.id));
  serve(app, printGroupApi.add, { funcs: F.add }, async (req) =>
    mutate(db, req, { module: 'printGroup', method: 'add', content: `add the print group ${req.body.groupName}`, params: req.body }, (q) => groups.addGroup(q, req.scope, req.body)),
  );
  serve(app, printGroupApi.save, { funcs: F.edit }, async (req) =>
    mutate(db, req, { module: 'printGroup', method: 'save', content: `save the print group ${req.body.id}`, params: req.body }, (q) => groups.saveGroup(q, req.scope, req.body)),
  );
  serve(app, printGroupApi.check, { funcs: F.view }, async (req) => groups.checkName(db, req.scope, req.query));
  serve(app, printGroupApi.rename, { funcs: F.edit }, async (req) =>
    mutate(db, req, { module: 'printGroup', method: 'updateGroupName', content: `rename the print group ${req.body.id} to ${req.body.groupName}`, params: req.body }, (q) =>
      groups.renameGroup(q, req.scope, req.body.id, req.body.groupName),
    ),
  );
  serve(app, printGroupApi.del, { funcs: F.remove }, async (req) =>
    mutate(db, req, { module: 'printGroup', method: 'delete', content: `delete the print groups ${req.query.ids.join(',')}`, params: req.query }, (q) => groups.deleteGroups(q, req.scope, req.query.ids)),
  );
  // Send now: the last period's scheduled report, made and mailed by the schedule's job, woken here.
  serve(app, printGroupApi.send, { funcs: F.edit }, async (req) => {
    const out = await mutate(db, req, { module: 'printGroup', method: 'send', content: `send the last scheduled report of the group ${req.query.id}`, params: req.query }, (q) =>
      groups.queueLastPeriod(q, req.scope, req.query.id),
    );
    if (out.created) void deps.jobs?.runNow('report-schedule').catch(() => undefined);
    return out;
  });
  serve(app, printGroupApi.printerInfo, { funcs: F.view }, async () => ({
    paper: 'A4',
    font: REPORT_FONT_NAME,
    languages: [...REPORT_LOCALES],
    schedules: [...REPORT_SCHEDULES],
    maxDays: REPORT_LIMITS.maxDays,
    maxCarriers: REPORT_LIMITS.carriers,
    maxContacts: REPORT_LIMITS.contacts,
    scheduleDelayMin: SCHEDULE_DELAY_MS / 60_000,
  }));

  serve(app, printGroupApi.print, { funcs: F.view }, async (req, reply) => {
    const b = req.body;
    const locale = b.locale ?? reportLocale(req.locale);
    const entry = { module: 'printGroup', method: 'print', content: `print the group ${b.id}`, params: b };
    const made = await make(req, entry, async () => {
      const g = await groups.groupToPrint(db, req.scope, b.id);
      return reports.makeReport(db, req.scope, { carrierIds: g.carriers.map((c) => c.id), start: b.startTime, end: b.endTime, locale, groupId: g.id, groupName: g.groupName, kind: 'print', by: req.scope.name || req.scope.account });
    });
    return sendPdf(reply, made);
  });

  serve(app, reportApi.carrier, { funcs: F.view }, async (req, reply) => {
    const b = req.body;
    const entry = { module: 'report', method: 'carrier', content: `report of the carrier ${b.carrierId}`, params: b };
    const made = await make(req, entry, () =>
      reports.makeReport(db, req.scope, { carrierIds: [b.carrierId], start: b.startTime, end: b.endTime, locale: b.locale ?? reportLocale(req.locale), groupId: null, groupName: null, kind: 'print', by: req.scope.name || req.scope.account }),
    );
    return sendPdf(reply, made);
  });

  serve(app, reportApi.page, { funcs: F.view }, async (req) => reports.pageReports(db, req.scope, req.query));
  serve(app, reportApi.download, { funcs: F.view }, async (req, reply) => {
    const f = await reports.reportFile(db, req.scope, req.query.id);
    return sendPdf(reply, { id: req.query.id, ...f });
  });

  // Signing after review: the signature steps of the exceptions (modules/exception/signing.ts), then the signed file, its SHA-256 in this log row.
  serve(app, reportApi.sign, { funcs: F.edit }, async (req) => {
    const { sign, ...b } = req.body;
    const entry: AuditEntry = { module: 'report', method: 'sign', content: `sign the report ${b.id} (${b.meaning})`, params: { ...b } };
    const signer = await refusedLogged(db, req, entry, async () => {
      await reports.checkSignable(db, req.scope, b.id);
      if (!sign) throw signRequired();
      return verifySigner(db, req, sign);
    });
    const params = entry.params as Record<string, unknown>;
    params.signer = signer.account;
    return mutate(db, req, entry, async (q) => {
      const r = await reports.reportOf(q, req.scope, b.id);
      const signatureId = await copySignature(q, req.scope, signer, r.customerId);
      const out = await reports.writeSignature(q, req.scope, { reportId: b.id, userId: signer.userId, account: signer.account, name: signer.name, meaning: b.meaning, comment: b.comment, signatureId });
      // The log row is written after this, in the same transaction: it carries the signed file's hash.
      params.sha256 = out.sha256;
      return { id: b.id, ...out };
    });
  });

  serve(app, reportApi.verify, { funcs: F.view }, async (req) => {
    const entry = { module: 'report', method: 'verify', content: 'check a report file' };
    const file = await readLogged(db, req, entry, async () => {
      if (!req.isMultipart()) throw new AppError(Code.FAILED, 'errors.upload.noFile');
      const part = await req.file({ limits: { fileSize: REPORT_LIMITS.verifyBytes, files: 1 }, throwFileSizeLimit: false });
      if (!part) throw new AppError(Code.FAILED, 'errors.upload.noFile');
      const data = await part.toBuffer();
      if (part.file.truncated) throw new AppError(Code.FAILED, 'errors.report.fileTooLarge');
      return data;
    });
    const out = await reports.verifyFile(db, req.scope, file);
    await writeLog(db, req, { ...entry, params: { sha256: out.sha256, genuine: out.genuine, reportId: out.reportId } }, 1);
    return out;
  });
};
