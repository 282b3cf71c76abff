import { z } from 'zod';
import { CARRIER_MODES, CARRIER_TYPES, GATEWAY_TYPES, LOAD_TYPES, SENSOR_TYPES } from './enums.js';
import { SAMPLE_MODES } from './sample.js';
import { mktDh } from './api/statistic.js';
import { GAS_CODES } from './deviceTypes.js';
import * as r from './rules.js';

/** Request bodies of the records the core path needs. Server validates with these; the web reuses them. */

const carrierTypes = CARRIER_TYPES.map((c) => c.type) as number[];

export const carrierBody = z
  .object({
    name: r.name(50),
    type: z.number().int().refine((t) => carrierTypes.includes(t), { error: 'errors.rule.carrierType' }),
    sceneId: z.number().int().positive({ error: 'errors.rule.required' }),
    status: z.number().int().min(1).max(5).default(1),
    alarmOn: z.boolean().default(true),
    mode: z.enum(CARRIER_MODES, { error: 'errors.rule.carrierMode' }).default('normal'),
    loadType: z.number().int().refine((t) => (LOAD_TYPES as readonly number[]).includes(t), { error: 'errors.rule.loadType' }).default(0),
    traceable: z.boolean().default(false),
    isKpi: z.boolean().default(true),
    sampleMode: z.enum(SAMPLE_MODES, { error: 'errors.rule.sampleMode' }).default('latest'),
    /** ΔH/R of its mean kinetic temperature, K (docs/statistics.md); left out keeps it (10,000 K for a new carrier). */
    mktDh: mktDh.optional(),
    /** Spec §3 "alarm method", delay and margins: the bound alarm trigger's (api/alarmTrigger.ts); null unbinds, left out keeps the binding. */
    triggerId: z.number().int().positive().nullable().optional(),
    tempMin: r.temperature.nullable().default(null),
    tempMax: r.temperature.nullable().default(null),
    humMin: r.humidity.nullable().default(null),
    humMax: r.humidity.nullable().default(null),
    contactIds: z.array(z.number().int().positive()).default([]),
    /** The sensors bound to the carrier: when given, exactly these (others are unbound); left out, the binding stays. */
    sensorIds: z.array(z.number().int().positive()).max(500).optional(),
  })
  .superRefine((c, ctx) => {
    for (const [lo, hi] of [['tempMin', 'tempMax'], ['humMin', 'humMax']] as const) {
      const a = c[lo];
      const b = c[hi];
      if ((a === null) !== (b === null)) ctx.addIssue({ code: 'custom', path: [a === null ? lo : hi], message: 'errors.rule.zoneBothRequired' });
      else if (a !== null && b !== null && a > b) ctx.addIssue({ code: 'custom', path: [lo], message: 'errors.rule.minAboveMax' });
    }
  });
export type CarrierBody = z.infer<typeof carrierBody>;

export const gatewayBody = z.object({
  sn: r.gatewaySn,
  name: r.name(50),
  nickname: r.text(50).default(''),
  type: z.enum(GATEWAY_TYPES, { error: 'errors.rule.gatewayType' }).default('gw2'),
  carrierId: z.number().int().positive().nullable().default(null),
  tz: r.timeZone.default('+08:00'),
});
export type GatewayBody = z.infer<typeof gatewayBody>;

export const sensorBody = z.object({
  devNo: r.deviceNo,
  type: z.enum(SENSOR_TYPES, { error: 'errors.rule.sensorType' }),
  description: r.text(250).default(''),
  gatewayId: z.number().int().positive({ error: 'errors.rule.required' }),
  carrierId: z.number().int().positive().nullable().default(null),
  /** Seconds; absent on a new sensor: the "default transmission interval" parameter (sensor_interval_seconds); absent on a change: kept. */
  sampleInterval: r.sampleIntervalSeconds.optional(),
  /** Calibration expiry date (spec §3), a calendar day. */
  calibExpiry: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, { error: 'errors.rule.date' })
    // 2027-02-31 passes the pattern but is no day (PostgreSQL would refuse it with a 500).
    .refine((d) => {
      const t = Date.parse(`${d}T00:00:00Z`);
      return !Number.isNaN(t) && new Date(t).toISOString().startsWith(d);
    }, { error: 'errors.rule.date' })
    .nullable()
    .default(null),
  /** When to send the calibration notice, ms; §5: not before now (checked by the server when it changes: calibNoticeOk). */
  calibNotice: z.number().int().positive().nullable().default(null),
  tz: r.timeZone.default('+08:00'),
  /** A gas detector's gas (spec §3 hex codes, or CO2): required for type gas, ignored for the others. */
  gasCode: z.enum(GAS_CODES, { error: 'errors.rule.gasCode' }).nullable().default(null),
});
export type SensorBody = z.infer<typeof sensorBody>;

