import { z } from 'zod';
import * as r from '../rules.js';
import { deletedResult, id, idQuery, idResult, idsQuery, ms, pageOf, pageQuery, route } from './route.js';

/**
 * Display screens (spec §3 Display: number, name, nickname, type, alarm on/off, alarm duration,
 * alarm interval, heartbeat interval; §2 /device/displayscreen, /DisplayDetail): a screen on a
 * gateway showing a monitoring point, whose buzzer sounds for the point's alarms.
 */

export const DISPLAY_TYPES = ['display1'] as const;

const seconds = (min: number, max: number, error: string) => z.number({ error }).int({ error }).min(min, { error }).max(max, { error });

export const displayBody = z.object({
  devNo: r.deviceNo,
  name: r.name(50),
  nickname: r.text(50).default(''),
  type: z.enum(DISPLAY_TYPES, { error: 'errors.display.type' }).default('display1'),
  gatewayId: z.number().int().positive({ error: 'errors.rule.required' }),
  carrierId: z.number().int().positive().nullable().default(null),
  alarmOn: z.boolean().default(true),
  /** How long the buzzer sounds for an alarm, seconds. */
  alarmDuration: seconds(1, 3600, 'errors.display.alarmDuration').default(60),
  /** How long between two soundings of an alarm that goes on, seconds; not shorter than one sounding. */
  alarmInterval: seconds(10, 86400, 'errors.display.alarmInterval').default(300),
  heartbeatInterval: seconds(10, 86400, 'errors.display.heartbeatInterval').default(60),
  tz: r.timeZone.default('+08:00'),
});
export type DisplayBody = z.infer<typeof displayBody>;

export const displayRow = z.object({
  id: z.number().int(),
  devNo: z.string(),
  name: z.string(),
  nickname: z.string(),
  type: z.string(),
  gatewayId: z.number().int(),
  gatewaySn: z.string(),
  gatewayName: z.string(),
  carrierId: z.number().int().nullable(),
  carrierName: z.string().nullable(),
  alarmOn: z.boolean(),
  alarmDuration: z.number().int(),
  alarmInterval: z.number().int(),
  heartbeatInterval: z.number().int(),
  /** Computed: stopped (2) by a user, else online (1) or offline (0) as its gateway. */
  status: z.number().int(),
  tz: z.string(),
  customerId: z.number().int(),
  customerName: z.string(),
  createdAt: ms,
});
export type DisplayRow = z.infer<typeof displayRow>;

const tag = 'display';
export const displayApi = {
  page: route({
    method: 'GET',
    path: '/service/display/page',
    tag,
    summary: "Display screens of the caller's scope, paged",
    query: pageQuery({ devNo: z.string().trim().max(30).optional(), name: z.string().trim().max(50).optional(), status: z.coerce.number().int().min(0).max(2).optional(), carrierId: id.optional() }, ['devNo', 'name', 'createdAt']),
    result: pageOf(displayRow),
  }),
  detail: route({ method: 'GET', path: '/service/display/detail', tag, summary: 'One display screen', query: idQuery, result: displayRow }),
  add: route({ method: 'POST', path: '/service/display/add', tag, summary: 'Enrol a display screen on a gateway', body: displayBody, result: idResult }),
  update: route({ method: 'PUT', path: '/service/display/update', tag, summary: 'Change a display screen', body: displayBody.safeExtend({ id }), result: idResult }),
  setStatus: route({
    method: 'PUT',
    path: '/service/display/status',
    tag,
    summary: 'Stop display screens or enable them again',
    body: z.object({ ids: z.array(id).min(1, { error: 'errors.selectAtLeastOne' }).max(500), stopped: z.boolean() }),
    result: z.object({ changed: z.number().int() }),
  }),
  del: route({ method: 'DELETE', path: '/service/display/del', tag, summary: 'Delete display screens', query: idsQuery, result: deletedResult }),
};
