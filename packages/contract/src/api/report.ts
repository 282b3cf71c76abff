import { z } from 'zod';
import { name } from '../rules.js';
import { CHOSEN_MEANINGS, signature } from './exception.js';
import { deletedResult, id, idQuery, idResult, idsQuery, ms, pageOf, pageQuery, route } from './route.js';

/*
 * Reports (spec §2 /arch/printer, §3 Print group, §7 printGroup/*, printer/info; issue 30;
 * docs/reports.md): the carrier report as PDF (header, chart with its zone band, statistics,
 * exceptions with their signed handling, signatures, "page n of m"), print groups (named groups
 * of carriers printed as one report), scheduled reports e-mailed as PDF, and the signing of a
 * report after review with the SHA-256 of the signed file in the system log.
 */

export const REPORT_SCHEDULES = ['none', 'daily', 'weekly', 'monthly'] as const;
/** The languages a report is printed in (its catalogue, server modules/report/texts.ts); a reader of another gets English. */
export const REPORT_LOCALES = ['zh-CN', 'en-US'] as const;
export type ReportLocale = (typeof REPORT_LOCALES)[number];
export const reportLocale = (l: string | null | undefined): ReportLocale => (l === 'zh-CN' ? 'zh-CN' : 'en-US');
export type ReportSchedule = (typeof REPORT_SCHEDULES)[number];
export const REPORT_KINDS = ['print', 'scheduled'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];
export const REPORT_STATUSES = ['generating', 'generated', 'failed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/**
 * The limits of a report (docs/reports.md "Limits"): a group name of 30 characters, at most 20
 * carriers in a group (one report of a few dozen pages), 10 recipients of a scheduled report, a
 * period of at most 366 days (the statistics' longest range), a verified file of at most 20 MB.
 */
export const REPORT_LIMITS = { groupName: 30, carriers: 20, contacts: 10, maxDays: 366, verifyBytes: 20 * 1024 * 1024 } as const;

const distinct = (a: number[]) => new Set(a).size === a.length;
const carrierIds = z
  .array(id, { error: 'errors.report.carriersRequired' })
  .min(1, { error: 'errors.report.carriersRequired' })
  .max(REPORT_LIMITS.carriers, { error: 'errors.report.tooManyCarriers' })
  .refine(distinct, { error: 'errors.report.duplicateCarrier' });
const contactIds = z.array(id).max(REPORT_LIMITS.contacts, { error: 'errors.report.tooManyContacts' }).refine(distinct, { error: 'errors.report.duplicateContact' });
export const groupName = name(REPORT_LIMITS.groupName);
const schedule = z.enum(REPORT_SCHEDULES, { error: 'errors.report.schedule' });
const locale = z.enum(REPORT_LOCALES, { error: 'errors.report.locale' });
/** A scheduled report goes to someone: at least one contact with an e-mail address when a schedule is set. */
const recipientsWhenScheduled: [(b: { schedule: ReportSchedule; contactIds: number[] }) => boolean, { error: string; path: string[] }] = [
  (b) => b.schedule === 'none' || b.contactIds.length > 0,
  { error: 'errors.report.recipientsRequired', path: ['contactIds'] },
];

export const printGroupBody = z
  .object({
    /** Whose group (a platform or proxy user names the customer; a customer's user makes its own). */
    customerId: id.optional(),
    groupName,
    carrierIds,
    schedule: schedule.default('none'),
    contactIds: contactIds.default([]),
    /** The language of its scheduled reports. */
    locale: locale.default('zh-CN'),
  })
  .refine(...recipientsWhenScheduled);
export type PrintGroupBody = z.input<typeof printGroupBody>;

/** §7 printGroup/save: a group's carriers, schedule and recipients (its name: updateGroupName). */
export const printGroupSave = z
  .object({ id, carrierIds, schedule, contactIds: contactIds.default([]), locale: locale.default('zh-CN') })
  .refine(...recipientsWhenScheduled);
export type PrintGroupSave = z.input<typeof printGroupSave>;

export const printGroupRow = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  customerName: z.string(),
  groupName: z.string(),
  carriers: z.array(z.object({ id: z.number().int(), name: z.string(), type: z.number().int() })),
  contacts: z.array(z.object({ id: z.number().int(), name: z.string(), email: z.string() })),
  schedule: z.enum(REPORT_SCHEDULES),
  locale: z.enum(REPORT_LOCALES),
  /** The schedule counts periods that end after this time (when it was last set). */
  scheduleFrom: ms.nullable(),
  /** The newest report of the group (printed or scheduled). */
  lastReport: z.object({ id: z.number().int(), kind: z.enum(REPORT_KINDS), startTs: ms, endTs: ms, status: z.enum(REPORT_STATUSES), createdAt: ms }).nullable(),
  createdBy: z.string(),
  createdAt: ms,
});
export type PrintGroupRow = z.infer<typeof printGroupRow>;

