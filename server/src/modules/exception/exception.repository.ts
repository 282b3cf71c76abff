import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { EXCEPTION_STATUS, type HandlingAction, type Judgement, type SignMeaning } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { contains, msOf, msOrNull, paged, type PageInput } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import { signatureImages } from './signing.js';

type From = DB & { e: DB['exception_record'] };

/**
 * Scene limit of an exception (docs/permissions.md "Scene limit"): judged by its carrier, or
 * when it has none by the carrier its sensor or gateway is bound to. TRUE when unlimited.
 */
export function exceptionLimitOf(eb: ExpressionBuilder<From, 'e'>, scope: Scope, alias = 'e'): Expression<SqlBool> {
  return sceneLimit(eb, scope, 'exception_record', alias);
}

/** An exception as the API answers it; durationS of an ongoing one runs up to now. */
export function exceptionSelect(k: Kysely<DB>) {
  return k
    .selectFrom('exception_record as e')
    .innerJoin('customer as cu', 'cu.id', 'e.customer_id')
    .leftJoin('carrier as c', 'c.id', 'e.carrier_id')
    .leftJoin('sensor as s', 's.id', 'e.sensor_id')
    .leftJoin('gateway as g', 'g.id', 'e.gateway_id')
    .select([
      'e.id',
      'e.customer_id as customerId',
      'cu.name as customerName',
      'e.carrier_id as carrierId',
      'c.name as carrierName',
      'e.sensor_id as sensorId',
      's.dev_no as devNo',
      'e.gateway_id as gatewayId',
      'g.sn as gatewaySn',
      'g.name as gatewayName',
      'e.type',
      'e.category',
      'e.status',
      'e.ongoing',
      'e.during_pause as duringPause',
      msOf('e.start_ts').as('startTs'),
      msOrNull('e.end_ts').as('endTs'),
      sql<number | null>`COALESCE(e.duration_s, CASE WHEN e.ongoing THEN GREATEST(0, extract(epoch from now() - e.start_ts))::int END)`.as('durationS'),
      'e.first_value as firstValue',
      'e.peak_value as peakValue',
      'e.limit_min as limitMin',
      'e.limit_max as limitMax',
      'e.reason',
      'e.measures',
      'e.reason_id as reasonId',
      sql<Judgement | null>`e.judgement`.as('judgement'),
      'e.excluded',
      'e.excluded_why as excludedWhy',
      msOf('e.created_at').as('createdAt'),
    ]);
}

export interface ExceptionFilter {
  status?: number;
  type?: string;
  category?: string;
  carrierId?: number;
  /** Exceptions of these carriers only (the data report's); never empty. */
  carrierIds?: number[];
  devNo?: string;
  ongoing?: boolean;
  startTime?: number;
  endTime?: number;
}

function filter(scope: Scope, f: ExceptionFilter) {
  return (eb: ExpressionBuilder<From & { s: DB['sensor'] }, 'e' | 's'>) => {
    const and: Expression<SqlBool>[] = [exceptionLimitOf(eb as unknown as ExpressionBuilder<From, 'e'>, scope)];
    if (f.status !== undefined) and.push(eb('e.status', '=', f.status));
    if (f.type) and.push(eb('e.type', '=', f.type));
    if (f.category) and.push(eb('e.category', '=', f.category));
    if (f.carrierId) and.push(eb('e.carrier_id', '=', f.carrierId));
    if (f.carrierIds) and.push(eb('e.carrier_id', 'in', f.carrierIds));
    if (f.devNo) and.push(eb('s.dev_no', 'ilike', contains(f.devNo)));
    if (f.ongoing !== undefined) and.push(eb('e.ongoing', '=', f.ongoing));
    // A time range selects the exceptions going on at some point inside it; end_ts is the
    // first reading back in range, so an exception ending at startTime is not included.
    if (f.endTime !== undefined) and.push(eb('e.start_ts', '<=', new Date(f.endTime)));
    if (f.startTime !== undefined) {
      and.push(eb.or([eb('e.ongoing', '=', true), eb('e.end_ts', 'is', null), eb('e.end_ts', '>', new Date(f.startTime))]));
    }
    return eb.and(and);
  };
}

