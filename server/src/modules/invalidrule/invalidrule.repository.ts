import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { Code, type InvalidRuleAddBody, type InvalidRuleKind, type InvalidRuleRow, type InvalidRuleUpdateBody } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import { contains, msOf, msOrNull, paged, type PageInput } from '../../platform/db/query.js';
import { isSceneLimited, targetCustomer, type Scope } from '../../platform/auth/scope.js';
import { conflict, notFound, paramError } from '../../platform/http/errors.js';
import { mapUnique } from '../shared/records.js';

/*
 * Invalid rules (migration 0037; docs/alarms.md "Invalid rules"). The rule row is what the page
 * lists and edits; what the rule excluded when is in invalid_rule_version, which
 * alarm/excluded.ts reads. Every change that alters what a rule excludes closes the version in
 * force now and, if the rule stays enabled, opens a new one now: a rule never rewrites the past,
 * and the system log (mutate) records each change with its parameters. A deleted rule leaves the
 * list but keeps its versions, so history still shows what it excluded.
 *
 * Carriers are scene-bound: a scene-limited caller binds and sees only rules whose carriers all
 * lie within its limit (a rule reaching beyond it is someone else's to manage).
 */

/** The carriers of these ids the caller may bind (its customers', within its scene limit). */
async function visibleCarriers(k: Kysely<DB>, scope: Scope, ids: readonly number[]) {
  if (!ids.length) return [];
  return k
    .selectFrom('carrier as c')
    .select(['c.id', 'c.name', 'c.customer_id'])
    .where('c.id', 'in', [...ids])
    .where((eb) => sceneLimit(eb, scope, 'carrier', 'c'))
    .execute();
}

/** For a scene-limited caller: the ids of every carrier within its limit (a rule is its own when its carriers all are). */
async function limitCarrierIds(k: Kysely<DB>, scope: Scope): Promise<number[] | null> {
  if (!isSceneLimited(scope)) return null;
  const rows = await k.selectFrom('carrier as c').select('c.id').where((eb) => sceneLimit(eb, scope, 'carrier', 'c')).execute();
  return rows.map((r) => r.id);
}

const withinLimit = (limit: number[] | null) => (limit === null ? sql<boolean>`TRUE` : sql<boolean>`r.carrier_ids <@ ${limit}::int[]`);

function ruleSelect(k: Kysely<DB>) {
  return k
    .selectFrom('invalid_rule as r')
    .innerJoin('customer as cu', 'cu.id', 'r.customer_id')
    .leftJoin('ex_catalog as rc', 'rc.id', 'r.reason_id')
    .where('r.deleted_at', 'is', null)
    .select((eb) => [
      'r.id',
      'r.customer_id as customerId',
      'cu.name as customerName',
      'cu.time_zone as timeZone',
      'r.name',
      'r.kind',
      'r.weekdays',
      'r.windows',
      msOrNull('r.start_ts').as('start'),
      msOrNull('r.end_ts').as('end'),
      'r.carrier_ids as carrierIds',
      'r.reason_id as reasonId',
      'rc.name_zh as reasonZh',
      'rc.name_en as reasonEn',
      'r.remark',
      'r.enabled',
      msOf('r.created_at').as('createdAt'),
      'r.created_by as createdBy',
      msOf('r.updated_at').as('updatedAt'),
      'r.updated_by as updatedBy',
      eb
        .selectFrom('invalid_rule_version as v')
        .select(msOf('v.valid_from').as('since'))
        .whereRef('v.rule_id', '=', 'r.id')
        .where('v.valid_to', 'is', null)
        .limit(1)
        .$asScalar()
        .as('inForceSince'),
    ]);
}

/** The jsonb windows column as [from, to] pairs (the driver gives jsonb parsed, PGlite too; text just in case). */
const pairs = (w: unknown): [number, number][] => (typeof w === 'string' ? JSON.parse(w) : w) as [number, number][];

type Selected = Awaited<ReturnType<ReturnType<typeof ruleSelect>['execute']>>[number];

/** The rows with their carriers' names (read within the caller's limit). */
async function withCarriers(k: Kysely<DB>, scope: Scope, rows: Selected[]): Promise<InvalidRuleRow[]> {
  const names = new Map((await visibleCarriers(k, scope, [...new Set(rows.flatMap((r) => r.carrierIds))])).map((c) => [c.id, c.name]));
  return rows.map(({ carrierIds, ...r }) => ({
    ...r,
    kind: r.kind as InvalidRuleKind,
    windows: pairs(r.windows).map(([from, to]) => ({ from, to })),
    carriers: carrierIds.filter((id) => names.has(id)).map((id) => ({ id, name: names.get(id)! })),
    inForceSince: r.inForceSince ?? null,
  }));
}

