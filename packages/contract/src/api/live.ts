import { z } from 'zod';
import { route } from './route.js';

/**
 * The events of the live stream (`GET /service/live/stream`, Server-Sent Events): each is
 * `event: <type>` with `data: <json>` of the shapes below, for the caller's scope only.
 */

/** A sensor's latest values after a commit of readings. */
export interface LiveReading {
  customerId: number;
  sensorId: number;
  devNo: string;
  carrierId: number | null;
  ts: number;
  temp?: number | null;
  hum?: number | null;
  volt?: number | null;
  rssi?: number | null;
  lqi?: number | null;
  gas?: number | null;
  door?: number | null;
}

/** An exception opened (ongoing) or ended. */
export interface ExceptionEvent {
  customerId: number;
  exceptionId: number;
  carrierId: number | null;
  sensorId: number | null;
  /** A gateway's own exception (connection, power failure): the board marks the sensors reporting through it. */
  gatewayId?: number | null;
  category: string;
  ongoing: boolean;
}

/** A device went online, offline or was stopped. */
export interface DeviceStatusEvent {
  customerId: number;
  kind: 'gateway' | 'sensor';
  id: number;
  status: number;
}

export type LiveEvent = { type: 'reading'; data: LiveReading } | { type: 'exception'; data: ExceptionEvent } | { type: 'deviceStatus'; data: DeviceStatusEvent };

export const liveApi = {
  stream: route({
    method: 'GET',
    path: '/service/live/stream',
    tag: 'live',
    summary: 'Server-Sent Events: readings, exceptions and device status of the caller\'s scope, as they commit (with `sensors`, readings and sensor status of those sensors only)',
    query: z.object({
      /**
       * The sensors a page shows (`1,2,3`, at most 2,000): readings and sensor status of the others
       * are not sent. A board over 100,000 sensors reporting every minute would otherwise send every
       * browser 1,700 events a second for cards it does not show (docs/scaling.md "The board at 100,000 points"). Exceptions
       * and gateway status always come.
       */
      sensors: z
        .string()
        .max(24_000, { error: 'errors.rule.ids' })
        .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean).map(Number))
        .refine((a) => a.length <= 2000 && a.every((n) => Number.isInteger(n) && n > 0 && n <= 2_147_483_647), { error: 'errors.rule.ids' })
        .optional(),
    }),
    result: z.string(),
    raw: 'stream',
  }),
};
