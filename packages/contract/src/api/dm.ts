import { z } from 'zod';
import { carrierDevices, carrierRow, carrierState, carrierType, liveSensor } from './carrier.js';
import { id, route } from './route.js';

/** The live board of the databoard (spec §2): the device monitor and a monitoring point's detail. */

export const monitorCarrier = carrierRow.extend({ openExceptions: z.number().int(), state: carrierState, sensors: z.array(liveSensor) });
export type MonitorCarrier = z.infer<typeof monitorCarrier>;

export const dmApi = {
  mpDetail: route({
    method: 'GET',
    path: '/service/dm/mpDetail',
    tag: 'dm',
    summary: 'Monitoring-point detail: a carrier, its zone, devices and open exceptions',
    query: z.object({ carrierId: id }),
    result: carrierDevices,
  }),
  monitorList: route({
    method: 'GET',
    path: '/service/dm/monitorList',
    tag: 'dm',
    summary: 'Every carrier of a scene with its live sensors, for the device monitor board (with `first`, only the first carriers in board order: the first screen)',
    query: z.object({
      customerId: id.optional(),
      sceneId: id.optional(),
      type: carrierType.optional(),
      name: z.string().trim().max(50).optional(),
      /** Only the first n carriers (board order): the board paints its first screen from these while the whole list comes. */
      first: z.coerce.number().int().min(1).max(1000).optional(),
    }),
    result: z.array(monitorCarrier),
  }),
};
