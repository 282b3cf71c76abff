import { z } from 'zod';
import { carrierHistoryQueryCapped, historyQueryCapped } from '../schemas.js';
import { SAMPLE_MODES } from '../sample.js';
import { SENSOR_TYPES } from '../enums.js';
import { carrierZone } from './carrier.js';
import { ms, route } from './route.js';

/** Readings of one device over time (spec §7 `/service/share/history`) and the live stream. */

export const historyPoint = z.object({
  ts: ms,
  temp: z.number().nullable(),
  hum: z.number().nullable(),
  volt: z.number().nullable(),
  rssi: z.number().nullable(),
  lqi: z.number().nullable(),
  gas: z.number().nullable(),
  door: z.number().nullable(),
});
export type HistoryPoint = z.infer<typeof historyPoint>;

export const historyResult = z.object({
  deviceNo: z.string(),
  type: z.enum(SENSOR_TYPES),
  total: z.number().int(),
  zone: carrierZone,
  points: z.array(historyPoint),
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

export const liveApi = {
  stream: route({
    method: 'GET',
    path: '/service/live/stream',
    tag: 'live',
    summary: 'Server-Sent Events: readings, exceptions and device status of the caller\'s scope, as they commit',
    result: z.string(),
    raw: 'stream',
  }),
};
