import type { HandlingAction, ReportLocale as Locale, SignMeaning, StatisticFigures } from '@coldwatch/contract';
import type { Db } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import type { Scope } from '../../platform/auth/scope.js';
import { statistics } from '../statistic/statistic.repository.js';
import { carrierHistory } from '../history/carrierHistory.js';
import { exceptionLimitOf, exceptionSelect, stepsOf } from '../exception/exception.repository.js';

/*
 * What a report shows, gathered once when it is made and kept with it (report.model): the
 * figures come from the statistics (modules/statistic), the chart's series from the carrier's
 * history (modules/history: its sample mode's value, downsampled without losing an extreme), the
 * exceptions and their signed steps from modules/exception, all read in the caller's scope. The
 * PDF is drawn from this (report.pdf.ts): signing a report draws the same report again with its
 * signatures, whatever readings arrived since.
 */

/** Points of a chart: enough for an A4 page's width twice over; each bucket keeps its extremes. */
export const CHART_POINTS = 800;
/** Exceptions listed per carrier (the newest beyond are counted, not listed). */
export const EXCEPTIONS_LISTED = 100;

export interface ReportStep {
  action: HandlingAction;
  meaning: SignMeaning;
  userName: string;
  userAccount: string;
  signedAt: number;
  reason: string;
  measures: string;
  comment: string;
  signatureId: number | null;
}

export interface ReportException {
  id: number;
  category: string;
  startTs: number;
  endTs: number | null;
  durationS: number | null;
  peakValue: number | null;
  limitMin: number | null;
  limitMax: number | null;
  status: number;
  ongoing: boolean;
  steps: ReportStep[];
}

export interface ReportCarrier {
  id: number;
  name: string;
  type: number;
  zone: { tempMin: number | null; tempMax: number | null; humMin: number | null; humMax: number | null };
  mktDh: number;
  summary: StatisticFigures | null;
  /** [ts, temp, hum] of the chart. */
  series: [number, number | null, number | null][];
  excluded: { start: number; end: number }[];
  exceptions: ReportException[];
  /** Exceptions in the period beyond those listed. */
  moreExceptions: number;
}

export interface ReportModel {
  v: 1;
  customer: { id: number; name: string };
  groupName: string | null;
  start: number;
  end: number;
  tz: string;
  locale: Locale;
  generatedAt: number;
  generatedBy: string;
  carriers: ReportCarrier[];
}

/**
 * The model of a report of these carriers (in this order) over [start, end): the carriers the
 * caller may see, all of one customer (the first one's). Answers null when none is visible.
 */
export async function buildModel(
  db: Db,
  scope: Scope,
  a: { carrierIds: number[]; start: number; end: number; locale: Locale; groupName: string | null; by: string; now?: number },
): Promise<ReportModel | null> {
  const rows = await scoped(db, scope)
    .selectFrom('carrier as c')
    .innerJoin('customer as cu', 'cu.id', 'c.customer_id')
    .select(['c.id', 'c.name', 'c.type', 'c.customer_id', 'cu.name as customerName', 'cu.time_zone as tz'])
    .where('c.id', 'in', a.carrierIds)
    .where((eb) => sceneLimit(eb, scope, 'carrier', 'c'))
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const visible = a.carrierIds.map((id) => byId.get(id)).filter((r): r is (typeof rows)[number] => !!r);
  if (!visible.length) return null;
  const customer = { id: visible[0].customer_id, name: visible[0].customerName };
  const mine = visible.filter((r) => r.customer_id === customer.id);
  const stats = await statistics(db, scope, mine.map((c) => c.id), a.start, a.end, { now: a.now });
  const k = scoped(db, scope);
  const carriers: ReportCarrier[] = [];
  for (const c of mine) {
    const st = stats.find((s) => s.carrierId === c.id);
    const hist = await carrierHistory(db, scope, { carrierId: c.id, start: a.start, end: a.end, maxPoints: CHART_POINTS });
    const exRows = await exceptionSelect(k)
      .where('e.carrier_id', '=', c.id)
      .where('e.start_ts', '<', new Date(a.end))
      .where((eb) => eb.or([eb('e.ongoing', '=', true), eb('e.end_ts', 'is', null), eb('e.end_ts', '>', new Date(a.start))]))
      .where((eb) => exceptionLimitOf(eb, scope))
      .orderBy('e.start_ts')
      .orderBy('e.id')
      .limit(EXCEPTIONS_LISTED + 1)
      .execute();
    const listed = exRows.slice(0, EXCEPTIONS_LISTED);
    const exceptions: ReportException[] = [];
    for (const e of listed) {
      const steps = await stepsOf(k, e.id);
      exceptions.push({
        id: e.id,
        category: e.category,
        startTs: e.startTs,
        endTs: e.endTs,
        durationS: e.durationS,
        peakValue: e.peakValue,
        limitMin: e.limitMin,
        limitMax: e.limitMax,
        status: e.status,
        ongoing: e.ongoing,
        steps: steps.map((s) => ({
          action: s.action,
          meaning: s.meaning,
          userName: s.userName,
          userAccount: s.userAccount,
          signedAt: s.signedAt,
          reason: s.reason,
          measures: s.measures,
          comment: s.comment,
          signatureId: s.signatureId,
        })),
      });
    }
    let more = 0;
    if (exRows.length > EXCEPTIONS_LISTED) {
      const n = await exceptionSelect(k)
        .clearSelect()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('e.carrier_id', '=', c.id)
        .where('e.start_ts', '<', new Date(a.end))
        .where((eb) => eb.or([eb('e.ongoing', '=', true), eb('e.end_ts', 'is', null), eb('e.end_ts', '>', new Date(a.start))]))
        .where((eb) => exceptionLimitOf(eb, scope))
        .executeTakeFirst();
      more = Number(n?.n ?? 0) - EXCEPTIONS_LISTED;
    }
    carriers.push({
      id: c.id,
      name: c.name,
      type: c.type,
      zone: st?.zone ?? hist?.zone ?? { tempMin: null, tempMax: null, humMin: null, humMax: null },
      mktDh: st?.mktDh ?? 10_000,
      summary: st?.summary ?? null,
      series: (hist?.points ?? []).map((p) => [p.ts, p.temp, p.hum]),
      excluded: (hist?.excluded ?? []).map((x) => ({ start: x.start, end: x.end })),
      exceptions,
      moreExceptions: more,
    });
  }
  return {
    v: 1,
    customer,
    groupName: a.groupName,
    start: a.start,
    end: a.end,
    tz: visible[0].tz,
    locale: a.locale,
    generatedAt: a.now ?? Date.now(),
    generatedBy: a.by,
    carriers,
  };
}

/** The signature copies a model's steps point at (immutable rows of signature_copy). */
export const stepSignatureIds = (m: ReportModel) => m.carriers.flatMap((c) => c.exceptions.flatMap((e) => e.steps.map((s) => s.signatureId)));
