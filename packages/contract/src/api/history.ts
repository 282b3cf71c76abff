import { z } from 'zod';
import { carrierHistoryQueryCapped, historyQueryCapped } from '../schemas.js';
import { SAMPLE_MODES } from '../sample.js';
import { SENSOR_TYPES } from '../enums.js';
import { carrierZone, readingValues } from './carrier.js';
import { ms, route } from './route.js';

/** Readings of one device or one carrier over time (spec §7 `/service/share/history`). */

export const historyPoint = z.object({ ts: ms, ...readingValues });
export type HistoryPoint = z.infer<typeof historyPoint>;

/**
 * A period during which the carrier's readings were invalid under one of its invalid rules
 * (api/invalidRule.ts; server alarm/excluded.ts), clipped to the span asked: no alarm came of
 * them; the chart shades it and the table marks its readings. Half-open [start, end).
 */
export const excludedPeriod = z.object({ start: ms, end: ms, ruleId: z.number().int(), name: z.string() });
export type ExcludedPeriod = z.infer<typeof excludedPeriod>;

export const historyResult = z.object({
  deviceNo: z.string(),
  /** The sensor's carrier, whose statistics (api/statistic.ts) the page shows; null when unbound. */
  carrierId: z.number().int().nullable(),
  type: z.enum(SENSOR_TYPES),
  total: z.number().int(),
  zone: carrierZone,
  points: z.array(historyPoint),
  /** The periods the readings of the sensor's carrier were excluded (invalid rules). */
  excluded: z.array(excludedPeriod),
  /** True when the span held more readings than maxPoints: each bucket keeps its extremes. */
  downsampled: z.boolean(),
  /**
   * Where the points come from: the raw readings, or for spans longer than a week the
   * 5-minute or hourly rollups (each bucket's minimum at its first reading's time and its
   * maximum at its last's).
   */
  source: z.enum(['raw', '5m', '1h']),
});
export type HistoryResult = z.infer<typeof historyResult>;

/**
 * A carrier's value over time (spec §3 sample modes: what the board shows and the alarms judge),
 * from its running sensors: each point is the mode over each sensor's latest reading that is not
 * stale then. Temperature and humidity only. Spans over a week come from the rollups: each
 * bucket's point pair is the mode over the sensors' bucket minima and over their maxima.
 */
export const carrierHistoryResult = z.object({
  carrierId: z.number().int(),
  name: z.string(),
  mode: z.enum(SAMPLE_MODES),
  devNos: z.array(z.string()),
  total: z.number().int(),
  zone: carrierZone,
  points: z.array(historyPoint),
  excluded: z.array(excludedPeriod),
  downsampled: z.boolean(),
  source: z.enum(['raw', '5m', '1h']),
});
export type CarrierHistoryResult = z.infer<typeof carrierHistoryResult>;

export const historyApi = {
  history: route({
    method: 'GET',
    path: '/service/share/history',
    tag: 'history',
    summary: 'Readings of one device between two times, downsampled to maxPoints keeping every bucket\'s extremes',
    query: historyQueryCapped,
    result: historyResult,
  }),
  carrier: route({
    method: 'GET',
    path: '/service/share/history/carrier',
    tag: 'history',
    summary: "A carrier's value (its sample mode over its sensors) between two times, downsampled keeping every bucket's extremes",
    query: carrierHistoryQueryCapped,
    result: carrierHistoryResult,
  }),
};