/** Spec §5 "calibration notice time cannot be before now" (a minute of grace for the form's round trip). */
export const calibNoticeOk = (at: number | null, now = Date.now()) => at === null || at >= now - 60_000;

export const contactBody = z.object({
  name: r.name(30),
  gender: z.union([z.literal(0), z.literal(1)]).default(1),
  phone: r.phone.or(z.literal('')).default(''),
  email: r.email.or(z.literal('')).default(''),
  alarmLevel: z.number().int().min(1).max(3).default(1),
  groupName: r.text(50).default(''),
});
export type ContactBody = z.infer<typeof contactBody>;

export const sceneBody = z.object({
  label: r.name(50),
  parentId: z.number().int().positive().nullable().default(null),
  funcType: z.number().int().min(0).max(3).default(0),
  lng: r.longitude.nullable().default(null),
  lat: r.latitude.nullable().default(null),
});
export type SceneBody = z.infer<typeof sceneBody>;

export const loginBody = z.object({
  account: z.string({ error: 'errors.login.emptyAccount' }).trim().min(1, { error: 'errors.login.emptyAccount' }).max(50),
  password: z.string({ error: 'errors.login.emptyPassword' }).min(1, { error: 'errors.login.emptyPassword' }).max(100),
  code: z.string().trim().max(10).optional(),
});
export type LoginBody = z.infer<typeof loginBody>;

/** A span of time to chart: start not after end, and how many points the chart can show. */
const spanFields = {
  start: z.coerce.number().int(),
  end: z.coerce.number().int(),
  maxPoints: z.coerce.number().int().min(10).max(10000).default(1000),
};
const startNotAfterEnd: [(q: { start: number; end: number }) => boolean, { error: string; path: string[] }] = [(q) => q.start <= q.end, { error: 'errors.rule.startAfterEnd', path: ['start'] }];

export const historyQuery = z.object({ deviceNo: r.deviceNo, ...spanFields }).refine(...startNotAfterEnd);
/** The carrier value's history (spec §3 sample modes): a carrier instead of a device. */
export const carrierHistoryQuery = z.object({ carrierId: z.coerce.number().int().positive(), ...spanFields }).refine(...startNotAfterEnd);

/*
 * Add and update bodies of the record modules. An update carries the record's id; an add of
 * a record that has no parent to take its customer from (root scene, gateway, contact) may
 * name the customer, which only a platform user can use (others always act for their own).
 */
const recordId = z.number({ error: 'errors.rule.required' }).int().positive({ error: 'errors.rule.required' });
const forCustomer = z.number().int().positive().optional();

export const sceneAddBody = sceneBody.safeExtend({ customerId: forCustomer });
export const sceneUpdateBody = sceneBody.safeExtend({ id: recordId });
export const carrierUpdateBody = carrierBody.safeExtend({ id: recordId });
export const gatewayAddBody = gatewayBody.safeExtend({ customerId: forCustomer });
export const gatewayUpdateBody = gatewayBody.safeExtend({ id: recordId });
export const sensorUpdateBody = sensorBody.safeExtend({ id: recordId });
export const contactAddBody = contactBody.safeExtend({ customerId: forCustomer });
export const contactUpdateBody = contactBody.safeExtend({ id: recordId });

/** The longest history span one call may ask for: beyond it the caller pages through time. */
export const HISTORY_MAX_SPAN_DAYS = 400;
const spanCapped: [(q: { start: number; end: number }) => boolean, { error: string; path: string[] }] = [
  (q) => q.end - q.start <= HISTORY_MAX_SPAN_DAYS * 86_400_000,
  { error: 'errors.rule.historySpan', path: ['end'] },
];
export const historyQueryCapped = historyQuery.refine(...spanCapped);
export const carrierHistoryQueryCapped = carrierHistoryQuery.refine(...spanCapped);
