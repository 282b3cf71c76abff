import { z } from 'zod';
import { WORK_ORDER_ACTIONS, WORK_ORDER_CATEGORIES, WORK_ORDER_SUBJECTS } from '../enums.js';
import { id, idQuery, idResult, ms, pageOf, pageQuery, route, startNotAfterEnd, timeRange } from './route.js';

/**
 * Work orders (spec §1 "work orders", §2 /order/workOrder, menu `workOrder`, function object
 * WorkOrder; docs/workorders.md): a customer asks its service provider (the platform, or the
 * proxy governing the customer) for help with a device, a carrier or an exception. The provider
 * accepts it or rejects it with a reason, records the work and marks it done; the customer
 * confirms and evaluates it, or cancels it before it is accepted. Every step is a row of its own.
 */

/** Spec §5 Uploads: pictures JPG or PNG; a phone's photo fits the 20 MB the spec also names. At most this many per order. */
export const WORK_ORDER_PICTURE_MAX_BYTES = 20 * 1024 * 1024;
export const WORK_ORDER_MAX_PICTURES = 9;

const text = (max: number, key: string) => z.string({ error: key }).trim().max(max, { error: key });

export const workOrderAddBody = z.object({
  subjectKind: z.enum(WORK_ORDER_SUBJECTS, { error: 'errors.workOrder.subject' }),
  subjectId: id,
  category: z.enum(WORK_ORDER_CATEGORIES, { error: 'errors.workOrder.category' }),
  description: text(500, 'errors.workOrder.description').min(1, { error: 'errors.workOrder.description' }),
});
export type WorkOrderAddBody = z.infer<typeof workOrderAddBody>;

/** A step's body: the order, and what the step says (a rejection's reason, the work recorded, a comment). */
export const workOrderStepBody = z.object({ id, note: text(500, 'errors.workOrder.note').default('') });
/** The evaluation: a whole rating from 1 to 5 and a comment. */
export const workOrderEvaluateBody = workOrderStepBody.extend({
  rating: z.number({ error: 'errors.workOrder.rating' }).int({ error: 'errors.workOrder.rating' }).min(1, { error: 'errors.workOrder.rating' }).max(5, { error: 'errors.workOrder.rating' }),
});

export const workOrderRow = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  customerName: z.string(),
  subjectKind: z.enum(WORK_ORDER_SUBJECTS),
  subjectName: z.string(),
  carrierName: z.string().nullable(),
  category: z.enum(WORK_ORDER_CATEGORIES),
  description: z.string(),
  status: z.number().int(),
  raisedBy: z.string(),
  rating: z.number().int().nullable(),
  createdAt: ms,
  updatedAt: ms,
});
export type WorkOrderRow = z.infer<typeof workOrderRow>;

export const workOrderStep = z.object({
  action: z.enum([...WORK_ORDER_ACTIONS, 'raise']),
  side: z.enum(['customer', 'provider']),
  userName: z.string(),
  note: z.string(),
  rating: z.number().int().nullable(),
  statusAfter: z.number().int(),
  at: ms,
});
export type WorkOrderStepRow = z.infer<typeof workOrderStep>;

export const workOrderDetail = workOrderRow.extend({
  sensorId: z.number().int().nullable(),
  gatewayId: z.number().int().nullable(),
  exceptionId: z.number().int().nullable(),
  carrierId: z.number().int().nullable(),
  steps: z.array(workOrderStep),
  pictures: z.array(z.object({ id: z.number().int(), side: z.enum(['customer', 'provider']), userName: z.string(), createdAt: ms })),
  /** The side the caller takes on this order (null: it may only look). */
  mySide: z.enum(['customer', 'provider']).nullable(),
});
export type WorkOrderDetail = z.infer<typeof workOrderDetail>;

/** Counts by state for the home page: each state's orders the caller sees, and those waiting for the caller's side. */
export const workOrderCounts = z.object({
  byStatus: z.record(z.string(), z.number().int()),
  /** Pending or accepted for a provider; done (to confirm) or confirmed (to evaluate) for a customer. */
  waiting: z.number().int(),
  side: z.enum(['customer', 'provider']),
});
export type WorkOrderCounts = z.infer<typeof workOrderCounts>;

const tag = 'workOrder';
const step = (action: (typeof WORK_ORDER_ACTIONS)[number], summary: string) =>
  route({ method: 'PUT', path: `/service/workOrder/${action}`, tag, summary, body: workOrderStepBody, result: idResult });

export const workOrderApi = {
  page: route({
    method: 'GET',
    path: '/service/workOrder/page',
    tag,
    summary: "The work orders the caller sees: a customer's own, a provider's governed customers'",
    query: pageQuery({
      status: z.coerce.number().int().min(0).max(6).optional(),
      category: z.enum(WORK_ORDER_CATEGORIES).optional(),
      subjectKind: z.enum(WORK_ORDER_SUBJECTS).optional(),
      customerId: id.optional(),
      keyword: z.string().max(50).optional(),
      ...timeRange,
    }).refine(...startNotAfterEnd),
    result: pageOf(workOrderRow),
  }),
  detail: route({ method: 'GET', path: '/service/workOrder/detail', tag, summary: 'A work order with its steps and pictures', query: idQuery, result: workOrderDetail }),
  counts: route({ method: 'GET', path: '/service/workOrder/counts', tag, summary: 'Work orders by state, and those waiting for the caller (home page)', result: workOrderCounts }),
  add: route({ method: 'POST', path: '/service/workOrder/add', tag, summary: 'Raise a work order on a sensor, gateway, carrier or exception', body: workOrderAddBody, result: idResult }),
  picture: route({
    method: 'POST',
    path: '/service/workOrder/picture',
    tag,
    summary: 'Add a picture to an open work order (multipart; JPG or PNG under 20 MB)',
    query: idQuery,
    result: idResult,
  }),
  image: route({ method: 'GET', path: '/service/workOrder/image', tag, summary: "A work order's picture", query: idQuery, result: z.unknown(), raw: 'file' }),
  accept: step('accept', 'The provider accepts a pending work order'),
  reject: step('reject', 'The provider rejects a pending work order, with its reason'),
  record: step('record', 'The provider records work done on an accepted work order'),
  done: step('done', 'The provider marks an accepted work order done'),
  confirm: step('confirm', 'The customer confirms a work order marked done'),
  evaluate: route({ method: 'PUT', path: '/service/workOrder/evaluate', tag, summary: 'The customer rates (1-5) and comments a confirmed work order', body: workOrderEvaluateBody, result: idResult }),
  cancel: step('cancel', 'The customer cancels its work order before it is accepted'),
};
