import { sql, type Expression, type SqlBool } from 'kysely';
import {
  Code,
  USER_TYPE,
  WORK_ORDER_STATUS,
  type WorkOrderAddBody,
  type WorkOrderCategory,
  type WorkOrderCounts,
  type WorkOrderDetail,
  type WorkOrderRow,
  type WorkOrderSide,
  type WorkOrderSubject,
} from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import { contains, inTimeRange, msOf, paged, type PageInput, type Paged } from '../../platform/db/query.js';
import { canSee, isPlatform, type Scope } from '../../platform/auth/scope.js';
import { AppError, notFound } from '../../platform/http/errors.js';

/*
 * Work orders (docs/workorders.md): the rows the caller may see are its customers' (scoped), and
 * for a scene-limited caller those whose carrier is within its limit (sceneLimit on work_order).
 * Who may take which side of an order is sideOf; the steps themselves are workorder.steps.ts.
 */

/**
 * The side the caller takes on an order of `customerId`: the customer's own users raise, cancel,
 * confirm and evaluate; its service provider, the platform or a proxy governing the customer,
 * accepts, rejects, records and finishes. Null: it may look (or not even that) but not act.
 */
export function sideOf(scope: Scope, customerId: number): WorkOrderSide | null {
  if (isPlatform(scope)) return 'provider';
  if (scope.homeCustomerId === customerId) return 'customer';
  if (scope.userType === USER_TYPE.proxy && canSee(scope, customerId)) return 'provider';
  return null;
}

const orders = (q: Queryable, scope: Scope) =>
  scoped(q, scope)
    .selectFrom('work_order as w')
    .innerJoin('customer as cu', 'cu.id', 'w.customer_id')
    .leftJoin('carrier as c', 'c.id', 'w.carrier_id')
    .where((eb) => sceneLimit(eb, scope, 'work_order', 'w'));

const rowColumns = [
  'w.id',
  'w.customer_id as customerId',
  'cu.name as customerName',
  'w.subject_kind as subjectKind',
  'w.subject_name as subjectName',
  'c.name as carrierName',
  'w.category',
  'w.description',
  'w.status',
  'w.raised_by_name as raisedBy',
  'w.rating',
] as const;

type RawRow = Omit<WorkOrderRow, 'subjectKind' | 'category' | 'createdAt' | 'updatedAt'> & { subjectKind: string; category: string; createdAt: number; updatedAt: number };
const toRow = (r: RawRow): WorkOrderRow => ({
  ...r,
  subjectKind: r.subjectKind as WorkOrderSubject,
  category: r.category as WorkOrderCategory,
  createdAt: Number(r.createdAt),
  updatedAt: Number(r.updatedAt),
});

export interface WorkOrderFilter extends PageInput {
  status?: number;
  category?: WorkOrderCategory;
  subjectKind?: WorkOrderSubject;
  customerId?: number;
  keyword?: string;
  startTime?: number;
  endTime?: number;
}

export async function pageOrders(q: Queryable, scope: Scope, f: WorkOrderFilter): Promise<Paged<WorkOrderRow>> {
  const query = orders(q, scope)
    .select([...rowColumns, msOf('w.created_at').as('createdAt'), msOf('w.updated_at').as('updatedAt')])
    .where((eb) => {
      const and: Expression<SqlBool>[] = inTimeRange(eb, 'w.created_at', f);
      if (f.status !== undefined) and.push(eb('w.status', '=', f.status));
      if (f.category) and.push(eb('w.category', '=', f.category));
      if (f.subjectKind) and.push(eb('w.subject_kind', '=', f.subjectKind));
      if (f.customerId) and.push(eb('w.customer_id', '=', f.customerId));
      if (f.keyword) {
        const like = contains(f.keyword);
        and.push(eb.or([eb('w.subject_name', 'ilike', like), eb('w.description', 'ilike', like), eb('c.name', 'ilike', like), eb('cu.name', 'ilike', like)]));
      }
      return eb.and(and);
    });
  const page = await paged(query, f, { by: ['w.id desc'] });
  return { ...page, rows: page.rows.map((r) => toRow(r as RawRow)) };
}

/**
 * An order the caller may see, with the columns the steps need; 404 otherwise. `lock`: held FOR
 * UPDATE for the caller's transaction, so a second step on it waits and then sees the first's state.
 */
export async function orderOf(q: Queryable, scope: Scope, id: number, lock = false) {
  const found = orders(q, scope)
    .select([...rowColumns, 'w.raised_by as raisedById', 'w.sensor_id as sensorId', 'w.gateway_id as gatewayId', 'w.exception_id as exceptionId', 'w.carrier_id as carrierId'])
    .select([msOf('w.created_at').as('createdAt'), msOf('w.updated_at').as('updatedAt')])
    .where('w.id', '=', id);
  const row = await (lock ? found.forUpdate('w') : found).executeTakeFirst();
  if (!row) throw notFound();
  const { raisedById, ...rest } = row;
  return { ...toRow(rest as RawRow), raisedById, sensorId: rest.sensorId, gatewayId: rest.gatewayId, exceptionId: rest.exceptionId === null ? null : Number(rest.exceptionId), carrierId: rest.carrierId };
}
export type OrderFacts = Awaited<ReturnType<typeof orderOf>>;

