import { z } from 'zod';
import * as r from '../rules.js';
import { deletedResult, id, idQuery, idResult, idsQuery, ms, pageOf, pageQuery, route } from './route.js';

/**
 * Smart bases (plinths; spec §2 /device/base, /BaseDetail in its own window; §3 device types):
 * a base on a gateway at a monitoring point, of one of the catalogue's base types.
 */
export const BASE_TYPES = ['915', '433', '2.4g', '4g', 'thermo', 'thermohygro'] as const;

export const baseBody = z.object({
  devNo: r.deviceNo,
  name: r.name(50),
  type: z.enum(BASE_TYPES, { error: 'errors.base.type' }),
  gatewayId: z.number().int().positive({ error: 'errors.rule.required' }),
  carrierId: z.number().int().positive().nullable().default(null),
  description: r.text(250).default(''),
  tz: r.timeZone.default('+08:00'),
});
export type BaseBody = z.infer<typeof baseBody>;

export const baseRow = z.object({
  id: z.number().int(),
  devNo: z.string(),
  name: z.string(),
  type: z.string(),
  gatewayId: z.number().int(),
  gatewaySn: z.string(),
  gatewayName: z.string(),
  carrierId: z.number().int().nullable(),
  carrierName: z.string().nullable(),
  description: z.string(),
  /** Computed: stopped (2) by a user, else online (1) or offline (0) as its gateway. */
  status: z.number().int(),
  tz: z.string(),
  customerId: z.number().int(),
  customerName: z.string(),
  createdAt: ms,
});
export type BaseRow = z.infer<typeof baseRow>;

const tag = 'base';
export const baseApi = {
  page: route({
    method: 'GET',
    path: '/service/base/page',
    tag,
    summary: "Smart bases of the caller's scope, paged",
    query: pageQuery({ devNo: z.string().trim().max(30).optional(), name: z.string().trim().max(50).optional(), type: z.enum(BASE_TYPES).optional(), status: z.coerce.number().int().min(0).max(2).optional(), carrierId: id.optional() }, ['devNo', 'name', 'createdAt']),
    result: pageOf(baseRow),
  }),
  detail: route({ method: 'GET', path: '/service/base/detail', tag, summary: 'One smart base', query: idQuery, result: baseRow }),
  add: route({ method: 'POST', path: '/service/base/add', tag, summary: 'Enrol a smart base on a gateway', body: baseBody, result: idResult }),
  update: route({ method: 'PUT', path: '/service/base/update', tag, summary: 'Change a smart base', body: baseBody.safeExtend({ id }), result: idResult }),
  setStatus: route({
    method: 'PUT',
    path: '/service/base/status',
    tag,
    summary: 'Stop smart bases or enable them again',
    body: z.object({ ids: z.array(id).min(1, { error: 'errors.selectAtLeastOne' }).max(500), stopped: z.boolean() }),
    result: z.object({ changed: z.number().int() }),
  }),
  del: route({ method: 'DELETE', path: '/service/base/del', tag, summary: 'Delete smart bases', query: idsQuery, result: deletedResult }),
};
