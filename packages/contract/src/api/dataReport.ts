import { z } from 'zod';
import { route } from './route.js';
import { exceptionStats } from './exception.js';
import { statisticRange, withinStatisticLimit } from './statistic.js';

/*
 * The data report (spec §2 /count/dataReport, the landing page of the statistics section; §3
 * Report/statistics): an organisation's monitoring over a span in one page, for whoever answers
 * for it: how many carriers, how long they were in their zone, how much data is missing, the
 * excursions and the exceptions by state and kind, by carrier type, and every carrier worst
 * first. Each carrier's figures are those of /count/statistic (docs/statistics.md); the report
 * adds them up (docs/statistics.md "The data report").
 */

/** At most this many carriers in one report; a larger organisation is reported a part at a time. */
export const DATA_REPORT_MAX_CARRIERS = 500;

export const dataReportQuery = withinStatisticLimit(
  z.object({
    /** The organisation node (its whole subtree); absent: every carrier of the caller. */
    sceneId: z.coerce.number().int().positive().optional(),
    /** A carrier type (1..7); absent: every type. */
    type: z.coerce.number().int().min(1, { error: 'errors.rule.carrierType' }).max(7, { error: 'errors.rule.carrierType' }).optional(),
    startTime: statisticRange.startTime,
    endTime: statisticRange.endTime,
  }),
);
export type DataReportQuery = z.infer<typeof dataReportQuery>;

const n = z.number().nullable();

/** One carrier's line: its temperature figures over the span (and humidity's pass rate where it measures humidity). */
export const dataReportCarrier = z.object({
  carrierId: z.number().int(),
  name: z.string(),
  type: z.number().int(),
  sceneLabel: z.string(),
  readings: z.number().int(),
  min: n,
  max: n,
  mkt: n,
  passRate: n,
  humPassRate: n,
  offlineRate: n,
  /** Temperature and humidity excursions together, and their time. */
  excursions: z.number().int(),
  excursionS: z.number(),
});
export type DataReportCarrier = z.infer<typeof dataReportCarrier>;

/** A group's figures: carriers, the mean of their pass and offline rates (carriers without a figure left out), all in zone, excursions. */
const aggregate = {
  carriers: z.number().int(),
  /** Carriers with at least one reading in the span. */
  reporting: z.number().int(),
  /** Carriers whose every weighted second was in their zone (pass rate 100 %). */
  allInZone: z.number().int(),
  passRate: n,
  humPassRate: n,
  offlineRate: n,
  excursions: z.number().int(),
  excursionS: z.number(),
  readings: z.number().int(),
};

export const dataReportResult = z.object({
  startTime: z.number().int(),
  endTime: z.number().int(),
  summary: z.object(aggregate),
  byType: z.array(z.object({ type: z.number().int(), ...aggregate })),
  /** The exceptions of the report's carriers going on at some time in the span. */
  exceptions: exceptionStats,
  /** Worst first: the lowest pass rate (none last), then the most excursions. */
  carriers: z.array(dataReportCarrier),
});
export type DataReportResult = z.infer<typeof dataReportResult>;

export const dataReportApi = {
  report: route({
    method: 'GET',
    path: '/service/count/dataReport',
    tag: 'statistic',
    summary: `The data report of an organisation (or a carrier type) over a span: the carriers' pass and offline rates, excursions and exceptions, in total, by type and per carrier (at most ${DATA_REPORT_MAX_CARRIERS} carriers)`,
    query: dataReportQuery,
    result: dataReportResult,
  }),
};
