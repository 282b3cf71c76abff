import { z } from 'zod';
import { id, ms, pageOf, pageQuery, route } from './route.js';

/**
 * Lending (secondment) of spec §2 /sys/deviceTransfer and §3: sensors lent to another customer
 * for a period; current loans, their history, revoke. While lent, a sensor is the borrower's
 * (its readings, exceptions and alarms are the borrower's, under the borrower's gateway); its
 * history before and after stays with the owner. A loan ends when it is revoked or at its end.
 * docs/devices.md "Lending".
 */

export const LOAN_STATES = ['current', 'history'] as const;
export type LoanState = (typeof LOAN_STATES)[number];

/** The longest loan: ten years. */
export const LOAN_MAX_MS = 10 * 366 * 86_400_000;

export const loanRow = z.object({
  id: z.number().int(),
  sensorId: z.number().int().nullable(),
  devNo: z.string(),
  deviceType: z.string(),
  customerId: z.number().int(),
  customerName: z.string(),
  borrowerId: z.number().int(),
  borrowerName: z.string(),
  startsAt: ms,
  endsAt: ms,
  endedAt: ms.nullable(),
  /** Why it ended: revoked by the owner, or its period ran out. */
  endReason: z.enum(['revoked', 'expired']).nullable(),
  note: z.string(),
  operator: z.string(),
  endedBy: z.string().nullable(),
});
export type LoanRow = z.infer<typeof loanRow>;

export const loanBody = z.object({
  sensorIds: z.array(id).min(1, { error: 'errors.loan.noDevice' }).max(500),
  borrowerId: id,
  /** The borrower's gateway the sensors report through while lent. */
  gatewayId: id,
  endsAt: z
    .number({ error: 'errors.loan.endsAt' })
    .int({ error: 'errors.loan.endsAt' })
    .refine((v) => v > Date.now(), { error: 'errors.loan.endsAtPast' })
    .refine((v) => v <= Date.now() + LOAN_MAX_MS, { error: 'errors.loan.endsAtFar' }),
  note: z.string().trim().max(200, { error: 'errors.loan.note' }).default(''),
});
export type LoanBody = z.infer<typeof loanBody>;

export const loanApi = {
  page: route({
    method: 'GET',
    path: '/service/deviceTransfer/page',
    tag: 'loan',
    summary: 'Loans the caller\'s customers made: current (not ended) or history (ended), newest first',
    query: pageQuery({ state: z.enum(LOAN_STATES).default('current'), devNo: z.string().trim().max(30).optional(), borrowerId: id.optional() }, ['startsAt', 'endsAt']),
    result: pageOf(loanRow),
  }),
  /** The owner's own view, on its sensor page (the transfer page is the platform's, spec §6 level 2). */
  lentOut: route({
    method: 'GET',
    path: '/service/sensor/lentOut',
    tag: 'loan',
    summary: 'The caller\'s sensors currently lent to other customers, with the borrower and the end',
    query: pageQuery({ devNo: z.string().trim().max(30).optional() }, ['startsAt', 'endsAt']),
    result: pageOf(loanRow),
  }),
  add: route({
    method: 'POST',
    path: '/service/deviceTransfer/add',
    tag: 'loan',
    summary: 'Lend sensors of one customer to another customer of the caller\'s scope until a time',
    body: loanBody,
    result: z.object({ lent: z.number().int() }),
  }),
  revoke: route({
    method: 'PUT',
    path: '/service/deviceTransfer/revoke',
    tag: 'loan',
    summary: 'End current loans now: the sensors go home to their owner\'s gateway and carrier',
    body: z.object({ ids: z.array(id).min(1, { error: 'errors.loan.noDevice' }).max(500) }),
    result: z.object({ revoked: z.number().int() }),
  }),
};
