import { z } from 'zod';
import { historyQueryCapped } from '../schemas.js';
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

export const historyApi = {
  history: route({
    method: 'GET',
    path: '/service/share/history',
    tag: 'history',
    summary: 'Readings of one device between two times, downsampled to maxPoints keeping every bucket\'s extremes',
    query: historyQueryCapped,
    result: historyResult,
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
