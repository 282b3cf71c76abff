import { z } from 'zod';
import { deviceNo, paging } from '../rules.js';
import { HISTORY_MAX_SPAN_DAYS } from '../schemas.js';
import { SAMPLE_MODES } from '../sample.js';
import { ms, pageOf, route } from './route.js';

/**
 * Detail data (spec §2 /count/detailData, menu `detailData`, function viewHistory): every reading
 * of one or more carriers (their value in their sample mode, as the board shows it and the
 * alarms judge it) or of one or more sensors over a span, paged on the server with the spec's
 * iDisplayStart/iDisplayLength, each row marked when an invalid rule of its carrier excludes
 * it (docs/alarms.md "Invalid rules"). docs/statistics.md "Detail data" says how a page is built.
 */

/** How many carriers, or sensors, one query takes: beyond it the table stops being readable and the page slow. */
export const DETAIL_MAX_SUBJECTS = 10;

/** `a,b,c` lists of the query string, trimmed, without empties and duplicates. */
const list = (s: string) => [...new Set(s.split(',').map((x) => x.trim()).filter(Boolean))];

const carrierIds = z
  .string()
  .max(200)
  .transform(list)
  .transform((a) => a.map(Number))
  .refine((a) => a.every((n) => Number.isInteger(n) && n > 0 && n <= 2_147_483_647), { error: 'errors.rule.ids' })
  .refine((a) => a.length <= DETAIL_MAX_SUBJECTS, { error: 'errors.detailData.tooMany' });
const devNos = z
  .string()
  .max(400)
  .transform(list)
  .refine((a) => a.every((d) => deviceNo.safeParse(d).success), { error: 'errors.rule.deviceNo' })
  .refine((a) => a.length <= DETAIL_MAX_SUBJECTS, { error: 'errors.detailData.tooMany' });

const span = {
  start: z.coerce.number().int().min(0),
  end: z.coerce.number().int().min(0),
};

/** Exactly one kind of subject, at least one of it; the span ordered and within the history cap. */
export const detailQuery = z
  .object({ carrierIds: carrierIds.optional(), devNos: devNos.optional(), ...span, ...paging })
  .refine((q) => (q.carrierIds?.length ?? 0) + (q.devNos?.length ?? 0) > 0, { error: 'errors.detailData.subjectRequired', path: ['carrierIds'] })
  .refine((q) => !(q.carrierIds?.length && q.devNos?.length), { error: 'errors.detailData.oneKind', path: ['devNos'] })
  .refine((q) => q.start <= q.end, { error: 'errors.rule.startAfterEnd', path: ['start'] })
  .refine((q) => q.end - q.start <= HISTORY_MAX_SPAN_DAYS * 86_400_000, { error: 'errors.rule.historySpan', path: ['end'] });
export type DetailQuery = z.input<typeof detailQuery>;

export const detailRow = z.object({
  ts: ms,
  carrierId: z.number().int().nullable(),
  carrierName: z.string().nullable(),
  /** The sensor of a sensor row; null on a carrier's row (its value comes from its sensors by its mode). */
  deviceNo: z.string().nullable(),
  temp: z.number().nullable(),
  hum: z.number().nullable(),
  /** The invalid rule that excludes this reading from alarms, statistics and reports; null when it counts. */
  excludedBy: z.number().int().nullable(),
  /** Outside the carrier's zone (spec §9 colours: above orange, below blue). */
  tempState: z.enum(['low', 'high']).nullable(),
  humState: z.enum(['low', 'high']).nullable(),
});
export type DetailRow = z.infer<typeof detailRow>;

export const detailSubject = z.object({
  carrierId: z.number().int().nullable(),
  name: z.string(),
  deviceNo: z.string().nullable(),
  mode: z.enum(SAMPLE_MODES).nullable(),
  devNos: z.array(z.string()),
  tempMin: z.number().nullable(),
  tempMax: z.number().nullable(),
  humMin: z.number().nullable(),
  humMax: z.number().nullable(),
  /** Excluded periods of the span (epoch ms, half-open), for the legend and the chart. */
  excluded: z.array(z.object({ start: ms, end: ms, ruleId: z.number().int() })),
});
export type DetailSubject = z.infer<typeof detailSubject>;

export const detailPage = pageOf(detailRow).extend({ subjects: z.array(detailSubject) });
export type DetailPage = z.infer<typeof detailPage>;

/**
 * The export (spec §8 "only one carrier for query or export"): one carrier's readings over the
 * span as a CSV file, oldest first. The list form of the page's query is kept, so the page sends
 * what it shows and a second carrier is refused with the spec's message, not a bare 400.
 */
export const detailExportQuery = z
  .object({
    // Absent is "select one" (the spec's message), not a bare "required".
    carrierIds: z
      .string()
      .max(200)
      .default('')
      .transform(list)
      .transform((a) => a.map(Number))
      .refine((a) => a.every((n) => Number.isInteger(n) && n > 0 && n <= 2_147_483_647), { error: 'errors.rule.ids' })
      .refine((a) => a.length > 0, { error: 'errors.detailData.subjectRequired' })
      .refine((a) => a.length <= 1, { error: 'errors.detailData.onlyOne' }),
    ...span,
  })
  .refine((q) => q.start <= q.end, { error: 'errors.rule.startAfterEnd', path: ['start'] })
  .refine((q) => q.end - q.start <= HISTORY_MAX_SPAN_DAYS * 86_400_000, { error: 'errors.rule.historySpan', path: ['end'] });
export type DetailExport = z.infer<typeof detailExportQuery>;

export const detailDataApi = {
  page: route({
    method: 'GET',
    path: '/service/detailData/page',
    tag: 'detailData',
    summary: 'Every reading of carriers (in their sample mode) or sensors over a span, newest first, paged on the server, excluded readings marked',
    query: detailQuery,
    result: detailPage,
  }),
  export: route({
    method: 'GET',
    path: '/service/detailData/export',
    tag: 'detailData',
    summary: "One carrier's readings over a span as CSV (UTF-8 with BOM), oldest first, times in the customer's time zone, excluded readings marked",
    query: detailExportQuery,
    result: z.unknown(),
    raw: 'file',
  }),
};
