import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { Code } from '@coldwatch/contract';
import type { DB } from '../../platform/db/schema.gen.js';
import { contains } from '../../platform/db/query.js';
import type { Queryable } from '../../platform/db/client.js';
import { carrierWhere, sceneWhere, scopeWhere, type Scope } from '../../platform/auth/scope.js';
import { AppError, conflict, noPermission, notFound, uniqueViolation } from '../../platform/http/errors.js';
import { pageResult } from '../../platform/http/paging.js';

/*
 * Small pieces shared by the record modules (scene, carrier, gateway, sensor, contact, dm).
 * Kept here rather than in a base class: each module still reads top to bottom.
 */

/** The record tables the modules own; a closed list so a table name never comes from input. */
export type RecordTable = 'scene' | 'carrier' | 'gateway' | 'sensor' | 'contact';

/** SQL for a timestamptz column as UTC milliseconds (bigint comes back as a number). */
export const msCol = (col: string, as: string) => `(extract(epoch from ${col}) * 1000)::bigint AS "${as}"`;

/**
 * The scene-limit condition of a record table (docs/permissions.md "Scene limit"): a scene by
 * its id, a carrier by its scene, a gateway or sensor by the carrier it is bound to; contacts
 * are the customer's and not limited.
 */
export function limitWhere(scope: Scope, table: RecordTable, params: unknown[]): string {
  if (table === 'scene') return sceneWhere(scope, 't.id', params);
  if (table === 'carrier') return sceneWhere(scope, 't.scene_id', params);
  if (table === 'gateway' || table === 'sensor') return carrierWhere(scope, 't.carrier_id', params);
  return 'TRUE';
}

/**
 * A scene-limited caller may only make records inside its limit: a device it adds or updates
 * must be bound to a carrier (which the caller's scopedRow then checks is in the limit).
 */
export function requireBoundWhenLimited(scope: Scope, carrierId: number | null | undefined) {
  if (scope.sceneIds !== null && !carrierId) throw noPermission();
}

/**
 * One record of the caller's scope, or 404: a record of another customer is answered as if it
 * did not exist (conventions), so a foreign id and a missing id look the same.
 */
export async function scopedRow<T = { id: number; customer_id: number }>(
  q: Queryable,
  scope: Scope,
  table: RecordTable,
  id: number,
  cols = 't.id, t.customer_id',
): Promise<T> {
  const params: unknown[] = [id];
  const rows = await q.query<T>(
    `SELECT ${cols} FROM ${table} t WHERE t.id = $1 AND ${scopeWhere(scope, 't.customer_id', params)} AND ${limitWhere(scope, table, params)}`,
    params,
  );
  if (!rows[0]) throw notFound();
  return rows[0];
}

/** All ids must be in scope, or the whole call is refused (a batch delete changes all or nothing). */
export async function scopedIds(q: Queryable, scope: Scope, table: RecordTable, ids: number[]): Promise<{ id: number; customer_id: number }[]> {
  const params: unknown[] = [ids];
  const rows = await q.query<{ id: number; customer_id: number }>(
    `SELECT id, customer_id FROM ${table} t WHERE t.id = ANY($1::int[]) AND ${scopeWhere(scope, 't.customer_id', params)} AND ${limitWhere(scope, table, params)} FOR UPDATE`,
    params,
  );
  if (rows.length !== new Set(ids).size) throw notFound();
  return rows;
}

/** A referenced record (the scene of a carrier, the gateway of a sensor) must be the record's own customer's. */
export function sameCustomer(ref: { customer_id: number }, customerId: number, what: 'scene' | 'carrier' | 'gateway' | 'contact') {
  if (ref.customer_id !== customerId) throw new AppError(Code.FAILED, `errors.foreign.${what}`);
}

/** A record that cannot be deleted while something depends on it (spec §8 "items that cannot be deleted"). */
export const inUse = (what: 'scene' | 'gateway' | 'carrier') => new AppError(Code.FAILED, `errors.inUse.${what}`);

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

/** A paged select: count and rows of the same FROM/WHERE, in the `{total, rows, iDisplayStart, iDisplayLength}` shape. */
export async function pageQuery<T>(
  q: Queryable,
  sql: { select: string; from: string; where: string[]; orderBy: string },
  params: unknown[],
  page: { iDisplayStart: number; iDisplayLength: number },
) {
  const where = sql.where.length ? `WHERE ${sql.where.join(' AND ')}` : '';
  const [{ n }] = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql.from} ${where}`, params);
  const rows = await q.query<T>(
    `SELECT ${sql.select} FROM ${sql.from} ${where} ORDER BY ${sql.orderBy} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, page.iDisplayLength, page.iDisplayStart],
  );
  return pageResult(rows, n, page);
}

/** The scene and every scene below it, as a subquery for `scene_id IN (...)`; $n is the scene id. */
export const sceneSubtree = (param: string) =>
  `(WITH RECURSIVE sub AS (SELECT id FROM scene WHERE id = ${param}
                            UNION ALL SELECT s.id FROM scene s JOIN sub ON s.parent_id = sub.id)
     SELECT id FROM sub)`;

/** An ILIKE pattern matching s anywhere, with LIKE's wildcards in s taken literally. */
export const likeParam = contains;

/** Where a reading stands against its zone; null when there is no value or no zone. */
export function rangeState(v: number | null | undefined, min: number | null, max: number | null): 'normal' | 'high' | 'low' | null {
  if (v === null || v === undefined || min === null || max === null) return null;
  if (v > max) return 'high';
  if (v < min) return 'low';
  return 'normal';
}

// ---- the same, on the typed builder (platform/db/scoped.ts); the SQL-text helpers above go once every module uses these ----

/** A record table's scene-limit condition on the typed builder, for alias `t` (see limitWhere). */
export function limitOf(eb: ExpressionBuilder<any, any>, scope: Scope, table: RecordTable, alias = 't'): Expression<SqlBool> {
  if (scope.sceneIds === null) return sql<boolean>`TRUE`;
  if (table === 'scene') return eb(`${alias}.id`, 'in', scope.sceneIds);
  if (table === 'carrier') return eb(`${alias}.scene_id`, 'in', scope.sceneIds);
  if (table === 'gateway' || table === 'sensor') {
    return eb(`${alias}.carrier_id`, 'in', eb.selectFrom('carrier as lc').select('lc.id').where('lc.scene_id', 'in', scope.sceneIds));
  }
  return sql<boolean>`TRUE`;
}

/** One record of the caller's scope and limit, or 404 (a foreign id and a missing id look the same). */
export async function rowInScope<T extends RecordTable>(k: Kysely<DB>, scope: Scope, table: T, id: number) {
  const row = await k
    .selectFrom(`${table} as t` as 'scene as t')
    .select(['t.id', 't.customer_id'])
    .where('t.id', '=', id)
    .where((eb) => limitOf(eb, scope, table))
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
    .where((eb) => limitOf(eb, scope, table))
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
