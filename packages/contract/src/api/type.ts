import { z } from 'zod';
import * as r from '../rules.js';
import { CARRIER_TYPES, READING_FIELDS } from '../enums.js';
import { DEVICE_KINDS } from '../deviceTypes.js';
import { ms, route } from './route.js';

/**
 * The device-type and carrier-type catalogues (spec §3, §7 `share/getDeviceType`,
 * `share/getDeviceType/{type}`, `share/getCarrierType`; managed on /sys/deviceType and
 * /sys/carrierType). A switched-off type is not offered for new devices or carriers, and the
 * server refuses it there; what exists keeps its type.
 */
export const deviceTypeRow = z.object({
  kind: z.enum(DEVICE_KINDS),
  code: z.string(),
  readings: z.array(z.enum(READING_FIELDS)),
  enabled: z.boolean(),
  remark: z.string(),
  /** Devices of this type now (every customer's for a platform user, the caller's own otherwise). */
  inUse: z.number().int(),
  updatedAt: ms.nullable(),
});
export type DeviceTypeRow = z.infer<typeof deviceTypeRow>;

const carrierTypeNumber = z.number().int().refine((t) => CARRIER_TYPES.some((c) => c.type === t), { error: 'errors.rule.carrierType' });

export const carrierTypeRow = z.object({
  type: z.number().int(),
  key: z.string(),
  enabled: z.boolean(),
  remark: z.string(),
  inUse: z.number().int(),
  updatedAt: ms.nullable(),
});
export type CarrierTypeRow = z.infer<typeof carrierTypeRow>;

export const deviceTypeBody = z.object({
  kind: z.enum(DEVICE_KINDS, { error: 'errors.rule.deviceKind' }),
  code: z.string().trim().min(1, { error: 'errors.rule.required' }).max(20),
  enabled: z.boolean(),
  remark: r.text(250).default(''),
});
export type DeviceTypeBody = z.infer<typeof deviceTypeBody>;

export const carrierTypeBody = z.object({ type: carrierTypeNumber, enabled: z.boolean(), remark: r.text(250).default('') });
export type CarrierTypeBody = z.infer<typeof carrierTypeBody>;

const typeChanged = z.object({ kind: z.string(), code: z.string() });

export const typeApi = {
  devices: route({ method: 'GET', path: '/service/share/getDeviceType', tag: 'type', summary: 'The device-type catalogue, every kind', result: z.array(deviceTypeRow) }),
  devicesOf: route({
    method: 'GET',
    path: '/service/share/getDeviceType/:type',
    tag: 'type',
    summary: 'The types of one device kind (sensor, gas, magnet, gateway, display, relay, base)',
    params: z.object({ type: z.enum(DEVICE_KINDS, { error: 'errors.rule.deviceKind' }) }),
    result: z.array(deviceTypeRow),
  }),
  carriers: route({ method: 'GET', path: '/service/share/getCarrierType', tag: 'type', summary: 'The carrier types (1 incubator … 7 other)', result: z.array(carrierTypeRow) }),
  updateDevice: route({ method: 'PUT', path: '/service/deviceType/update', tag: 'type', summary: 'Offer a device type for new devices or not, with a note', body: deviceTypeBody, result: typeChanged }),
  updateCarrier: route({ method: 'PUT', path: '/service/carrierType/update', tag: 'type', summary: 'Offer a carrier type for new carriers or not, with a note', body: carrierTypeBody, result: typeChanged }),
};