/** A report's period in UTC ms: start before end, at most REPORT_LIMITS.maxDays. */
const period = {
  startTime: z.coerce.number({ error: 'errors.report.range' }).int().min(0),
  endTime: z.coerce.number({ error: 'errors.report.range' }).int().min(0),
};
const periodChecks = <T extends z.ZodType<{ startTime: number; endTime: number }>>(s: T) =>
  s
    .refine((q) => q.startTime < q.endTime, { error: 'errors.rule.startAfterEnd', path: ['startTime'] })
    .refine((q) => q.endTime - q.startTime <= REPORT_LIMITS.maxDays * 86_400_000, { error: 'errors.report.tooLong', path: ['endTime'] });

export const printBody = periodChecks(z.object({ id, ...period, locale: locale.optional() }));
export const carrierReportBody = periodChecks(z.object({ carrierId: id, ...period, locale: locale.optional() }));

export const reportSignatureRow = z.object({
  id: z.number().int(),
  userName: z.string(),
  userAccount: z.string(),
  meaning: z.enum(CHOSEN_MEANINGS),
  comment: z.string(),
  signedAt: ms,
  /** The SHA-256 (hex) of the file this signature made: recorded in the system log. */
  sha256: z.string(),
});
export type ReportSignatureRow = z.infer<typeof reportSignatureRow>;

export const reportRow = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  groupId: z.number().int().nullable(),
  groupName: z.string(),
  carrierNames: z.array(z.string()),
  kind: z.enum(REPORT_KINDS),
  /** The schedule's period of a scheduled report; null for a printed one. */
  period: z.enum(REPORT_SCHEDULES).nullable(),
  startTs: ms,
  endTs: ms,
  tz: z.string(),
  locale: z.enum(REPORT_LOCALES),
  status: z.enum(REPORT_STATUSES),
  error: z.string(),
  size: z.number().int().nullable(),
  /** The SHA-256 (hex) of the file as served now (the last signed version once signed). */
  sha256: z.string().nullable(),
  signatures: z.array(reportSignatureRow),
  createdBy: z.string(),
  createdAt: ms,
});
export type ReportRow = z.infer<typeof reportRow>;

export const reportSignBody = z.object({
  id,
  meaning: z.enum(CHOSEN_MEANINGS, { error: 'errors.exception.meaning' }).default('reviewed'),
  comment: z.string().trim().max(250, { error: 'errors.rule.maxLength250' }).default(''),
  sign: signature.optional(),
});
export type ReportSignBody = z.input<typeof reportSignBody>;

/** What the check of a file answers: genuine when its SHA-256 is that of a signed report of the caller's customers, as the system log recorded it. */
export const reportVerifyResult = z.object({
  genuine: z.boolean(),
  sha256: z.string(),
  size: z.number().int(),
  reportId: z.number().int().nullable(),
  title: z.string().nullable(),
  signatures: z.array(reportSignatureRow),
  /** The latest signed version of that report, when the file is an earlier one. */
  superseded: z.boolean(),
});
export type ReportVerifyResult = z.infer<typeof reportVerifyResult>;

