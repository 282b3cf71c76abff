import { z } from 'zod';
import { HISTORY_MAX_SPAN_DAYS } from '../schemas.js';
import { humidity, temperature } from '../rules.js';
import { id, route } from './route.js';

/*
 * JJF 1101 mapping figures (issue 29; docs/statistics.md "Mapping figures (JJF 1101)"): for a set
 * of points (a carrier's probes, or a verification task's devices) over a range, against a set
 * point. Readings of the points are grouped into sampling instants of `interval` seconds counted
 * from the start of the range; the formulas, the choice of the centre point and the treatment of
 * a missing reading are written out with a worked example in docs/statistics.md.
 */

/** Sampling frequency bounds in seconds: the §5 collection interval (not below 10 s) up to a day. */
export const MAPPING_INTERVAL_MIN_S = 10;
export const MAPPING_INTERVAL_MAX_S = 86_400;

export const mappingInterval = z
  .number({ error: 'errors.mapping.interval' })
  .int({ error: 'errors.mapping.interval' })
  .min(MAPPING_INTERVAL_MIN_S, { error: 'errors.mapping.interval' })
  .max(MAPPING_INTERVAL_MAX_S, { error: 'errors.mapping.interval' });

/** One point's figures over the range. */
export const mappingPoint = z.object({
  sensorId: z.number().int(),
  deviceNo: z.string(),
  /** Readings of the point in the range. */
  readings: z.number().int(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  /** Arithmetic mean of its readings. */
  mean: z.number().nullable(),
  /** Half its range over time: (max − min) / 2. */
  fluctuation: z.number().nullable(),
});
export type MappingPoint = z.infer<typeof mappingPoint>;

/** The figures of one measure (°C or %RH); null where there is no reading to compute them from. */
export const mappingFigures = z.object({
  setpoint: z.number(),
  /** Highest reading of any point minus the set point. */
  deviationMax: z.number().nullable(),
  /** Lowest reading of any point minus the set point. */
  deviationMin: z.number().nullable(),
  /** Mean over the complete sampling instants of (highest − lowest point value at the instant). */
  uniformity: z.number().nullable(),
  /** The largest point fluctuation. */
  fluctuationMax: z.number().nullable(),
  /** Mean of the centre point's readings minus the set point. */
  centreDeviation: z.number().nullable(),
  /** The device numbers of the points with the highest and the lowest mean. */
  hottest: z.string().nullable(),
  coldest: z.string().nullable(),
  /** Sampling instants with a reading of at least one point, and those with a reading of every point (the uniformity's). */
  instants: z.number().int(),
  completeInstants: z.number().int(),
  points: z.array(mappingPoint),
});
export type MappingFigures = z.infer<typeof mappingFigures>;

/** The answer: temperature's figures at the top (the names), humidity's beside them when asked for. */
export const mappingResult = mappingFigures.extend({
  startTime: z.number().int(),
  endTime: z.number().int(),
  /** Sampling frequency used, seconds. */
  interval: z.number().int(),
  /** The centre point's device number. */
  centre: z.string().nullable(),
  humidity: mappingFigures.nullable(),
});
export type MappingResult = z.infer<typeof mappingResult>;

const coerced = <T extends z.ZodType>(s: T) => z.preprocess((v) => (v === '' || v === undefined ? undefined : Number(v)), s);

export const mappingQuery = z
  .object({
    carrierId: id,
    startTime: z.coerce.number().int().min(0),
    endTime: z.coerce.number().int().min(0),
    setpoint: coerced(temperature),
    /** Humidity set point (%RH): humidity's figures are answered when given. */
    humSetpoint: coerced(humidity.optional()),
    /** Sampling frequency, seconds; default the slowest sample interval of the points. */
    interval: coerced(mappingInterval.optional()),
    /** The centre point's device number; default the first probe by device number. */
    centre: z.string().trim().max(30).optional(),
  })
  .refine((q) => q.startTime <= q.endTime, { error: 'errors.rule.startAfterEnd', path: ['startTime'] })
  .refine((q) => q.endTime - q.startTime <= HISTORY_MAX_SPAN_DAYS * 86_400_000, { error: 'errors.rule.historySpan', path: ['endTime'] });
export type MappingQuery = z.infer<typeof mappingQuery>;

export const mappingApi = {
  mapping: route({
    method: 'GET',
    path: '/service/count/mapping',
    tag: 'mapping',
    summary: "JJF 1101 mapping figures of a carrier's probes over a range against a set point (deviation, uniformity, fluctuation, centre, hottest and coldest)",
    query: mappingQuery,
    result: mappingResult,
  }),
};
