import { z } from 'zod';
import * as r from '../rules.js';
import { id } from './route.js';
import { busApi, busBodyFields, busRowFields } from './device.js';

/**
 * Smart bases (plinths; spec §2 /device/base, /BaseDetail in its own window; §3 device types):
 * a base on a gateway at a monitoring point, of one of the catalogue's base types.
 */
export const BASE_TYPES = ['915', '433', '2.4g', '4g', 'thermo', 'thermohygro'] as const;

export const baseBody = z.object({
  ...busBodyFields,
  type: z.enum(BASE_TYPES, { error: 'errors.base.type' }),
  description: r.text(250).default(''),
});
export type BaseBody = z.infer<typeof baseBody>;

export const baseRow = z.object({ ...busRowFields, description: z.string() });
export type BaseRow = z.infer<typeof baseRow>;

export const baseApi = busApi({ base: '/service/base', tag: 'base', one: 'smart base', many: 'Smart bases', body: baseBody, update: baseBody.safeExtend({ id }), row: baseRow, filters: { type: z.enum(BASE_TYPES).optional() } });
