import { z } from 'zod';
import { id, ms, pageOf, pageQuery, route, startNotAfterEnd, timeRange } from './route.js';

/** The alarm-switch log of spec §2 /noti/alarmLog: who switched which carrier's alarm on or off, and when. */

export const alarmLogRow = z.object({
  id: z.number().int(),
  time: ms,
  carrierId: z.number().int().nullable(),
  carrierName: z.string(),
  carrierType: z.number().int().nullable(),
  sceneLabel: z.string().nullable(),
  alarmOn: z.boolean(),
  /** Why, as given with the switch or the pause (optional); the end of a pause says so. */
  reason: z.string(),
  /** Set when the row is an alarm pause: until when (UTC ms). */
  pausedUntil: ms.nullable(),
  operator: z.string(),
  customerId: z.number().int(),
  customerName: z.string(),
});
export type AlarmLogRow = z.infer<typeof alarmLogRow>;

export const alarmLogApi = {
  page: route({
    method: 'GET',
    path: '/service/alarmLog/page',
    tag: 'alarmLog',
    summary: 'Alarm-switch changes of the caller\'s carriers, newest first',
    query: pageQuery({
      carrierId: id.optional(),
      carrierName: z.string().trim().max(50).optional(),
      operator: z.string().trim().max(50).optional(),
      alarmOn: z.enum(['true', 'false']).optional().transform((v) => (v === undefined ? undefined : v === 'true')),
      customerId: id.optional(),
      ...timeRange,
    }).refine(...startNotAfterEnd),
    result: pageOf(alarmLogRow),
  }),
};
