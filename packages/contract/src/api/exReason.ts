import { z } from 'zod';
import { text } from '../rules.js';
import { deletedResult, id, idQuery, idResult, idsQuery, ms, pageOf, pageQuery, route } from './route.js';

/*
 * The exception reasons (spec §2 /abnormal/abnormalcause, menu module exReason; §3 "dictionary
 * catalogue ex_catalog, exception reason"): each customer's list of reasons a handling picks
 * from, seeded with a default list in both languages (migration 0035). The menu entry carries
 * the object Ex, so the catalogue is read with viewEx and managed with newEx, editEx, removeEx.
 */

/** A reason's code: letters, digits and underscore (spec §5 code, the variant with underscore), 1 to 20. */
export const exReasonCode = z
  .string({ error: 'errors.rule.required' })
  .trim()
  .min(1, { error: 'errors.rule.required' })
  .max(20, { error: 'errors.rule.maxLength20' })
  .regex(/^[A-Za-z0-9_]+$/, { error: 'errors.exReason.code' });

const reasonBody = z
  .object({
    code: exReasonCode,
    /** The name in Chinese and in English; one of them is enough (the other language shows it). */
    nameZh: text(50).default(''),
    nameEn: text(50).default(''),
    sort: z.number({ error: 'errors.rule.number' }).int({ error: 'errors.rule.integer' }).min(0, { error: 'errors.exReason.sort' }).max(9999, { error: 'errors.exReason.sort' }).default(0),
    enabled: z.boolean().default(true),
  });
const oneName: [(b: { nameZh: string; nameEn: string }) => boolean, { error: string; path: string[] }] = [
  (b) => b.nameZh.length > 0 || b.nameEn.length > 0,
  { error: 'errors.exReason.nameRequired', path: ['nameZh'] },
];

export const exReasonAddBody = reasonBody.extend({ customerId: z.number().int().positive().optional() }).refine(...oneName);
export const exReasonUpdateBody = reasonBody.extend({ id: z.number({ error: 'errors.rule.required' }).int().positive().max(2_147_483_647) }).refine(...oneName);
export type ExReasonAddBody = z.input<typeof exReasonAddBody>;
export type ExReasonUpdateBody = z.input<typeof exReasonUpdateBody>;

export const exReasonRow = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  customerName: z.string(),
  code: z.string(),
  nameZh: z.string(),
  nameEn: z.string(),
  sort: z.number().int(),
  enabled: z.boolean(),
  /** One of the seeded defaults. */
  builtin: z.boolean(),
  /** Exceptions and signed steps naming it: while any do, it cannot be deleted (disable it instead). */
  inUse: z.number().int(),
  createdAt: ms,
});
export type ExReasonRow = z.infer<typeof exReasonRow>;

/** A reason as a handling offers it. */
export const exReasonOption = exReasonRow.pick({ id: true, code: true, nameZh: true, nameEn: true });
export type ExReasonOption = z.infer<typeof exReasonOption>;

const tag = 'exReason';
export const exReasonApi = {
  page: route({
    method: 'GET',
    path: '/service/exReason/page',
    tag,
    summary: 'The exception reasons of the caller\'s customers, by customer and sort order',
    query: pageQuery({
      name: z.string().trim().max(50).optional(),
      enabled: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
      customerId: id.optional(),
    }),
    result: pageOf(exReasonRow),
  }),
  detail: route({ method: 'GET', path: '/service/exReason/detail', tag, summary: 'One exception reason', query: idQuery, result: exReasonRow }),
  options: route({
    method: 'GET',
    path: '/service/exReason/options',
    tag,
    summary: 'The enabled reasons of one customer (the caller\'s current one by default), in sort order: what a handling offers',
    query: z.object({ customerId: id.optional() }),
    result: z.array(exReasonOption),
  }),
  add: route({ method: 'POST', path: '/service/exReason/add', tag, summary: 'Add an exception reason', body: exReasonAddBody, result: idResult }),
  update: route({ method: 'PUT', path: '/service/exReason/update', tag, summary: 'Change an exception reason (its code, names, order, enabled)', body: exReasonUpdateBody, result: idResult }),
  del: route({ method: 'DELETE', path: '/service/exReason/del', tag, summary: 'Delete exception reasons no exception names (all or none)', query: idsQuery, result: deletedResult }),
};