export interface RuleFilter extends PageInput {
  name?: string;
  kind?: InvalidRuleKind;
  enabled?: boolean;
  carrierId?: number;
  customerId?: number;
}

export async function page(q: Queryable, scope: Scope, f: RuleFilter) {
  const k = scoped(q, scope);
  const limit = await limitCarrierIds(k, scope);
  const query = ruleSelect(k).where((eb) => {
    const and: Expression<SqlBool>[] = [withinLimit(limit)];
    if (f.name) and.push(eb('r.name', 'ilike', contains(f.name)));
    if (f.kind) and.push(eb('r.kind', '=', f.kind));
    if (f.enabled !== undefined) and.push(eb('r.enabled', '=', f.enabled));
    if (f.carrierId) and.push(sql<boolean>`${f.carrierId}::int = ANY(r.carrier_ids)`);
    if (f.customerId) and.push(eb('r.customer_id', '=', f.customerId));
    return eb.and(and);
  });
  const res = await paged(query, f, { by: ['r.customer_id', 'r.name', 'r.id'] });
  return { ...res, rows: await withCarriers(k, scope, res.rows) };
}

export async function detail(q: Queryable, scope: Scope, id: number) {
  const k = scoped(q, scope);
  const limit = await limitCarrierIds(k, scope);
  const row = await ruleSelect(k).where('r.id', '=', id).where(withinLimit(limit)).executeTakeFirst();
  return row ? (await withCarriers(k, scope, [row]))[0] : undefined;
}

/** The definition columns: what decides what a rule excludes. */
function definition(b: InvalidRuleAddBody) {
  const schedule = b.kind === 'schedule';
  const period = b.kind === 'period';
  return {
    kind: b.kind,
    weekdays: schedule ? [...(b.weekdays ?? [])].sort((x, y) => x - y) : [],
    windows: JSON.stringify(schedule ? (b.windows ?? []).map((w) => [w.from, w.to]) : []),
    start_ts: period && b.start != null ? new Date(b.start) : null,
    end_ts: period && b.end != null ? new Date(b.end) : null,
    carrier_ids: [...b.carrierIds],
  };
}
type Definition = ReturnType<typeof definition>;

const nameExists = () => conflict(Code.NAME_EXISTS, 'errors.invalidRule.nameExists');

/** Carriers and reason must be the rule's customer's (and the carriers within the caller's limit). */
async function checkRefs(k: Kysely<DB>, scope: Scope, customerId: number, b: InvalidRuleAddBody) {
  const carriers = await visibleCarriers(k, scope, b.carrierIds);
  if (carriers.length !== new Set(b.carrierIds).size || carriers.some((c) => c.customer_id !== customerId)) throw paramError('errors.invalidRule.carrierUnknown', { carrierIds: 'errors.invalidRule.carrierUnknown' });
  if (b.reasonId != null) {
    const reason = await k.selectFrom('ex_catalog').select('id').where('id', '=', b.reasonId).where('customer_id', '=', customerId).executeTakeFirst();
    if (!reason) throw paramError('errors.invalidRule.reasonUnknown', { reasonId: 'errors.invalidRule.reasonUnknown' });
  }
}

/** Opens a version of the rule valid from now, in the customer's time zone of now. */
async function openVersion(k: Kysely<DB>, ruleId: number, customerId: number, d: Definition) {
  const cu = await k.selectFrom('customer').select('time_zone').where('id', '=', customerId).executeTakeFirstOrThrow();
  await k
    .insertInto('invalid_rule_version')
    .values({ customer_id: customerId, rule_id: ruleId, ...d, tz: cu.time_zone })
    .execute();
}

/** Closes the version in force now, if any. */
const closeVersion = (k: Kysely<DB>, ruleId: number) =>
  k.updateTable('invalid_rule_version').set({ valid_to: sql<Date>`now()` }).where('rule_id', '=', ruleId).where('valid_to', 'is', null).execute();

const who = (scope: Scope) => scope.name || scope.account;

