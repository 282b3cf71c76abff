import { z } from 'zod';
import { carrierBody, carrierUpdateBody } from '../schemas.js';
import { CARRIER_MODES, NOTICE_CHANNELS, READING_FIELDS, SENSOR_TYPES, type ReadingField } from '../enums.js';
import { SAMPLE_MODES } from '../sample.js';
import { BOARD_STATES } from '../board.js';
import { sysLogRow } from './syslog.js';
import { deletedResult, id, idParams, idQuery, idResult, idsQuery, ms, pageOf, pageQuery, route } from './route.js';

/** Carriers (monitoring points, spec §3) and their bound devices' latest values. */

export const carrierType = z.coerce.number().int().min(1).max(7);

export const carrierRow = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.number().int(),
  status: z.number().int(),
  alarmOn: z.boolean(),
  mode: z.enum(CARRIER_MODES),
  loadType: z.number().int(),
  traceable: z.boolean(),
  isKpi: z.boolean(),
  sampleMode: z.enum(SAMPLE_MODES),
  /** ΔH/R of its mean kinetic temperature, K (api/statistic.ts). */
  mktDh: z.number(),
  /** The bound alarm trigger (api/alarmTrigger.ts); none: its contacts by e-mail, the default delay and margins. */
  triggerId: z.number().int().nullable(),
  triggerName: z.string().nullable(),
  /** The channels its alarms go out on within the trigger's hours (the trigger's, else e-mail). */
  channels: z.array(z.enum(NOTICE_CHANNELS)),
  /** A trigger bound and a zone set: the grey switch icon of spec §2 when not. */
  hasTrigger: z.boolean(),
  /** Its alarm is on but would reach nobody (no recipient with an address on its channels): shown on its card, its page and the home count. */
  reachesNobody: z.boolean(),
  /** An alarm pause (spec §4): notices stop until then (UTC ms), for the reason; null when not paused. */
  pausedUntil: ms.nullable(),
  pauseReason: z.string(),
  sceneId: z.number().int(),
  sceneLabel: z.string(),
  sceneCode: z.string(),
  customerId: z.number().int(),
  customerName: z.string(),
  tempMin: z.number().nullable(),
  tempMax: z.number().nullable(),
  humMin: z.number().nullable(),
  humMax: z.number().nullable(),
  /** Alarm delay (s) and hysteresis margins (°C, %RH) of the carrier's exceptions: its trigger's, else ALARM_DEFAULTS. */
  alarmDelayS: z.number().int(),
  tempMargin: z.number(),
  humMargin: z.number(),
  sensorCount: z.number().int(),
  createdAt: ms,
});
export type CarrierRow = z.infer<typeof carrierRow>;

export const contactBrief = z.object({ id: z.number().int(), name: z.string(), phone: z.string(), email: z.string(), alarmLevel: z.number().int() });

/** Where a value stands against its zone; null without a value or a zone. */
export const rangeStateSchema = z.enum(['normal', 'high', 'low']).nullable();
/** Carrier exception state of spec §4, with offline beside it (board.ts). */
export const carrierState = z.enum(BOARD_STATES);

/** A reading's values (READING_FIELDS), each absent when the device does not report it: a sensor's latest, a point of its history. */
export const readingValues = Object.fromEntries(READING_FIELDS.map((f) => [f, z.number().nullable()])) as Record<ReadingField, z.ZodNullable<z.ZodNumber>>;

export const liveSensor = z.object({
  id: z.number().int(),
  devNo: z.string(),
  type: z.enum(SENSOR_TYPES),
  status: z.number().int(),
  carrierId: z.number().int().nullable(),
  gatewayId: z.number().int(),
  gatewaySn: z.string(),
  lastTs: ms.nullable(),
  ...readingValues,
  tempState: rangeStateSchema,
  humState: rangeStateSchema,
  inRange: z.boolean(),
  /**
   * Categories of the ongoing connection, power and battery exceptions of the sensor and of its
   * gateway's power (sensor_connect, low_battery, gateway_blackout): the board shows them as the
   * sensor's own state, never as an abnormal value (docs/devices.md). Absent where not asked.
   */
  ongoing: z.array(z.string()).optional(),
});
export type LiveSensor = z.infer<typeof liveSensor>;

export const carrierZone = z.object({ tempMin: z.number().nullable(), tempMax: z.number().nullable(), humMin: z.number().nullable(), humMax: z.number().nullable() });

export const carrierDevices = z.object({
  carrier: carrierRow.extend({ state: carrierState }),
  zone: carrierZone,
  sensors: z.array(liveSensor),
  gateways: z.array(
    z.object({ id: z.number().int(), sn: z.string(), name: z.string(), type: z.string(), status: z.number().int(), lastSeenAt: ms.nullable(), power: z.string().nullable() }),
  ),
  openExceptions: z.number().int(),
});
export type CarrierDevices = z.infer<typeof carrierDevices>;

const tag = 'carrier';
export const carrierApi = {
  page: route({
    method: 'GET',
    path: '/service/carrier/page',
    tag,
    summary: 'Carriers of the caller\'s scope, paged; a scene filter covers its subtree',
    query: pageQuery(
      {
        customerId: id.optional(),
        type: carrierType.optional(),
        sceneId: id.optional(),
        name: z.string().trim().max(50).optional(),
        status: z.coerce.number().int().min(1).max(5).optional(),
        mode: z.enum(CARRIER_MODES).optional(),
        alarmOn: z.enum(['true', 'false']).optional().transform((v) => (v === undefined ? undefined : v === 'true')),
      },
      ['name', 'type', 'status', 'createdAt'],
    ),
    result: pageOf(carrierRow),
  }),
  detail: route({
    method: 'GET',
    path: '/service/carrier/detail',
    tag,
    summary: 'One carrier with its zones and contacts',
    query: idQuery,
    result: carrierRow.extend({ contactIds: z.array(z.number().int()), contacts: z.array(contactBrief) }),
  }),
  atom: route({ method: 'GET', path: '/service/atomCarrier/:id', tag, summary: 'One carrier with its bound devices and their latest values', params: idParams, result: carrierDevices }),
  add: route({ method: 'POST', path: '/service/carrier/add', tag, summary: 'Create a carrier', body: carrierBody, result: idResult }),
  update: route({ method: 'PUT', path: '/service/carrier/update', tag, summary: 'Change a carrier', body: carrierUpdateBody, result: idResult }),
  alarmSwitch: route({
    method: 'PUT',
    path: '/service/carrier/alarmSwitch',
    tag,
    summary: 'Switch the alarm of carriers on or off; each change is written to the alarm-switch log',
    body: z.object({
      ids: z.array(z.number().int().positive()).min(1, { error: 'errors.selectAtLeastOne' }).max(500),
      alarmOn: z.boolean(),
      /** Why (optional): written to the alarm-switch log. */
      reason: z.string().trim().max(250, { error: 'errors.rule.maxLength250' }).default(''),
    }),
    result: z.object({ changed: z.number().int() }),
  }),
  del: route({ method: 'DELETE', path: '/service/carrier/del', tag, summary: 'Delete carriers that hold no devices', query: idsQuery, result: deletedResult }),
  operateRecord: route({
    method: 'GET',
    path: '/service/carrier/operateRecord',
    tag,
    summary: 'What was done to one carrier (its system-log entries), newest first',
    query: pageQuery({ id }, []),
    result: pageOf(sysLogRow),
  }),
};
