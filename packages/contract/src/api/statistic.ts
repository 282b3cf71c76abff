import { z } from 'zod';
import { id, route, startNotAfterEnd } from './route.js';

/*
 * Statistics of a carrier over a range (spec §2 /count/statistic, §3 Report/statistics; issue 29):
 * minimum, maximum, time-weighted average and standard deviation, mean kinetic temperature, pass
 * rate, time in zone, offline rate, excursions and the time under invalid rules, for the whole
 * range and per day, week or month of the customer's time zone. The formulas, with a worked
 * example, are in docs/statistics.md; the server computes them in server/src/modules/statistic.
 */

/** ΔH/R of the mean kinetic temperature, kelvin: 83.144 kJ/mol ÷ R (USP <1079.2>, ICH Q1A). */
export const MKT_DH_DEFAULT = 10_000;
/** What a carrier may set instead (about 33 to 166 kJ/mol: the activation energies of drug degradation); the column's CHECK agrees (migration 0038). */
export const MKT_DH_MIN = 4_000;
export const MKT_DH_MAX = 20_000;
export const mktDh = z.number({ error: 'errors.statistic.mktDh' }).min(MKT_DH_MIN, { error: 'errors.statistic.mktDh' }).max(MKT_DH_MAX, { error: 'errors.statistic.mktDh' });

/** 0 °C in kelvin. */
export const KELVIN = 273.15;

/** The longest range one call answers: a year and a day (a leap year's 366 days), docs/statistics.md "Limits". */
export const STATISTIC_MAX_DAYS = 366;
/** At most this many carriers in one call of the list. */
export const STATISTIC_MAX_CARRIERS = 100;

export const STATISTIC_PERIODS = ['day', 'week', 'month'] as const;
export type StatisticPeriod = (typeof STATISTIC_PERIODS)[number];

const DAY_MS = 86_400_000;
/** A range of epoch ms (the report's too, api/dataReport.ts). */
export const statisticRange = {
  startTime: z.coerce.number({ error: 'errors.statistic.range' }).int({ error: 'errors.statistic.range' }).min(0, { error: 'errors.statistic.range' }),
  endTime: z.coerce.number({ error: 'errors.statistic.range' }).int({ error: 'errors.statistic.range' }).min(0, { error: 'errors.statistic.range' }),
  period: z.enum(STATISTIC_PERIODS, { error: 'errors.statistic.period' }).optional(),
};
/** A range runs forward and lasts at most STATISTIC_MAX_DAYS. */
export const withinStatisticLimit = <T extends z.ZodType<{ startTime: number; endTime: number }>>(s: T) =>
  s.refine(...startNotAfterEnd).refine((q) => q.endTime - q.startTime <= STATISTIC_MAX_DAYS * DAY_MS, { error: 'errors.statistic.tooLong', path: ['endTime'] });

export const statisticQuery = withinStatisticLimit(z.object({ carrierId: id, ...statisticRange }));
export type StatisticQuery = z.infer<typeof statisticQuery>;

export const statisticListQuery = withinStatisticLimit(
  z.object({
    carrierIds: z
      .string({ error: 'errors.selectAtLeastOne' })
      .max(2000)
      .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean).map(Number))
      .refine((a) => a.length > 0, { error: 'errors.selectAtLeastOne' })
      .refine((a) => a.length <= STATISTIC_MAX_CARRIERS, { error: 'errors.statistic.tooMany' })
      .refine((a) => a.every((n) => Number.isInteger(n) && n > 0 && n <= 2_147_483_647), { error: 'errors.rule.ids' }),
    ...statisticRange,
  }),
);

const n = z.number().nullable();
/** The figures of one measure over one span; null where nothing was measured (never a division by zero). */
export const measureFigures = z.object({
  min: n,
  max: n,
  /** Time-weighted. */
  avg: n,
  /** Time-weighted, of the population. */
  stdDev: n,
  /** Mean kinetic temperature, °C (temperature only). */
  mkt: n,
  /** Share (0–1) of the weighted time in the carrier's zone; null without a zone. */
  passRate: n,
  timeInZoneS: n,
  /** Share (0–1) of the expected readings (from each sensor's sample interval) that are missing. */
  offlineRate: n,
  /** The carrier's exceptions of this measure overlapping the span, and their time within it. */
  excursions: z.number().int(),
  excursionS: z.number(),
  readings: z.number().int(),
  /** Time under invalid rules: left out of every figure above. */
  excludedS: z.number(),
});
export type MeasureFigures = z.infer<typeof measureFigures>;

export const statisticFigures = z.object({
  /** The span, UTC ms, half-open [start, end). */
  start: z.number().int(),
  end: z.number().int(),
  temp: measureFigures,
  /** Null when none of the carrier's sensors measures humidity. */
  hum: measureFigures.nullable(),
});
export type StatisticFigures = z.infer<typeof statisticFigures>;

export const statisticResult = z.object({
  carrierId: z.number().int(),
  name: z.string(),
  /** The customer's time zone ('+05:45'): the periods' boundaries. */
  tz: z.string(),
  mktDh: z.number(),
  zone: z.object({ tempMin: n, tempMax: n, humMin: n, humMax: n }),
  /** Whether the rollups answered part of it (the rest from the raw readings): the figures are the same either way. */
  fromRollups: z.boolean(),
  summary: statisticFigures,
  /** With `period`: each day, week (from Monday) or month, the first and last cut to the range. */
  periods: z.array(statisticFigures).optional(),
});
export type StatisticResult = z.infer<typeof statisticResult>;

const tag = 'statistic';
export const statisticApi = {
  view: route({
    method: 'GET',
    path: '/service/count/statistic',
    tag,
    summary: 'A carrier’s statistics over a range (epoch ms), for the whole of it and per day, week or month: min, max, avg, stdDev, MKT, pass rate, offline rate, excursions',
    query: statisticQuery,
    result: statisticResult,
  }),
  list: route({
    method: 'GET',
    path: '/service/count/statistic/list',
    tag,
    summary: `The statistics of several carriers (at most ${STATISTIC_MAX_CARRIERS}) over one range; carriers the caller cannot see are left out`,
    query: statisticListQuery,
    result: z.array(statisticResult),
  }),
};
