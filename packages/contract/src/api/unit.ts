import { z } from 'zod';
import * as r from '../rules.js';
import { deletedResult, id, idQuery, idResult, idsQuery, ms, pageOf, pageQuery, route } from './route.js';

/**
 * Units of measure (spec §3, /sys/unitMeasurement: a platform catalogue) and monitoring
 * (probe) ranges (§3, /arch/detection: per customer, one per unit, §5 min ≤ max, two decimals).
 */

export const UNIT_VALUE_TYPES = ['string', 'number', 'decimal', 'time'] as const;
export type UnitValueType = (typeof UNIT_VALUE_TYPES)[number];

export const unitBody = z.object({
  unit: r.name(30),
  mark: r.name(10),
  number: r.code(20),
  valueType: z.enum(UNIT_VALUE_TYPES, { error: 'errors.rule.unitType' }).default('decimal'),
  description: r.text(250).default(''),
});
export type UnitBody = z.infer<typeof unitBody>;

export const unitRow = z.object({
  id: z.number().int(),
  unit: z.string(),
  mark: z.string(),
  number: z.string(),
  valueType: z.enum(UNIT_VALUE_TYPES),
  description: z.string(),
  /** Customers' ranges in this unit: a unit in use cannot be deleted. */
  rangeCount: z.number().int(),
  createdAt: ms,
});
export type UnitRow = z.infer<typeof unitRow>;

/** A range bound: at most two decimals, within what numeric(7,2) holds. */
export const rangeBound = z
  .number({ error: 'errors.rule.number' })
  .min(-99999.99, { error: 'errors.rule.rangeBound' })
  .max(99999.99, { error: 'errors.rule.rangeBound' })
  .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, { error: 'errors.rule.twoDecimals' });

const rangeFields = z.object({ unitId: id, min: rangeBound, max: rangeBound });
const minNotAboveMax = (b: { min: number; max: number }) => b.min <= b.max;
const minAboveMax = { error: 'errors.rule.minAboveMax', path: ['min'] };
export const rangeAddBody = rangeFields.extend({ customerId: id.optional() }).refine(minNotAboveMax, minAboveMax);
export const rangeUpdateBody = rangeFields.extend({ id }).refine(minNotAboveMax, minAboveMax);
export type RangeBody = z.infer<typeof rangeFields>;

export const rangeRow = z.object({
  id: z.number().int(),
  unitId: z.number().int(),
  unit: z.string(),
  mark: z.string(),
  number: z.string(),
  min: z.number(),
  max: z.number(),
  customerId: z.number().int(),
  customerName: z.string(),
  createdAt: ms,
});
export type RangeRow = z.infer<typeof rangeRow>;

export const unitApi = {
  /** Spec §7 `share/unit`: every signed-in user reads the catalogue (pickers). */
  list: route({ method: 'GET', path: '/service/share/unit', tag: 'unit', summary: 'Every unit of measure', result: z.array(unitRow) }),
  page: route({
    method: 'GET',
    path: '/service/unit/page',
    tag: 'unit',
    summary: 'Units of measure, paged',
    query: pageQuery({ unit: z.string().trim().max(30).optional(), valueType: z.enum(UNIT_VALUE_TYPES).optional() }, ['unit', 'number', 'createdAt']),
    result: pageOf(unitRow),
  }),
  add: route({ method: 'POST', path: '/service/unit/add', tag: 'unit', summary: 'Create a unit of measure', body: unitBody, result: idResult }),
  update: route({ method: 'PUT', path: '/service/unit/update', tag: 'unit', summary: 'Change a unit of measure', body: unitBody.extend({ id }), result: idResult }),
  del: route({ method: 'DELETE', path: '/service/unit/del', tag: 'unit', summary: 'Delete units no range uses', query: idsQuery, result: deletedResult }),
};

export const rangeApi = {
  /** Spec §7 `share/probeRange (tag, key)`: the caller's ranges, one unit by its number (`key`) when given. */
  list: route({
    method: 'GET',
    path: '/service/share/probeRange',
    tag: 'range',
    summary: "The caller's monitoring ranges; `key` = a unit's number picks one unit",
    query: z.object({ key: z.string().trim().max(20).optional(), tag: z.string().trim().max(20).optional(), customerId: id.optional() }),
    result: z.array(rangeRow),
  }),
  page: route({
    method: 'GET',
    path: '/service/range/page',
    tag: 'range',
    summary: 'Monitoring ranges of the caller\'s customers, paged',
    query: pageQuery({ unitId: id.optional(), customerId: id.optional() }, ['unit', 'createdAt']),
    result: pageOf(rangeRow),
  }),
  detail: route({ method: 'GET', path: '/service/range/detail', tag: 'range', summary: 'One monitoring range', query: idQuery, result: rangeRow }),
  add: route({ method: 'POST', path: '/service/range/add', tag: 'range', summary: 'Create a monitoring range (one per unit)', body: rangeAddBody, result: idResult }),
  update: route({ method: 'PUT', path: '/service/range/update', tag: 'range', summary: 'Change a monitoring range', body: rangeUpdateBody, result: idResult }),
  del: route({ method: 'DELETE', path: '/service/range/del', tag: 'range', summary: 'Delete monitoring ranges', query: idsQuery, result: deletedResult }),
};
