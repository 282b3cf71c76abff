import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { Code, type ReportLocale as Locale, type ReportKind, type ReportRow, type ReportSchedule, type ReportSignatureRow, type ReportStatus, type ReportVerifyResult } from '@coldwatch/contract';
import type { Db, Queryable } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import { msOf, paged, type PageInput, type Paged } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';
import { AppError, notFound } from '../../platform/http/errors.js';
import { buildModel, stepSignatureIds, type ReportModel } from './report.model.js';
import { renderReport, type ReportSignature } from './report.pdf.js';
import { localTime, reportTexts } from './texts.js';

/*
 * Reports made (docs/reports.md): a report row is written first (its id is printed on every
 * page), its model gathered and its PDF drawn, then the row completed with the file, its size and
 * SHA-256. A report is the customer's; a scene-limited user sees those whose carriers are all in
 * its scenes. Signing draws the kept model again with every signature so far: the new file
 * replaces the served one and its SHA-256 is kept with the signature and in the system log.
 */

export const sha256Hex = (b: Buffer | Uint8Array) => createHash('sha256').update(b).digest('hex');

export interface Made {
  id: number;
  customerId: number;
  pdf: Buffer;
  sha256: string;
  filename: string;
}

/** The carriers a scene-limited caller sees (null: not limited). */
async function visibleCarriers(q: Queryable, scope: Scope): Promise<number[] | null> {
  if (scope.sceneIds === null) return null;
  const rows = await scoped(q, scope)
    .selectFrom('carrier as c')
    .select('c.id')
    .where((eb) => sceneLimit(eb, scope, 'carrier', 'c'))
    .execute();
  return rows.map((r) => r.id);
}

