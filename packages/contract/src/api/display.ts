import { z } from 'zod';
import * as r from '../rules.js';
import { id } from './route.js';
import { busApi, busBodyFields, busRowFields } from './device.js';

/**
 * Display screens (spec §3 Display: number, name, nickname, type, alarm on/off, alarm duration,
 * alarm interval, heartbeat interval; §2 /device/displayscreen, /DisplayDetail): a screen on a
 * gateway showing a monitoring point, whose buzzer sounds for the point's alarms.
 */

export const DISPLAY_TYPES = ['display1'] as const;

const seconds = (min: number, max: number, error: string) => z.number({ error }).int({ error }).min(min, { error }).max(max, { error });

export const displayBody = z.object({
  ...busBodyFields,
  nickname: r.text(50).default(''),
  type: z.enum(DISPLAY_TYPES, { error: 'errors.display.type' }).default('display1'),
  alarmOn: z.boolean().default(true),
  /** How long the buzzer sounds for an alarm, seconds. */
  alarmDuration: seconds(1, 3600, 'errors.display.alarmDuration').default(60),
  /** How long between two soundings of an alarm that goes on, seconds; not shorter than one sounding. */
  alarmInterval: seconds(10, 86400, 'errors.display.alarmInterval').default(300),
  /** Absent on a new display: the "default transmission interval" parameter (display_interval_seconds); absent on a change: kept. */
  heartbeatInterval: seconds(10, 86400, 'errors.display.heartbeatInterval').optional(),
});
export type DisplayBody = z.infer<typeof displayBody>;

export const displayRow = z.object({
  ...busRowFields,
  nickname: z.string(),
  alarmOn: z.boolean(),
  alarmDuration: z.number().int(),
  alarmInterval: z.number().int(),
  heartbeatInterval: z.number().int(),
});
export type DisplayRow = z.infer<typeof displayRow>;

export const displayApi = busApi({ base: '/service/display', tag: 'display', one: 'display screen', many: 'Display screens', body: displayBody, update: displayBody.safeExtend({ id }), row: displayRow, filters: {} });
