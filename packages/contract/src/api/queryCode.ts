import { z } from 'zod';
import { paging } from '../rules.js';
import { historyResult } from './history.js';
import { id, idsQuery, ms, pageOf, pageQuery, route } from './route.js';

/**
 * Query codes (spec §2 /code/findCode, §7 `find/sensor/page` and `find/code/generate`, §9 "query
 * code valid 7 days"; docs/workorders.md "Query codes"): a customer hands someone without an
 * account a code for chosen sensors; whoever has it opens /queryCode and sees those sensors'
 * readings over the code's period, nothing else, until it expires or is revoked.
 */

/** §9: a code works for 7 days from its making. */
export const QUERY_CODE_TTL_MS = 7 * 86_400_000;
/** Without a period, the code shows the week before it was made and the readings while it is valid. */
export const QUERY_CODE_DEFAULT_BACK_MS = 7 * 86_400_000;
/** The sensors one code may name. */
export const QUERY_CODE_MAX_SENSORS = 50;
/** Points per sensor on the public page (downsampled, each bucket keeping its extremes, as history does). */
export const QUERY_CODE_MAX_POINTS = 500;

export const QUERY_CODE_STATUS = { active: 0, expired: 1, revoked: 2 } as const;

export const queryCodeBody = z
  .object({
    sensorIds: z
      .array(id, { error: 'errors.queryCode.sensors' })
      .min(1, { error: 'errors.queryCode.sensors' })
      .max(QUERY_CODE_MAX_SENSORS, { error: 'errors.queryCode.sensors' }),
    /** The period whose readings it shows (UTC ms); both or neither. */
    startTime: ms.min(0).optional(),
    endTime: ms.min(0).optional(),
    note: z.string().trim().max(100, { error: 'errors.queryCode.note' }).default(''),
  })
  .refine((b) => (b.startTime === undefined) === (b.endTime === undefined), { error: 'errors.queryCode.period', path: ['startTime'] })
  .refine((b) => b.startTime === undefined || b.endTime === undefined || b.startTime <= b.endTime, { error: 'errors.rule.startAfterEnd', path: ['startTime'] });
export type QueryCodeBody = z.infer<typeof queryCodeBody>;

export const queryCodeSensor = z.object({ devNo: z.string(), name: z.string(), carrierName: z.string().nullable() });

export const queryCodeRow = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  customerName: z.string(),
  note: z.string(),
  sensors: z.array(queryCodeSensor),
  startTime: ms,
  endTime: ms,
  expiresAt: ms,
  /** 0 active, 1 expired, 2 revoked. */
  status: z.number().int(),
  createdBy: z.string(),
  createdAt: ms,
  revokedAt: ms.nullable(),
  /** The code and the page's address while it is active (the token is signed afresh, the same each time). */
  code: z.string().nullable(),
  url: z.string().nullable(),
});
export type QueryCodeRow = z.infer<typeof queryCodeRow>;

/** What the public page shows: the period and expiry, and per sensor its readings over the period. */
/** Without the carrier's id history answers since d5caf06: the public page gives no identifiers another call could take. */
export const foundSensors = pageOf(historyResult.omit({ carrierId: true }).extend({ name: z.string(), carrierName: z.string().nullable() })).extend({
  startTime: ms,
  endTime: ms,
  expiresAt: ms,
  customerName: z.string(),
  timeZone: z.string(),
});
export type FoundSensors = z.infer<typeof foundSensors>;

const tag = 'queryCode';
export const queryCodeApi = {
  generate: route({
    method: 'POST',
    path: '/service/find/code/generate',
    tag,
    summary: 'Make a query code for chosen sensors (optionally a period), valid 7 days',
    body: queryCodeBody,
    result: z.object({ id: z.number().int(), code: z.string(), url: z.string(), expiresAt: ms }),
  }),
  page: route({
    method: 'GET',
    path: '/service/find/code/page',
    tag,
    summary: "The caller's query codes with their sensors, period, expiry and state",
    query: pageQuery({ status: z.coerce.number().int().min(0).max(2).optional(), customerId: id.optional() }),
    result: pageOf(queryCodeRow),
  }),
  revoke: route({ method: 'PUT', path: '/service/find/code/revoke', tag, summary: 'Revoke query codes before they expire', query: idsQuery, result: z.object({ revoked: z.number().int() }) }),
  sensors: route({
    method: 'GET',
    path: '/service/find/sensor/page',
    tag,
    summary: "No sign-in: the readings of a query code's sensors over its period",
    query: z.object({ ...paging, code: z.string().min(1).max(200) }),
    result: foundSensors,
  }),
};