/** A file name of the report: its subject and period in the customer's days, in any language (RFC 5987 in the header). */
export function reportFileName(subject: string, start: number, end: number, tz: string): string {
  const safe = subject.replace(/[\\/:*?"<>|\s]+/g, '_').slice(0, 60) || 'report';
  return `${safe}_${localTime(start, tz).slice(0, 10)}_${localTime(end - 1, tz).slice(0, 10)}.pdf`;
}

/** content-disposition for a name that may hold Chinese: an ASCII fallback and the UTF-8 name. */
export const attachment = (name: string) => `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/** The step images of a model by id, from the immutable signature copies. */
async function stepImages(q: Queryable, scope: Pick<Scope, 'customerIds'>, m: ReportModel): Promise<Map<number, Buffer>> {
  const ids = [...new Set(stepSignatureIds(m).filter((x): x is number => x !== null))];
  if (!ids.length) return new Map();
  const rows = await scoped(q, scope).selectFrom('signature_copy').select(['id', 'data']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, Buffer.from(r.data)]));
}

/** The signatures of a report as the PDF prints them, oldest first. */
async function signaturesOf(q: Queryable, scope: Pick<Scope, 'customerIds'>, reportId: number): Promise<ReportSignature[]> {
  const rows = await scoped(q, scope)
    .selectFrom('report_signature as s')
    .leftJoin('signature_copy as c', 'c.id', 's.signature_id')
    .select(['s.user_name', 's.user_account', 's.meaning', 's.comment', msOf('s.signed_at').as('signedAt'), 'c.data'])
    .where('s.report_id', '=', reportId)
    .orderBy('s.id')
    .execute();
  return rows.map((r) => ({
    userName: r.user_name,
    userAccount: r.user_account,
    meaning: r.meaning as 'reviewed' | 'approved',
    comment: r.comment,
    signedAt: Number(r.signedAt),
    image: r.data ? Buffer.from(r.data) : null,
  }));
}

export interface MakeArgs {
  carrierIds: number[];
  start: number;
  end: number;
  locale: Locale;
  groupId: number | null;
  groupName: string | null;
  kind: ReportKind;
  period?: ReportSchedule;
  by: string;
  /** A scheduled report's row, already claimed: completed instead of a new one. */
  reportId?: number;
  now?: number;
}

/**
 * Makes a report: gathers its model in the caller's scope (null: none of the carriers is
 * visible, 404), writes its row, draws the PDF and stores it. A failure marks the row failed
 * with why and goes on to the caller.
 */
export async function makeReport(db: Db, scope: Scope, a: MakeArgs): Promise<Made> {
  const model = await buildModel(db, scope, { carrierIds: a.carrierIds, start: a.start, end: a.end, locale: a.locale, groupName: a.groupName, by: a.by, now: a.now });
  if (!model) throw notFound();
  const k = scoped(db, scope);
  const carrierNames = model.carriers.map((c) => c.name);
  let id = a.reportId;
  if (id === undefined) {
    const row = await k
      .insertInto('report')
      .values({
        customer_id: model.customer.id,
        group_id: a.groupId,
        group_name: a.groupName ?? '',
        carrier_ids: model.carriers.map((c) => c.id),
        carrier_names: carrierNames,
        kind: a.kind,
        period: a.kind === 'scheduled' ? (a.period ?? null) : null,
        start_ts: new Date(a.start),
        end_ts: new Date(a.end),
        tz: model.tz,
        locale: a.locale,
        created_by: a.by,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    id = Number(row.id);
  }
  try {
    const pdf = await renderReport({ id, model, stepImages: await stepImages(db, scope, model), signatures: [] });
    const sha256 = sha256Hex(pdf);
    await k
      .updateTable('report')
      .set({
        status: 'generated',
        error: '',
        model: JSON.stringify(model),
        pdf,
        size: pdf.length,
        sha256: Buffer.from(sha256, 'hex'),
        made_sha256: Buffer.from(sha256, 'hex'),
        carrier_ids: model.carriers.map((c) => c.id),
        carrier_names: carrierNames,
        tz: model.tz,
        finished_at: sql<Date>`now()`,
        lease_until: null,
      })
      .where('id', '=', id)
      .execute();
    return { id, customerId: model.customer.id, pdf, sha256, filename: reportFileName(a.groupName ?? carrierNames[0] ?? 'report', a.start, a.end, model.tz) };
  } catch (err) {
    await k
      .updateTable('report')
      .set({ status: 'failed', error: String((err as Error)?.message ?? err).slice(0, 500), lease_until: null })
      .where('id', '=', id)
      .execute()
      .catch(() => undefined);
    throw err;
  }
}

type Row = {
  id: number;
  customer_id: number;
  group_id: number | null;
  group_name: string;
  carrier_ids: number[];
  carrier_names: string[];
  kind: string;
  period: string | null;
  start_ts: number;
  end_ts: number;
  tz: string;
  locale: string;
  status: string;
  error: string;
  size: number | null;
  sha256: Buffer | null;
  created_by: string;
  created_at: number;
};

function baseQuery(q: Queryable, scope: Scope, visible: number[] | null) {
  let query = scoped(q, scope)
    .selectFrom('report as r')
    .select([
      'r.id',
      'r.customer_id',
      'r.group_id',
      'r.group_name',
      'r.carrier_ids',
      'r.carrier_names',
      'r.kind',
      'r.period',
      msOf('r.start_ts').as('start_ts'),
      msOf('r.end_ts').as('end_ts'),
      'r.tz',
      'r.locale',
      'r.status',
      'r.error',
      'r.size',
      'r.sha256',
      'r.created_by',
      msOf('r.created_at').as('created_at'),
    ]);
  // A scene-limited caller: only reports whose carriers are all within its scenes.
  if (visible !== null) query = query.where(sql<boolean>`r.carrier_ids <@ ${sql.val(visible)}::int[]`);
  return query;
}

async function signatureRows(q: Queryable, scope: Scope, ids: number[]): Promise<Map<number, ReportSignatureRow[]>> {
  const out = new Map<number, ReportSignatureRow[]>();
  if (!ids.length) return out;
  const rows = await scoped(q, scope)
    .selectFrom('report_signature as s')
    .select(['s.id', 's.report_id', 's.user_name', 's.user_account', 's.meaning', 's.comment', msOf('s.signed_at').as('signedAt'), 's.sha256'])
    .where('s.report_id', 'in', ids)
    .orderBy('s.id')
    .execute();
  for (const r of rows) {
    const list = out.get(Number(r.report_id)) ?? [];
    list.push({
      id: Number(r.id),
      userName: r.user_name,
      userAccount: r.user_account,
      meaning: r.meaning as 'reviewed' | 'approved',
      comment: r.comment,
      signedAt: Number(r.signedAt),
      sha256: Buffer.from(r.sha256).toString('hex'),
    });
    out.set(Number(r.report_id), list);
  }
  return out;
}

const toRow = (r: Row, sigs: ReportSignatureRow[]): ReportRow => ({
  id: Number(r.id),
  customerId: r.customer_id,
  groupId: r.group_id,
  groupName: r.group_name,
  carrierNames: r.carrier_names,
  kind: r.kind as ReportKind,
  period: (r.period as ReportSchedule | null) ?? null,
  startTs: Number(r.start_ts),
  endTs: Number(r.end_ts),
  tz: r.tz,
  locale: r.locale as Locale,
  status: r.status as ReportStatus,
  error: r.error,
  size: r.size,
  sha256: r.sha256 ? Buffer.from(r.sha256).toString('hex') : null,
  signatures: sigs,
  createdBy: r.created_by,
  createdAt: Number(r.created_at),
});

export async function pageReports(q: Queryable, scope: Scope, f: PageInput & { groupId?: number; kind?: ReportKind }): Promise<Paged<ReportRow>> {
  const visible = await visibleCarriers(q, scope);
  let query = baseQuery(q, scope, visible);
  if (f.groupId) query = query.where('r.group_id', '=', f.groupId);
  if (f.kind) query = query.where('r.kind', '=', f.kind);
  const page = await paged(query, f, { by: ['r.id desc'] });
  const sigs = await signatureRows(q, scope, page.rows.map((r) => Number(r.id)));
  return { ...page, rows: page.rows.map((r) => toRow(r as Row, sigs.get(Number(r.id)) ?? [])) };
}

/** One report of the caller's scope and limit, or 404. */
export async function reportOf(q: Queryable, scope: Scope, id: number): Promise<ReportRow> {
  const visible = await visibleCarriers(q, scope);
  const r = await baseQuery(q, scope, visible).where('r.id', '=', id).executeTakeFirst();
  if (!r) throw notFound();
  const sigs = await signatureRows(q, scope, [id]);
  return toRow(r as Row, sigs.get(id) ?? []);
}

/** The file of a report as served now (its latest signed version once signed). */
export async function reportFile(q: Queryable, scope: Scope, id: number): Promise<{ pdf: Buffer; filename: string; sha256: string }> {
  const r = await reportOf(q, scope, id);
  if (r.status !== 'generated') throw new AppError(Code.FAILED, r.status === 'failed' ? 'errors.report.failed' : 'errors.report.generating');
  const row = await scoped(q, scope).selectFrom('report').select(['pdf']).where('id', '=', id).executeTakeFirst();
  if (!row?.pdf) throw notFound();
  const subject = r.groupName || r.carrierNames[0] || 'report';
  return { pdf: Buffer.from(row.pdf), filename: reportFileName(subject, r.startTs, r.endTs, r.tz), sha256: r.sha256 ?? '' };
}

/** A report can be signed when it was made (not failed, not still being made). */
export async function checkSignable(q: Queryable, scope: Scope, id: number): Promise<ReportRow> {
  const r = await reportOf(q, scope, id);
  if (r.status !== 'generated') throw new AppError(Code.FAILED, r.status === 'failed' ? 'errors.report.failed' : 'errors.report.generating');
  return r;
}

/**
 * Writes a signature and the report's new signed file, inside the signing's transaction: the
 * kept model drawn again with every signature so far. Answers the new file's SHA-256.
 */
export async function writeSignature(
  q: Queryable,
  scope: Scope,
  a: { reportId: number; userId: number; account: string; name: string; meaning: 'reviewed' | 'approved'; comment: string; signatureId: number | null },
): Promise<{ sha256: string; signatures: number }> {
  const k = scoped(q, scope);
  const r = await k.selectFrom('report').select(['id', 'customer_id', 'model', 'status']).where('id', '=', a.reportId).forUpdate().executeTakeFirst();
  if (!r || !r.model) throw notFound();
  const model = (typeof r.model === 'string' ? JSON.parse(r.model) : r.model) as ReportModel;
  const inserted = await k
    .insertInto('report_signature')
    .values({
      customer_id: r.customer_id,
      report_id: a.reportId,
      user_id: a.userId,
      user_account: a.account,
      user_name: a.name,
      meaning: a.meaning,
      comment: a.comment,
      signature_id: a.signatureId,
      // Replaced below by the signed file's hash, once it is drawn with this signature in it.
      sha256: Buffer.alloc(32),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const sigs = await signaturesOf(q, scope, a.reportId);
  const pdf = await renderReport({ id: a.reportId, model, stepImages: await stepImages(q, scope, model), signatures: sigs });
  const sha256 = sha256Hex(pdf);
  const digest = Buffer.from(sha256, 'hex');
  await k.updateTable('report_signature').set({ sha256: digest }).where('id', '=', inserted.id).execute();
  await k.updateTable('report').set({ pdf, size: pdf.length, sha256: digest }).where('id', '=', a.reportId).execute();
  return { sha256, signatures: sigs.length };
}

/**
 * Checks a file: genuine when its SHA-256 is that of a report of the caller's customers as made
 * or as signed (kept with the report and, for each signature, in the system log). One byte
 * changed anywhere gives another hash, and the answer is "not genuine".
 */
export async function verifyFile(q: Queryable, scope: Scope, file: Buffer): Promise<ReportVerifyResult> {
  const sha256 = sha256Hex(file);
  const digest = Buffer.from(sha256, 'hex');
  const k = scoped(q, scope);
  const signed = await k.selectFrom('report_signature').select(['report_id']).where('sha256', '=', digest).executeTakeFirst();
  const current = await k
    .selectFrom('report')
    .select(['id'])
    .where((eb) => eb.or([eb('sha256', '=', digest), eb('made_sha256', '=', digest)]))
    .executeTakeFirst();
  const reportId = signed ? Number(signed.report_id) : current ? Number(current.id) : null;
  const none = { genuine: false, sha256, size: file.length, reportId: null, title: null, signatures: [], superseded: false };
  if (reportId === null) return none;
  let r: ReportRow;
  try {
    r = await reportOf(q, scope, reportId);
  } catch {
    return none;
  }
  const t = reportTexts(r.locale);
  return {
    genuine: true,
    sha256,
    size: file.length,
    reportId,
    title: `${t.title} ${r.groupName || r.carrierNames.join(', ')} ${localTime(r.startTs, r.tz).slice(0, 10)} — ${localTime(r.endTs, r.tz).slice(0, 10)}`,
    signatures: r.signatures.filter((s) => r.sha256 === sha256 || r.signatures.indexOf(s) <= r.signatures.findIndex((x) => x.sha256 === sha256)),
    superseded: r.sha256 !== sha256,
  };
}