export async function detail(q: Queryable, scope: Scope, id: number): Promise<WorkOrderDetail> {
  const { raisedById: _r, ...order } = await orderOf(q, scope, id);
  const k = scoped(q, scope);
  const steps = await k
    .selectFrom('work_order_step')
    .select(['action', 'side', 'user_name as userName', 'note', 'rating', 'status_after as statusAfter', msOf('at').as('at')])
    .where('work_order_id', '=', id)
    .orderBy('id')
    .execute();
  const pictures = await k
    .selectFrom('work_order_picture')
    .select(['id', 'side', 'user_name as userName', msOf('created_at').as('createdAt')])
    .where('work_order_id', '=', id)
    .orderBy('id')
    .execute();
  return {
    ...order,
    steps: steps.map((s) => ({ ...s, action: s.action as WorkOrderDetail['steps'][number]['action'], side: s.side as WorkOrderSide, at: Number(s.at) })),
    pictures: pictures.map((p) => ({ ...p, side: p.side as WorkOrderSide, createdAt: Number(p.createdAt) })),
    mySide: sideOf(scope, order.customerId),
  };
}

/** The order's state after a step (and its rating, with the evaluation). */
export async function setStatus(q: Queryable, scope: Scope, id: number, status: number, rating?: number) {
  await scoped(q, scope)
    .updateTable('work_order as w')
    .set({ status, updated_at: sql<Date>`now()`, ...(rating === undefined ? {} : { rating }) })
    .where('w.id', '=', id)
    .where((eb) => sceneLimit(eb, scope, 'work_order', 'w'))
    .execute();
}

/** What waits for each side: the provider's next move, or the customer's. */
const WAITING: Record<WorkOrderSide, number[]> = {
  provider: [WORK_ORDER_STATUS.pending, WORK_ORDER_STATUS.accepted],
  customer: [WORK_ORDER_STATUS.done, WORK_ORDER_STATUS.confirmed],
};

export async function counts(q: Queryable, scope: Scope): Promise<WorkOrderCounts> {
  const rows = await orders(q, scope).select(['w.status', sql<number>`count(*)::int`.as('n')]).groupBy('w.status').execute();
  const byStatus = Object.fromEntries(rows.map((r) => [String(r.status), r.n]));
  // A proxy is the provider of the customers it governs, the customer of its own agency: home counts what it provides.
  const side: WorkOrderSide = isPlatform(scope) || scope.userType === USER_TYPE.proxy ? 'provider' : 'customer';
  return { byStatus, waiting: WAITING[side].reduce((n, s) => n + (byStatus[String(s)] ?? 0), 0), side };
}

/** The subject of a new order, found within the caller's scope and scene limit. */
interface Subject {
  customerId: number;
  carrierId: number | null;
  name: string;
  column: 'sensor_id' | 'gateway_id' | 'carrier_id' | 'exception_id';
}

async function subjectOf(q: Queryable, scope: Scope, kind: WorkOrderSubject, id: number): Promise<Subject | undefined> {
  const k = scoped(q, scope);
  if (kind === 'sensor') {
    const r = await k.selectFrom('sensor as d').select(['d.customer_id as customerId', 'd.carrier_id as carrierId', 'd.dev_no as name']).where('d.id', '=', id).where((eb) => sceneLimit(eb, scope, 'sensor', 'd')).executeTakeFirst();
    return r && { ...r, column: 'sensor_id' };
  }
  if (kind === 'gateway') {
    const r = await k.selectFrom('gateway as d').select(['d.customer_id as customerId', 'd.carrier_id as carrierId', 'd.sn as name']).where('d.id', '=', id).where((eb) => sceneLimit(eb, scope, 'gateway', 'd')).executeTakeFirst();
    return r && { ...r, column: 'gateway_id' };
  }
  if (kind === 'carrier') {
    const r = await k.selectFrom('carrier as c').select(['c.customer_id as customerId', 'c.id as carrierId', 'c.name']).where('c.id', '=', id).where((eb) => sceneLimit(eb, scope, 'carrier', 'c')).executeTakeFirst();
    return r && { ...r, column: 'carrier_id' };
  }
  const r = await k
    .selectFrom('exception_record as e')
    .leftJoin('sensor as s', 's.id', 'e.sensor_id')
    .leftJoin('gateway as g', 'g.id', 'e.gateway_id')
    .leftJoin('carrier as c', (j) => j.on((eb) => eb('c.id', '=', eb.fn.coalesce('e.carrier_id', 's.carrier_id', 'g.carrier_id'))))
    .select(['e.customer_id as customerId', 'c.id as carrierId', 'c.name as carrierName', 's.dev_no as devNo', 'g.sn', 'e.category'])
    .where('e.id', '=', id)
    .where((eb) => sceneLimit(eb, scope, 'exception_record', 'e'))
    .executeTakeFirst();
  return r && { customerId: r.customerId, carrierId: r.carrierId, name: [r.carrierName ?? r.devNo ?? r.sn, r.category].filter(Boolean).join(' · '), column: 'exception_id' };
}

export const customerOnly = () => new AppError(Code.FAILED, 'errors.workOrder.customerOnly');

/** Raises an order on a subject of the caller's own customer; answers it with what the notice needs. */
export async function raise(q: Queryable, scope: Scope, b: WorkOrderAddBody): Promise<{ id: number; customerId: number }> {
  const subject = await subjectOf(q, scope, b.subjectKind, b.subjectId);
  if (!subject) throw notFound();
  if (sideOf(scope, subject.customerId) !== 'customer') throw customerOnly();
  const row = await scoped(q, scope)
    .insertInto('work_order')
    .values({
      customer_id: subject.customerId,
      subject_kind: b.subjectKind,
      [subject.column]: b.subjectId,
      carrier_id: subject.carrierId,
      subject_name: subject.name.slice(0, 120),
      category: b.category,
      description: b.description,
      raised_by: scope.userId,
      raised_by_name: (scope.name || scope.account).slice(0, 50),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, customerId: subject.customerId };
}