/** Newest first. */
export function page(q: Queryable, scope: Scope, f: ExceptionFilter & PageInput) {
  const k = scoped(q, scope);
  // The sensor join stays in the base for the device number filter (unused, the planner drops it).
  const base = k.selectFrom('exception_record as e').leftJoin('sensor as s', 's.id', 'e.sensor_id').where(filter(scope, f));
  return paged(exceptionSelect(k).where(filter(scope, f)), f, { by: ['e.start_ts desc', 'e.id desc'], windowedCountOn: k, base: { from: base, key: 'e.id' } });
}

/** The home page's latest exceptions (spec §2/§9: five). */
export function latest(q: Queryable, scope: Scope, limit: number, status?: number) {
  return exceptionSelect(scoped(q, scope)).where(filter(scope, { status })).orderBy('e.start_ts', 'desc').orderBy('e.id', 'desc').limit(limit).execute();
}

/** Counts for the home page's exception widget and the data report. */
export async function stats(q: Queryable, scope: Scope, f: Pick<ExceptionFilter, 'startTime' | 'endTime' | 'carrierIds'>) {
  const rows = await scoped(q, scope)
    .selectFrom('exception_record as e')
    .leftJoin('sensor as s', 's.id', 'e.sensor_id')
    .select(['e.status', 'e.category', 'e.ongoing', sql<number>`count(*)::int`.as('n')])
    .where(filter(scope, f))
    .groupBy(['e.status', 'e.category', 'e.ongoing'])
    .execute();
  const byCategory: Record<string, number> = {};
  const out = { total: 0, pending: 0, processed: 0, closed: 0, ongoing: 0, byCategory };
  for (const r of rows) {
    out.total += r.n;
    if (r.status === EXCEPTION_STATUS.pending) out.pending += r.n;
    else if (r.status === EXCEPTION_STATUS.processed) out.processed += r.n;
    else if (r.status === EXCEPTION_STATUS.closed) out.closed += r.n;
    if (r.ongoing) out.ongoing += r.n;
    byCategory[r.category] = (byCategory[r.category] ?? 0) + r.n;
  }
  return out;
}

/** One exception with the notices it caused, its signed steps and their signature images, and its customer's time zone. */
export async function detail(q: Queryable, scope: Scope, id: number) {
  const k = scoped(q, scope);
  const row = await exceptionSelect(k).select('cu.time_zone as timeZone').where('e.id', '=', id).where(filter(scope, {})).executeTakeFirst();
  if (!row) return undefined;
  const notices = await k
    .selectFrom('notice_log as n')
    .select(['n.id', 'n.type', 'n.channel', 'n.recipient', 'n.status', 'n.attempts', 'n.result', msOrNull('n.send_time').as('sendTime'), msOf('n.created_at').as('createdAt')])
    .where('n.exception_id', '=', id)
    .orderBy('n.id')
    .execute();
  const steps = await stepsOf(k, id);
  return { ...row, notices, steps, signatures: await signatureImages(q, scope, steps.map((s) => s.signatureId)) };
}

/** The signed steps of an exception, oldest first (`k` is already scoped to the caller or to a link's customer). */
export function stepsOf(k: Kysely<DB>, exceptionId: number) {
  return k
    .selectFrom('exception_handling as h')
    .select([
      'h.id',
      sql<HandlingAction>`h.action`.as('action'),
      'h.user_id as userId',
      'h.user_account as userAccount',
      'h.user_name as userName',
      msOf('h.signed_at').as('signedAt'),
      sql<SignMeaning>`h.meaning`.as('meaning'),
      'h.reason_id as reasonId',
      'h.reason',
      'h.measures',
      'h.comment',
      sql<Judgement | null>`h.judgement`.as('judgement'),
      'h.excluded',
      'h.excluded_why as excludedWhy',
      'h.status_before as statusBefore',
      'h.status_after as statusAfter',
      'h.signature_id as signatureId',
    ])
    .where('h.exception_id', '=', exceptionId)
    .orderBy('h.id')
    .execute();
}
