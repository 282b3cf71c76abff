import { translate, type ExportFormat, type Locale } from '@coldwatch/contract';
import type { Db } from '../../platform/db/client.js';
import type { Scope } from '../../platform/auth/scope.js';
import { scoped } from '../../platform/db/scoped.js';
import type { TableWriter } from '../../modules/download/table.js';
import { localTime } from '../../modules/backup/sceneExport.js';

/*
 * What every export producer is given and shares (producers.ts lists them): the asking user's
 * data scope, the criteria, the language, progress and the stop check; the columns' names, the
 * customer's zone and the About sheet.
 */

export interface ExportContext {
  db: Db;
  scope: Pick<Scope, 'userId' | 'customerIds' | 'sceneIds'>;
  criteria: Record<string, unknown>;
  locale: Locale;
  exportedBy: string;
  now: number;
  /** The share done, 0–1 (written to the record at most once a second). */
  progress: (done: number) => void;
  /** Throws when the export is to stop (the console is stopping). */
  checkpoint: () => void;
}

export type Producer = (ctx: ExportContext, out: TableWriter, format: ExportFormat) => Promise<number>;

/** Readings read per statement: short enough that ingest's batches get their turn between pages. */
export const READ_PAGE = 5_000;
/**
 * A page's upper bound in time, besides its count: on PGlite, which never analyzes its tables
 * (it has no autovacuum), the planner guesses a sensor's rows in a partition at one or two and
 * takes a bitmap scan and a sort for the page: every reading from the page to the bound is read
 * and sorted for each 5,000 returned. Bounded by a window, that is at most the window's readings
 * (three days: 4,320 at one a minute, one page). Unbounded, a year's export of a sensor beside a
 * hundred others' month took 72 s of CPU where it took 7 alone (bench:export).
 */
export const READ_WINDOW_MS = 3 * 86_400_000;

export const col = (locale: Locale, key: string, tz?: string) => translate(`errors.export.col.${key}`, locale, tz ? { tz: `UTC${tz}` } : undefined);

/** The data scope as the repositories take it (a Scope with only what they read). */
export const dataScope = (ctx: ExportContext) => ctx.scope as Scope;

/** The customer's name and time zone. */
export async function customerOf(ctx: ExportContext, customerId: number) {
  return scoped(ctx.db, dataScope(ctx)).selectFrom('customer as c').select(['c.name', 'c.time_zone as tz']).where('c.id', '=', customerId).executeTakeFirstOrThrow();
}

/** The last sheet of an xlsx export: who exported what, when, in which time zone (a CSV names the zone in its header). */
export function aboutSheet(ctx: ExportContext, out: TableWriter, format: ExportFormat, tz: string, facts: [string, string | number][]) {
  if (format !== 'xlsx') return;
  const t = (k: string) => translate(`errors.export.about.${k}`, ctx.locale);
  out.sheet(translate('errors.export.sheet.about', ctx.locale), [t('title'), ''], [20, 60]);
  const all: [string, string | number][] = [...facts, ['timeZone', `UTC${tz}`], ['exportedBy', ctx.exportedBy], ['exportedAt', localTime(ctx.now, tz)]];
  for (const [k, v] of all) out.row([t(k), v]);
}

