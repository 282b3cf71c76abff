import { ParensNode, sql, type Expression, type OperationNode, type SqlBool } from 'kysely';
import type { Scope } from '../auth/scope.js';
import type { DB } from './schema.gen.js';
import type { AnyExpressionBuilder } from './query.js';

/*
 * The scene limit ("associated architecture", spec §3; docs/permissions.md "Scene limit") as
 * one condition, written once: every module that reads or writes a scene-bound table puts
 * `sceneLimit(eb, scope, table, alias)` beside `scoped()` (never instead of it), and a test
 * (sceneLimit.test.ts) refuses a module that writes a scene predicate of its own or reads a
 * scene-bound table without it. The isolation walk (test/isolation.test.ts) walks every route
 * as a scene-limited user and fails on any answer or change outside the limit.
 */

/** How each scene-bound table is held to the limit; any other table is the customer's and not limited. */
export const SCENE_BOUND = {
  scene: 'its id is a scene of the limit',
  carrier: 'its scene_id is a scene of the limit',
  gateway: 'the carrier it is bound to (carrier_id) is in the limit; unbound: unlimited callers only',
  sensor: 'the carrier it is bound to (carrier_id) is in the limit; unbound: unlimited callers only',
  relay: 'as a gateway: by its carrier_id',
  display: 'as a gateway: by its carrier_id',
  base: 'as a gateway: by its carrier_id',
  exception_record: 'its carrier, or when it has none the carrier of its sensor, else of its gateway',
  notice_log: 'its exception is in the limit; a notice without exception: unlimited callers only',
  work_order: 'the carrier of its subject when raised (carrier_id) is in the limit; none: unlimited callers only',
  verify_task: 'its carrier (carrier_id) is in the limit',
} as const satisfies Partial<Record<keyof DB, string>>;

export type SceneBoundTable = keyof typeof SCENE_BOUND;

export const isSceneBound = (table: string): table is SceneBoundTable => table in SCENE_BOUND;

const BY_CARRIER = new Set<string>(['gateway', 'sensor', 'relay', 'display', 'base', 'work_order', 'verify_task']);

/**
 * The limit's condition for `table` under `alias` (TRUE for an unlimited caller and for a table
 * that is not scene-bound). The subqueries read through the statement's own builder, so
 * `scoped()` filters them to the caller's customers too.
 */
export function sceneLimit(eb: AnyExpressionBuilder, scope: Pick<Scope, 'sceneIds'>, table: keyof DB, alias = 't'): Expression<SqlBool> {
  const scenes = scope.sceneIds;
  if (scenes === null || !isSceneBound(table)) return sql<boolean>`TRUE`;
  if (!scenes.length) return sql<boolean>`FALSE`;
  const carriers = () => eb.selectFrom('carrier as lc').select('lc.id').where('lc.scene_id', 'in', scenes);
  if (table === 'scene') return eb(`${alias}.id`, 'in', scenes);
  if (table === 'carrier') return eb(`${alias}.scene_id`, 'in', scenes);
  if (BY_CARRIER.has(table)) return eb(`${alias}.carrier_id`, 'in', carriers());
  if (table === 'exception_record') {
    const carrierOf = eb.fn.coalesce(
      eb.ref(`${alias}.carrier_id`),
      eb.selectFrom('sensor as ls').select('ls.carrier_id').whereRef('ls.id', '=', `${alias}.sensor_id`).$asScalar(),
      eb.selectFrom('gateway as lg').select('lg.carrier_id').whereRef('lg.id', '=', `${alias}.gateway_id`).$asScalar(),
    );
    return eb(carrierOf, 'in', carriers());
  }
  // notice_log: through its exception.
  return eb(`${alias}.exception_id`, 'in', eb.selectFrom('exception_record as le').select('le.id').where((e) => sceneLimit(e, scope, 'exception_record', 'le')));
}

/**
 * What a scene-limited caller may grant. A user's scenes and its roles' scenes make the limit of
 * whoever holds them, and no scenes at all means no limit, so a limited caller could widen itself
 * or others by giving scenes outside its own limit, or by leaving the holder with none. The
 * message key of the refusal, or null when the grant is within the caller's limit (always for an
 * unlimited caller). `granted`: the scenes the change gives; `holds`: how many the holder has
 * once the change is made (zero would leave it unlimited).
 */
export function sceneGrantRefusal(scope: Pick<Scope, 'sceneIds'>, granted: readonly number[], holds = granted.length): string | null {
  if (scope.sceneIds === null) return null;
  if (holds === 0) return 'errors.foreign.sceneLimitRequired';
  const mine = new Set(scope.sceneIds);
  return granted.every((id) => mine.has(id)) ? null : 'errors.foreign.sceneOutsideLimit';
}

const sceneArray = (scenes: readonly number[]) => sql`cast(${[...scenes]} as int4[])`;

/**
 * The same condition as an operation node, for the scope's transformer (tenant.ts): the target of
 * every UPDATE and DELETE on a scene-bound table built through `scoped()` for a limited caller
 * gets it in its WHERE, so that a write on a record outside the limit changes nothing even where
 * a module forgot its check (the modules keep their checks, which answer 404). Undefined for a
 * table that is not scene-bound.
 */
export function sceneLimitNode(table: string, alias: string, scenes: readonly number[]): OperationNode | undefined {
  if (!isSceneBound(table)) return undefined;
  const ref = (column: string) => sql.ref(`${alias}.${column}`);
  const inLimitCarriers = sql`(select lc.id from carrier lc where lc.scene_id = any(${sceneArray(scenes)}))`;
  const exceptionIn = (a: string) =>
    sql`coalesce(${sql.ref(`${a}.carrier_id`)}, (select ls.carrier_id from sensor ls where ls.id = ${sql.ref(`${a}.sensor_id`)}), (select lg.carrier_id from gateway lg where lg.id = ${sql.ref(`${a}.gateway_id`)})) in ${inLimitCarriers}`;
  let cond;
  if (table === 'scene') cond = sql`${ref('id')} = any(${sceneArray(scenes)})`;
  else if (table === 'carrier') cond = sql`${ref('scene_id')} = any(${sceneArray(scenes)})`;
  else if (BY_CARRIER.has(table)) cond = sql`${ref('carrier_id')} in ${inLimitCarriers}`;
  else if (table === 'exception_record') cond = exceptionIn(alias);
  else cond = sql`${ref('exception_id')} in (select le.id from exception_record le where ${exceptionIn('le')})`;
  return ParensNode.create(cond.toOperationNode());
}