export async function add(q: Queryable, scope: Scope, b: InvalidRuleAddBody) {
  const k = scoped(q, scope);
  const customerId = targetCustomer(scope, b.customerId);
  await checkRefs(k, scope, customerId, b);
  const d = definition(b);
  const row = await mapUnique(
    () =>
      k
        .insertInto('invalid_rule')
        .values({ customer_id: customerId, name: b.name, ...d, reason_id: b.reasonId ?? null, remark: b.remark ?? '', enabled: b.enabled ?? true, created_by: who(scope), updated_by: who(scope) })
        .returning('id')
        .executeTakeFirstOrThrow(),
    { invalid_rule_name: nameExists() },
  );
  if (b.enabled ?? true) await openVersion(k, row.id, customerId, d);
  return { id: row.id };
}

/** The rule of the caller's scope and limit, locked for a write, or 404. */
async function lockRules(k: Kysely<DB>, scope: Scope, ids: number[]) {
  const limit = await limitCarrierIds(k, scope);
  const rows = await k
    .selectFrom('invalid_rule as r')
    .select(['r.id', 'r.customer_id', 'r.enabled', 'r.kind', 'r.weekdays', 'r.windows', 'r.start_ts', 'r.end_ts', 'r.carrier_ids'])
    .where('r.id', 'in', ids)
    .where('r.deleted_at', 'is', null)
    .where(withinLimit(limit))
    .forUpdate()
    .execute();
  if (rows.length !== new Set(ids).size) throw notFound();
  return rows;
}

const sameDefinition = (cur: Awaited<ReturnType<typeof lockRules>>[number], d: Definition) =>
  cur.kind === d.kind &&
  JSON.stringify(cur.weekdays.map(Number)) === JSON.stringify(d.weekdays) &&
  JSON.stringify(pairs(cur.windows)) === d.windows &&
  (cur.start_ts?.getTime() ?? null) === (d.start_ts?.getTime() ?? null) &&
  (cur.end_ts?.getTime() ?? null) === (d.end_ts?.getTime() ?? null) &&
  JSON.stringify(cur.carrier_ids) === JSON.stringify(d.carrier_ids);

export async function update(q: Queryable, scope: Scope, b: InvalidRuleUpdateBody) {
  const k = scoped(q, scope);
  const [cur] = await lockRules(k, scope, [b.id]);
  await checkRefs(k, scope, cur.customer_id, b);
  const d = definition(b);
  const enabled = b.enabled ?? true;
  await mapUnique(
    () =>
      k
        .updateTable('invalid_rule')
        .set({ name: b.name, ...d, reason_id: b.reasonId ?? null, remark: b.remark ?? '', enabled, updated_at: sql<Date>`now()`, updated_by: who(scope) })
        .where('id', '=', b.id)
        .execute(),
    { invalid_rule_name: nameExists() },
  );
  // Name, reason and remark change no period; a new definition or state starts now.
  if (cur.enabled !== enabled || !sameDefinition(cur, d)) {
    await closeVersion(k, b.id);
    if (enabled) await openVersion(k, b.id, cur.customer_id, d);
  }
  return { id: b.id };
}

/** Enables or disables rules from now on (all or none). */
export async function setEnabled(q: Queryable, scope: Scope, ids: number[], enabled: boolean) {
  const k = scoped(q, scope);
  const rows = await lockRules(k, scope, ids);
  let changed = 0;
  for (const r of rows) {
    if (r.enabled === enabled) continue;
    changed++;
    await k.updateTable('invalid_rule').set({ enabled, updated_at: sql<Date>`now()`, updated_by: who(scope) }).where('id', '=', r.id).execute();
    await closeVersion(k, r.id);
    if (enabled) {
      await openVersion(k, r.id, r.customer_id, { kind: r.kind as InvalidRuleKind, weekdays: r.weekdays.map(Number), windows: JSON.stringify(pairs(r.windows)), start_ts: r.start_ts, end_ts: r.end_ts, carrier_ids: r.carrier_ids });
    }
  }
  return { changed };
}

/** Deletes rules (all or none): they stop now and leave the list; their versions stay as history. */
export async function remove(q: Queryable, scope: Scope, ids: number[]) {
  const k = scoped(q, scope);
  await lockRules(k, scope, ids);
  for (const id of ids) await closeVersion(k, id);
  const r = await k
    .updateTable('invalid_rule')
    .set({ deleted_at: sql<Date>`now()`, enabled: false, updated_at: sql<Date>`now()`, updated_by: who(scope) })
    .where('id', 'in', ids)
    .executeTakeFirst();
  return { deleted: Number(r.numUpdatedRows) };
}

