import { recordHhmm, recordMinute, type RecordDecision, type RecordPointValue, type RecordTimesRow, type SampleMode } from '@coldwatch/contract';
import { sql } from 'kysely';
import type { Queryable } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import { msOrNull, paged, type PageInput, type Paged } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';
import { notFound } from '../../platform/http/errors.js';

/*
 * The tables of collect records (migration 0040): a carrier's record times and the signed
 * decisions on its days. Every carrier is found in the caller's scope and scene limit first; the
 * rows of both tables are reached through it.
 */

export interface RecordCarrier {
  id: number;
  customerId: number;
  name: string;
  mode: SampleMode;
  tz: string;
  tempMin: number | null;
  tempMax: number | null;
  humMin: number | null;
  humMax: number | null;
  /** Minutes of the day, ascending; empty when the carrier has no record times. */
  minutes: number[];
}

/** The caller's carriers (one when `carrierId` is given, 404 when it is not the caller's), with their record times; only those with times unless `all`. */
export async function recordCarriers(q: Queryable, scope: Scope, carrierId?: number, all = false): Promise<RecordCarrier[]> {
  let query = scoped(q, scope)
    .selectFrom('carrier as c')
    .innerJoin('customer as cu', 'cu.id', 'c.customer_id')
    .leftJoin('record_point_time as t', 't.carrier_id', 'c.id')
    .select(['c.id', 'c.customer_id as customerId', 'c.name', 'c.sample_mode as mode', 'cu.time_zone as tz', 'c.temp_min as tempMin', 'c.temp_max as tempMax', 'c.hum_min as humMin', 'c.hum_max as humMax', 't.minutes'])
    .where((eb) => sceneLimit(eb, scope, 'carrier', 'c'))
    .orderBy('c.name')
    .orderBy('c.id');
  if (carrierId !== undefined) query = query.where('c.id', '=', carrierId);
  else if (!all) query = query.where('t.carrier_id', 'is not', null);
  const rows = await query.execute();
  if (carrierId !== undefined && !rows.length) throw notFound();
  return rows.map((r) => ({ ...r, mode: r.mode as SampleMode, minutes: (r.minutes ?? []).map(Number).sort((a, b) => a - b) }));
}

/** The record times of the caller's carriers, a page of them (carriers without times too, so that they can be given some). */
export async function timesPage(q: Queryable, scope: Scope, f: PageInput & { carrierId?: number }): Promise<Paged<RecordTimesRow>> {
  let query = scoped(q, scope)
    .selectFrom('carrier as c')
    .leftJoin('record_point_time as t', 't.carrier_id', 'c.id')
    .select(['c.id as carrierId', 'c.name as carrierName', 't.minutes', msOrNull('t.updated_at').as('updatedAt'), 't.updated_by as updatedBy'])
    .where((eb) => sceneLimit(eb, scope, 'carrier', 'c'));
  if (f.carrierId !== undefined) query = query.where('c.id', '=', f.carrierId);
  const page = await paged(query, f, { by: ['c.name', 'c.id'] });
  return { ...page, rows: page.rows.map((r) => ({ carrierId: r.carrierId, carrierName: r.carrierName, times: (r.minutes ?? []).map(Number).sort((a, b) => a - b).map(recordHhmm), updatedAt: r.updatedAt === null ? null : Number(r.updatedAt), updatedBy: r.updatedBy ?? null })) };
}

/** Sets a carrier's record times (validated by the contract). */
export async function setTimes(q: Queryable, scope: Scope, carrierId: number, times: string[]) {
  const [carrier] = await recordCarriers(q, scope, carrierId, true);
  const minutes = times.map(recordMinute);
  await scoped(q, scope)
    .insertInto('record_point_time')
    .values({ carrier_id: carrier.id, customer_id: carrier.customerId, minutes, updated_by: scope.account })
    .onConflict((oc) => oc.column('carrier_id').doUpdateSet({ minutes, updated_at: new Date(), updated_by: scope.account }))
    .execute();
  return { id: carrier.id };
}

export interface SignRow {
  carrierId: number;
  day: string;
  decision: RecordDecision;
  comment: string;
  points: RecordPointValue[];
  userName: string;
  userAccount: string;
  signedAt: number;
  signatureId: number | null;
}

/** The signed decisions on these carriers' days from `fromDay` to `toDay` (YYYY-MM-DD), oldest first. */
export async function signsOf(q: Queryable, scope: Scope, carrierIds: number[], fromDay: string, toDay: string): Promise<SignRow[]> {
  if (!carrierIds.length) return [];
  const rows = await scoped(q, scope)
    .selectFrom('record_point_sign as s')
    .select((eb) => [
      's.carrier_id as carrierId',
      eb.cast<string>('s.day', 'text').as('day'),
      's.decision',
      's.comment',
      's.points',
      's.user_name as userName',
      's.user_account as userAccount',
      msOrNull('s.signed_at').as('signedAt'),
      's.signature_id as signatureId',
    ])
    .where('s.carrier_id', 'in', carrierIds)
    // Compared as dates: a timestamp parameter would bring the session's time zone into it.
    .where(sql<boolean>`s.day BETWEEN ${fromDay}::date AND ${toDay}::date`)
    .orderBy('s.id')
    .execute();
  return rows.map((r) => ({ ...r, decision: r.decision as RecordDecision, points: r.points as unknown as RecordPointValue[], signedAt: Number(r.signedAt) }));
}
