import { PassThrough } from 'node:stream';
import { CSV_BOM, CSV_NO_VALUE, csvLine, translate, type DetailExport, type Locale } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { Scope } from '../../platform/auth/scope.js';
import { scoped } from '../../platform/db/scoped.js';
import { excludedSpans } from '../../alarm/excluded.js';
import { carrierValues } from '../history/carrierValues.js';
import { drained } from '../backup/stream.js';
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

export async function exportCarrier(q: Queryable, scope: Scope, a: DetailExport, locale: Locale) {
  const [c] = await carrierSubjects(q, scope, a.carrierIds);
  const k = scoped(q, scope);
  const { tz } = await k.selectFrom('customer as cu').select('cu.time_zone as tz').where('cu.id', '=', c.customerId).executeTakeFirstOrThrow();
  // The spans are half-open and the end is inclusive for readings, as on the page.
  const spans = (await excludedSpans(q, [c.id], a.start, a.end + 1)).get(c.id) ?? [];
  const ruleIds = [...new Set(spans.map((s) => s.ruleId))];
  const rules = ruleIds.length ? await k.selectFrom('invalid_rule as r').select(['r.id', 'r.name']).where('r.id', 'in', ruleIds).execute() : [];
  const names = new Map(rules.map((r) => [r.id, r.name]));
  const t = (key: string, vars?: Record<string, string>) => translate(`errors.detailData.csv.${key}`, locale, vars);
  const header = [t('time', { tz: `UTC${tz}` }), t('carrier'), t('temp'), t('hum'), t('excluded')];

  const out = new PassThrough();
  const write = async () => {
    out.write(`${CSV_BOM}${csvLine(header)}\r\n`);
    for (let from = a.start; from <= a.end; from += STEP_MS) {
      const to = Math.min(from + STEP_MS - 1, a.end);
      // Only the step's spans: a daily rule over a year is hundreds of them, looked up per row.
      const near = spans.filter((s) => s.end > from && s.start <= to);
      let text = '';
      for (const p of await carrierValues(q, c, from, to)) {
        const r = row(p.ts, c, c.id, c.name, null, p, near);
        text += `${csvLine([localTime(r.ts, tz), c.name, fixed(r.temp), fixed(r.hum), r.excludedBy === null ? CSV_NO_VALUE : (names.get(r.excludedBy) ?? String(r.excludedBy))])}\r\n`;
      }
      if (text) out.write(text);
      await drained(out);
    }
    out.end();
  };
  // Once the answer has begun, a failure can only cut it short: the client sees a broken file.
  write().catch((err: Error) => out.destroy(err));

  const day = (ms: number) => localTime(ms, tz).slice(0, 10).replace(/-/g, '');
  return { filename: `detail-data-${c.id}-${day(a.start)}-${day(a.end)}.csv`, stream: out };
}
