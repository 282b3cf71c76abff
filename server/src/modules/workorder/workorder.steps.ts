import { sql } from 'kysely';
import { Code, WORK_ORDER_FLOW, WORK_ORDER_MAX_PICTURES, WORK_ORDER_STATUS, type WorkOrderAction, type WorkOrderSide } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import type { Scope } from '../../platform/auth/scope.js';
import { AppError, noPermission } from '../../platform/http/errors.js';
import { customerOnly, orderOf, setStatus, sideOf, type OrderFacts } from './workorder.repository.js';

/*
 * The steps of a work order (docs/workorders.md): who may take each, from which state, where it
 * leads (the contract's WORK_ORDER_FLOW, one table). A step is a new work_order_step row, never
 * a change of one; the order's row keeps the current state for the lists. The order is locked
 * (FOR UPDATE) while its step is checked and written, so two clicks on "accept" make one step
 * and one refusal, not two acceptances.
 */

type Step = Exclude<WorkOrderAction, 'raise'>;

/** Why a step is refused in the order's state: one message per mistake a user can make. */
function outOfOrder(action: Step, status: number): AppError {
  const S = WORK_ORDER_STATUS;
  const key = (() => {
    if (action === 'accept' || action === 'reject') return status === S.cancelled ? 'cancelled' : 'notPending';
    if (action === 'cancel') return 'cancelAfterAccept';
    if (action === 'record' || action === 'done') return status === S.pending ? 'notAccepted' : 'notOpen';
    if (action === 'confirm') return status < S.done ? 'confirmBeforeDone' : 'confirmed';
    return status === S.evaluated ? 'evaluated' : 'evaluateBeforeConfirm';
  })();
  return new AppError(Code.FAILED, `errors.workOrder.${key}`);
}

export const providerOnly = () => new AppError(Code.FAILED, 'errors.workOrder.providerOnly');
export const reasonRequired = () => new AppError(Code.FAILED, 'errors.workOrder.reasonRequired');

/** The caller's side on an order it must act on, or the refusal: a side it does not hold, or none. */
function actingSide(scope: Scope, order: OrderFacts, want: WorkOrderSide): WorkOrderSide {
  const side = sideOf(scope, order.customerId);
  if (side === want) return side;
  if (side === null) throw noPermission();
  throw want === 'customer' ? customerOnly() : providerOnly();
}

async function writeStep(q: Queryable, scope: Scope, order: { id: number; customerId: number; status: number }, s: { action: WorkOrderAction; side: WorkOrderSide; note: string; rating?: number; to: number }) {
  await scoped(q, scope)
    .insertInto('work_order_step')
    .values({
      customer_id: order.customerId,
      work_order_id: order.id,
      action: s.action,
      side: s.side,
      user_id: scope.userId,
      user_name: (scope.name || scope.account).slice(0, 50),
      note: s.note,
      rating: s.rating ?? null,
      status_before: s.action === 'raise' ? null : order.status,
      status_after: s.to,
    })
    .execute();
}

/** The first step of an order just raised (workorder.repository.ts raise). */
export const raiseStep = (q: Queryable, scope: Scope, order: { id: number; customerId: number }, note: string) =>
  writeStep(q, scope, { ...order, status: WORK_ORDER_STATUS.pending }, { action: 'raise', side: 'customer', note, to: WORK_ORDER_STATUS.pending });

export interface StepDone {
  order: OrderFacts;
  side: WorkOrderSide;
  status: number;
}

/** Takes one step on an order the caller sees: its side, its state, then the row and its step. */
export async function takeStep(q: Queryable, scope: Scope, action: Step, b: { id: number; note: string; rating?: number }): Promise<StepDone> {
  const order = await orderOf(q, scope, b.id, true);
  const flow = WORK_ORDER_FLOW[action];
  const side = actingSide(scope, order, flow.side);
  if (!(flow.from as readonly number[]).includes(order.status)) throw outOfOrder(action, order.status);
  if ((action === 'reject' || action === 'record') && !b.note) throw reasonRequired();
  const to = flow.to ?? order.status;
  await writeStep(q, scope, order, { action, side, note: b.note, rating: b.rating, to });
  await setStatus(q, scope, order.id, to, action === 'evaluate' ? b.rating : undefined);
  return { order, side, status: to };
}

/** Pictures are added while the order is open (not rejected, cancelled, confirmed or evaluated), by either side, up to the limit. */
export async function addPicture(q: Queryable, scope: Scope, id: number, img: { data: Buffer; mime: string }): Promise<{ id: number }> {
  const order = await orderOf(q, scope, id, true);
  const side = sideOf(scope, order.customerId);
  if (!side) throw noPermission();
  const open: number[] = [WORK_ORDER_STATUS.pending, WORK_ORDER_STATUS.accepted, WORK_ORDER_STATUS.done];
  if (!open.includes(order.status)) throw new AppError(Code.FAILED, 'errors.workOrder.closed');
  const k = scoped(q, scope);
  const { n } = await k.selectFrom('work_order_picture').select(sql<number>`count(*)::int`.as('n')).where('work_order_id', '=', id).executeTakeFirstOrThrow();
  if (n >= WORK_ORDER_MAX_PICTURES) throw new AppError(Code.FAILED, 'errors.workOrder.tooManyPictures', 200, undefined, { max: WORK_ORDER_MAX_PICTURES });
  const row = await k
    .insertInto('work_order_picture')
    .values({ customer_id: order.customerId, work_order_id: id, side, user_name: (scope.name || scope.account).slice(0, 50), mime: img.mime, size: img.data.length, data: img.data })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id };
}

/** A picture of an order the caller sees (its order checked through orderOf: scope and scene limit). */
export async function picture(q: Queryable, scope: Scope, pictureId: number) {
  const p = await scoped(q, scope).selectFrom('work_order_picture').select(['work_order_id', 'mime', 'data']).where('id', '=', pictureId).executeTakeFirst();
  if (!p) return undefined;
  await orderOf(q, scope, p.work_order_id);
  return { mime: p.mime, data: Buffer.from(p.data) };
}
