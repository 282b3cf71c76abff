import { PassThrough } from 'node:stream';
import { CSV_NO_VALUE, translate, type DetailExport, type Locale } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { Scope } from '../../platform/auth/scope.js';
import { scoped } from '../../platform/db/scoped.js';
import { excludedSpans } from '../../alarm/excluded.js';
import { carrierValues } from '../history/carrierValues.js';
import { tableWriter, wallClock, type TableWriter } from '../download/table.js';
import { localTime } from '../backup/sceneExport.js';
import { carrierSubjects } from './subjects.js';
import { row } from './detaildata.service.js';

/*
 * GET /service/detailData/export (spec §2 /count/detailData, §8 "only one carrier for query or
 * export"; docs/statistics.md "Detail data"): one carrier's rows of the detail table over the
 * span as CSV, oldest first, the order an inspector reads a log in. The same rows as the page
 * (its value in its sample mode at every report of one of its sensors, rounded as shown, the
 * invalid rule that excludes it), so the file and the screen never disagree.
 *
 * - Times in the carrier's customer's time zone, named in the header (a file outlives the
 *   session that wrote it); no value is "--", as the tables show it.
 * - Streamed a day of readings at a time, and only as fast as the client takes it: a year of
 *   one-minute readings of several probes is a million rows, never held in memory. The carrier
 *   is found in the caller's scope before the first byte, so a foreign one is a 404, not a file.
 */

/** The readings read per step; a day of 10-second reports of a few probes is tens of thousands of rows. */
const STEP_MS = 86_400_000;

const fixed = (v: number | null) => (v === null ? CSV_NO_VALUE : v.toFixed(2));

/** What a carrier's rows need, found in the caller's scope before anything is written (a foreign carrier is a 404). */
export async function carrierExport(q: Queryable, scope: Scope, carrierId: number, start: number, end: number) {
  const [c] = await carrierSubjects(q, scope, [carrierId]);
  const k = scoped(q, scope);
  const { tz } = await k.selectFrom('customer as cu').select('cu.time_zone as tz').where('cu.id', '=', c.customerId).executeTakeFirstOrThrow();
  // The spans are half-open and the end is inclusive for readings, as on the page.
  const spans = (await excludedSpans(q, [c.id], start, end + 1)).get(c.id) ?? [];
  const ruleIds = [...new Set(spans.map((s) => s.ruleId))];
  const rules = ruleIds.length ? await k.selectFrom('invalid_rule as r').select(['r.id', 'r.name']).where('r.id', 'in', ruleIds).execute() : [];
  return { carrier: c, tz, spans, ruleNames: new Map(rules.map((r) => [r.id, r.name])) };
}
export type CarrierExport = Awaited<ReturnType<typeof carrierExport>>;

/**
 * Writes one carrier's rows over [start, end] into a table (CSV or xlsx, modules/download/table.ts),
 * a day of readings at a time, oldest first; `progress` hears the share of the span done. Answers
 * the rows written.
 */
export async function writeCarrierRows(q: Queryable, x: CarrierExport, start: number, end: number, locale: Locale, out: TableWriter, progress: (done: number) => void = () => undefined): Promise<number> {
  const { carrier: c, tz, spans, ruleNames } = x;
  const t = (key: string, vars?: Record<string, string>) => translate(`errors.detailData.csv.${key}`, locale, vars);
  out.sheet(c.name, [t('time', { tz: `UTC${tz}` }), t('carrier'), t('temp'), t('hum'), t('excluded')], [20, 24, 16, 16, 24]);
  // A date-time cell in xlsx, the customer's wall clock as text in CSV (download/table.ts).
  const at = wallClock(tz);
  let rows = 0;
  for (let from = start; from <= end; from += STEP_MS) {
    const to = Math.min(from + STEP_MS - 1, end);
    // Only the step's spans: a daily rule over a year is hundreds of them, looked up per row.
    const near = spans.filter((s) => s.end > from && s.start <= to);
    for (const p of await carrierValues(q, c, from, to)) {
      const r = row(p.ts, c, c.id, c.name, null, p, near);
      out.row([at(r.ts), c.name, fixed(r.temp), fixed(r.hum), r.excludedBy === null ? CSV_NO_VALUE : (ruleNames.get(r.excludedBy) ?? String(r.excludedBy))]);
      rows++;
    }
    progress((to - start + 1) / (end - start + 1));
    await out.breathe();
  }
  return rows;
}

/** The file's name: `detail-data-<carrier>-<first day>-<last day>.<ext>` in the customer's days. */
export function carrierFileName(x: CarrierExport, start: number, end: number, ext: string) {
  const day = (ms: number) => localTime(ms, x.tz).slice(0, 10).replace(/-/g, '');
  return `detail-data-${x.carrier.id}-${day(start)}-${day(end)}.${ext}`;
}

export async function exportCarrier(q: Queryable, scope: Scope, a: DetailExport, locale: Locale) {
  const x = await carrierExport(q, scope, a.carrierIds[0], a.start, a.end);
  const out = new PassThrough();
  const table = tableWriter('csv', out);
  // Once the answer has begun, a failure can only cut it short: the client sees a broken file.
  writeCarrierRows(q, x, a.start, a.end, locale, table)
    .then(() => table.end())
    .catch((err: Error) => out.destroy(err));
  return { filename: carrierFileName(x, a.start, a.end, 'csv'), stream: out };
}
