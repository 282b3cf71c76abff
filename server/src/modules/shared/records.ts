import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { Code } from '@coldwatch/contract';
import type { DB } from '../../platform/db/schema.gen.js';
import type { Scope } from '../../platform/auth/scope.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import type { AnyExpressionBuilder } from '../../platform/db/query.js';
import { AppError, conflict, noPermission, notFound, uniqueViolation } from '../../platform/http/errors.js';

/*
 * Small pieces shared by the record modules (scene, carrier, gateway, sensor, contact, dm).
 * Kept here rather than in a base class: each module still reads top to bottom.
 */

/** The record tables the modules own; a closed list so a table name never comes from input. */
export type RecordTable = 'scene' | 'carrier' | 'gateway' | 'sensor' | 'contact' | 'probe_range' | 'alarm_trigger';

/**
 * A scene-limited caller may only make records inside its limit: a device it adds or updates
 * must be bound to a carrier (which rowInScope then checks is in the limit).
 */
export function requireBoundWhenLimited(scope: Scope, carrierId: number | null | undefined) {
  if (scope.sceneIds !== null && !carrierId) throw noPermission();
}

/** A referenced record (the scene of a carrier, the gateway of a sensor) must be the record's own customer's. */
export function sameCustomer(ref: { customer_id: number }, customerId: number, what: 'scene' | 'carrier' | 'gateway' | 'contact' | 'sensor' | 'alarmTrigger') {
  if (ref.customer_id !== customerId) throw new AppError(Code.FAILED, `errors.foreign.${what}`);
}

/** A record that cannot be deleted while something depends on it (spec §8 "items that cannot be deleted"). */
export const inUse = (what: 'scene' | 'gateway' | 'carrier' | 'unit' | 'borrowed') => new AppError(Code.FAILED, `errors.inUse.${what}`);

/**
 * Runs a write and maps a unique violation to its §8 answer; the database's constraint is the
 * final word, the pre-check only gives the common case a clean message before the transaction.
 */
export async function mapUnique<T>(fn: () => Promise<T>, answers: Record<string, AppError>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const constraint = uniqueViolation(err);
    if (constraint !== undefined) {
      const hit = Object.entries(answers).find(([name]) => constraint.includes(name));
      if (hit) throw hit[1];
      throw conflict(Code.FAILED, 'errors.failed');
    }
    throw err;
  }
}

/** Where a reading stands against its zone; null when there is no value or no zone. */
export function rangeState(v: number | null | undefined, min: number | null, max: number | null): 'normal' | 'high' | 'low' | null {
  if (v === null || v === undefined || min === null || max === null) return null;
  if (v > max) return 'high';
  if (v < min) return 'low';
  return 'normal';
}

/**
 * The scene-limit condition of a record table for alias `t`: `sceneLimit` of
 * platform/db/sceneLimit.ts, where the limit of every scene-bound table is written once
 * (contacts and probe ranges are the customer's and not limited). Kept for its callers.
 */
export const limitOf = (eb: AnyExpressionBuilder, scope: Scope, table: RecordTable, alias = 't'): Expression<SqlBool> => sceneLimit(eb, scope, table, alias);

/** One record of the caller's scope and limit, or 404 (a foreign id and a missing id look the same). */
export async function rowInScope<T extends RecordTable>(k: Kysely<DB>, scope: Scope, table: T, id: number) {
  const row = await k
    .selectFrom(`${table} as t` as 'scene as t')
    .select(['t.id', 't.customer_id'])
    .where('t.id', '=', id)
    .where((eb) => sceneLimit(eb, scope, table))
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** All ids must be in scope and limit, locked for the write, or the whole call is refused. */
export async function idsInScope(k: Kysely<DB>, scope: Scope, table: RecordTable, ids: number[]) {
  const rows = await k
    .selectFrom(`${table} as t` as 'scene as t')
    .select(['t.id', 't.customer_id'])
    .where('t.id', 'in', ids)
    .where((eb) => sceneLimit(eb, scope, table))
    .forUpdate()
    .execute();
  if (rows.length !== new Set(ids).size) throw notFound();
  return rows;
}

/** The scene and every scene below it (the caller's scope applies inside the recursion too). */
export async function subtreeIds(k: Kysely<DB>, sceneId: number): Promise<number[]> {
  const rows = await k
    .withRecursive('sub(id)', (w) =>
      w
        .selectFrom('scene')
        .select('scene.id')
        .where('scene.id', '=', sceneId)
        .unionAll(w.selectFrom('scene as s').innerJoin('sub', 'sub.id', 's.parent_id').select('s.id')),
    )
    .selectFrom('sub')
    .select('sub.id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Stops devices (status 2) or enables them again (status 0, offline until they report: the
 * ingest path marks them online). Only rows whose status changes are touched and returned, with
 * the key ingest knows them by (a gateway's sn, a sensor's number), for the directory and the
 * live stream.
 */
export async function setDeviceStatus(k: Kysely<DB>, scope: Scope, table: 'gateway' | 'sensor', ids: number[], stopped: boolean) {
  await idsInScope(k, scope, table, ids);
  const key = table === 'gateway' ? 'sn' : 'dev_no';
  const rows = await k
    .updateTable(`${table} as t` as 'gateway as t')
    .set({ status: stopped ? 2 : 0 })
    .where('t.id', 'in', ids)
    .where('t.status', stopped ? '<>' : '=', 2)
    .returning(['t.id', 't.customer_id', 't.status', sql<string>`t.${sql.ref(key)}`.as('key')])
    .execute();
  return rows.map((r) => ({ id: r.id, customerId: r.customer_id, status: r.status, key: r.key }));
}

/**
 * A device on a gateway (sensor, relay, display): its customer is its gateway's, and a carrier
 * it is bound to must be the same customer's (spec §5 "selected devices must belong to the same
 * customer"); a scene-limited caller binds what it makes. `customerId`: the device's own, on a
 * change. Answers the device's customer.
 */
export async function gatewayAndCarrier(k: Kysely<DB>, scope: Scope, b: { gatewayId: number; carrierId: number | null }, customerId?: number): Promise<number> {
  requireBoundWhenLimited(scope, b.carrierId);
  const gateway = await rowInScope(k, scope, 'gateway', b.gatewayId);
  if (customerId !== undefined) sameCustomer(gateway, customerId, 'gateway');
  const owner = customerId ?? gateway.customer_id;
  if (b.carrierId) sameCustomer(await rowInScope(k, scope, 'carrier', b.carrierId), owner, 'carrier');
  return owner;
}