/** §7 printer/info: what the report printer offers. */
export const printerInfo = z.object({
  paper: z.string(),
  font: z.string(),
  languages: z.array(z.enum(REPORT_LOCALES)),
  schedules: z.array(z.enum(REPORT_SCHEDULES)),
  maxDays: z.number().int(),
  maxCarriers: z.number().int(),
  maxContacts: z.number().int(),
  /** Minutes after a period's end before its scheduled report is made (late readings come in). */
  scheduleDelayMin: z.number().int(),
});
export type PrinterInfo = z.infer<typeof printerInfo>;

const tag = 'report';
export const printGroupApi = {
  list: route({
    method: 'GET',
    path: '/service/printGroup/list',
    tag,
    summary: "The print groups of the caller's customers, with their carriers, schedule and last report",
    query: z.object({ groupName: z.string().trim().max(50).optional(), customerId: id.optional() }),
    result: z.array(printGroupRow),
  }),
  info: route({ method: 'GET', path: '/service/printGroup/info', tag, summary: 'One print group', query: idQuery, result: printGroupRow }),
  add: route({ method: 'POST', path: '/service/printGroup/addPrintGroup', tag, summary: 'Add a print group: a name, its carriers, a schedule and its recipients', body: printGroupBody, result: idResult }),
  save: route({ method: 'POST', path: '/service/printGroup/save', tag, summary: "Save a print group's carriers, schedule and recipients", body: printGroupSave, result: idResult }),
  check: route({
    method: 'POST',
    path: '/service/printGroup/checkPrintGroup',
    tag,
    summary: 'Whether a group name is taken in the customer (another group than `id`)',
    query: z.object({ groupName: z.string().trim().min(1, { error: 'errors.rule.required' }).max(50), id: id.optional(), customerId: id.optional() }),
    result: z.object({ exists: z.boolean() }),
  }),
  rename: route({ method: 'POST', path: '/service/printGroup/updateGroupName', tag, summary: 'Rename a print group', body: z.object({ id, groupName }), result: idResult }),
  del: route({ method: 'DELETE', path: '/service/printGroup/delete', tag, summary: 'Delete print groups (their reports stay, as records)', query: idsQuery, result: deletedResult }),
  print: route({
    method: 'POST',
    path: '/service/printGroup/print',
    tag,
    summary: "A group's carriers over a period as one PDF report (kept; header x-report-id)",
    body: printBody,
    result: z.unknown(),
    raw: 'file',
  }),
  send: route({
    method: 'POST',
    path: '/service/printGroup/send',
    tag,
    summary: "Make and mail a scheduled group's report of its last period now (once per period: a period already made is not sent again)",
    query: idQuery,
    result: z.object({ reportId: z.number().int(), startTs: ms, endTs: ms, created: z.boolean() }),
  }),
  printerInfo: route({ method: 'GET', path: '/service/printer/info', tag, summary: 'What the report printer offers: paper, font, languages, schedules, limits', result: printerInfo }),
};

export const reportApi = {
  carrier: route({
    method: 'POST',
    path: '/service/report/carrier',
    tag,
    summary: "One carrier's report over a period as PDF (kept; header x-report-id)",
    body: carrierReportBody,
    result: z.unknown(),
    raw: 'file',
  }),
  page: route({
    method: 'GET',
    path: '/service/report/page',
    tag,
    summary: "Reports made of the caller's customers (printed and scheduled), newest first, with their signatures",
    query: pageQuery({ groupId: id.optional(), kind: z.enum(REPORT_KINDS).optional() }),
    result: pageOf(reportRow),
  }),
  download: route({ method: 'GET', path: '/service/report/download', tag, summary: 'A report as PDF: its latest signed version once signed', query: idQuery, result: z.unknown(), raw: 'file' }),
  sign: route({
    method: 'POST',
    path: '/service/report/sign',
    tag,
    summary: 'Sign a report after review (account and password again; reviewed or approved): a new signed PDF whose SHA-256 the system log records',
    body: reportSignBody,
    result: z.object({ id: z.number().int(), sha256: z.string(), signatures: z.number().int() }),
  }),
  verify: route({
    method: 'POST',
    path: '/service/report/verify',
    tag,
    summary: 'Check a PDF file (multipart): is it a signed report of the caller\'s customers, unchanged?',
    result: reportVerifyResult,
  }),
};
