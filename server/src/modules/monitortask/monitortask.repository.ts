import { sql, type Expression, type SqlBool } from 'kysely';
import {
  MONITOR_FAMILIES,
  MONITOR_TASK_DEFAULTS,
  MONITOR_TASK_STATUS,
  sensorFamily,
  type IntervalUnit,
  type MonitorFamily,
  type MonitorTaskBody,
  type MonitorTaskRow,
} from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import { msOrNull, paged, type PageInput, type Paged } from '../../platform/db/query.js';
import { canSee, type Scope } from '../../platform/auth/scope.js';
import { noPermission, notFound } from '../../platform/http/errors.js';

/*
 * Monitor tasks (spec §3; docs/devices.md "Monitor tasks"). A customer inherits the platform's
 * default task of each family (the contract's MONITOR_TASK_DEFAULTS) until it sets one: then
 * its own row holds interval and status, and deleting that row gives the family back to the
 * default. The list shows every family of every customer of the caller's scope, own or inherited.
 * What a task means for the devices is the offline rule's (server/src/alarm/offline.ts).
 */

/** The families with their defaults, as rows the list joins the customers with (no table: the defaults are the contract's). */
const families = () => {
  const d = MONITOR_FAMILIES.map((f) => MONITOR_TASK_DEFAULTS[f]);
  return sql<{ family: MonitorFamily; ord: number; dv: number; du: IntervalUnit }>`(select * from unnest(${[...MONITOR_FAMILIES]}::text[], ${MONITOR_FAMILIES.map((_, i) => i)}::int[], ${d.map((x) => x.intervalValue)}::int[], ${d.map((x) => x.intervalUnit)}::text[]) as v(family, ord, dv, du))`.as('f');
};

export interface TaskFilter extends PageInput {
  customerId?: number;
  family?: MonitorFamily;
  status?: number;
}

export async function pageTasks(q: Queryable, scope: Scope, f: TaskFilter): Promise<Paged<MonitorTaskRow>> {
  const k = scoped(q, scope);
  const query = k
    .selectFrom('customer as cu')
    .innerJoin(families(), (j) => j.onTrue())
    .leftJoin('monitor_task as t', (j) => j.onRef('t.customer_id', '=', 'cu.id').onRef('t.family', '=', 'f.family'))
    .select((eb) => [
      't.id',
      'cu.id as customerId',
      'cu.name as customerName',
      sql<MonitorFamily>`f.family`.as('family'),
      eb.fn.coalesce('t.interval_value', sql<number>`f.dv`).as('intervalValue'),
      sql<IntervalUnit>`coalesce(t.interval_unit, f.du)`.as('intervalUnit'),
      eb.fn.coalesce('t.status', sql<number>`${MONITOR_TASK_STATUS.running}::smallint`).as('status'),
      sql<boolean>`t.id IS NULL`.as('inherited'),
      msOrNull('t.updated_at').as('updatedAt'),
      't.updated_by as updatedBy',
    ])
    .where((eb) => {
      const and: Expression<SqlBool>[] = [];
      if (f.customerId) and.push(eb('cu.id', '=', f.customerId));
      if (f.family) and.push(sql<SqlBool>`f.family = ${f.family}`);
      if (f.status !== undefined) and.push(sql<SqlBool>`coalesce(t.status, ${MONITOR_TASK_STATUS.running}) = ${f.status}`);
      return eb.and(and);
    });
  const page = await paged(query, f, { by: ['cu.id', 'f.ord'] });
  const counts = await deviceCounts(q, scope, [...new Set(page.rows.map((r) => r.customerId))]);
  return {
    ...page,
    rows: page.rows.map((r) => ({ ...r, intervalValue: Number(r.intervalValue), status: Number(r.status), updatedBy: r.updatedBy ?? null, devices: counts.get(`${r.customerId}:${r.family}`) ?? 0 })),
  };
}

/** The customers' devices of each family that a task watches (stopped devices left out; a scene-limited caller's within its limit), keyed "customer:family". */
async function deviceCounts(q: Queryable, scope: Scope, customerIds: number[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (!customerIds.length) return counts;
  const k = scoped(q, scope);
  const add = (customer: number, family: string, n: number) => counts.set(`${customer}:${family}`, (counts.get(`${customer}:${family}`) ?? 0) + Number(n));
  // Sensors by type (the family is the contract's sensorFamily of it), the rest by kind.
  const sensors = await k
    .selectFrom('sensor')
    .select(['customer_id', 'type', sql<number>`count(*)::int`.as('n')])
    .where('customer_id', 'in', customerIds)
    .where('status', '<>', 2)
    .where((eb) => sceneLimit(eb, scope, 'sensor', 'sensor'))
    .groupBy(['customer_id', 'type'])
    .execute();
  for (const s of sensors) add(s.customer_id, sensorFamily(s.type), s.n);
  for (const table of ['gateway', 'display', 'relay'] as const) {
    const rows = await k
      .selectFrom(table)
      .select(['customer_id', sql<number>`count(*)::int`.as('n')])
      .where('customer_id', 'in', customerIds)
      .where('status', '<>', 2)
      .where((eb) => sceneLimit(eb, scope, table, table))
      .groupBy('customer_id')
      .execute();
    for (const r of rows) add(r.customer_id, table, r.n);
  }
  return counts;
}

/**
 * The customer whose task the caller sets: one it may see (a platform or proxy user names it;
 * another's is answered as if it did not exist). A scene-limited user may not: a task governs
 * every device of its family, those outside the limit too.
 */
function taskCustomer(scope: Scope, requested: number | undefined): number {
  if (scope.sceneIds !== null) throw noPermission();
  const customerId = requested ?? scope.customerId;
  if (!canSee(scope, customerId)) throw notFound();
  return customerId;
}

/** Sets a family's task of a customer: its own row, made or changed (an upsert on customer and family). */
export async function setTask(q: Queryable, scope: Scope, b: MonitorTaskBody): Promise<{ id: number }> {
  const customerId = taskCustomer(scope, b.customerId);
  const k = scoped(q, scope);
  const exists = await k.selectFrom('customer').select('id').where('id', '=', customerId).executeTakeFirst();
  if (!exists) throw notFound();
  const values = { interval_value: b.intervalValue, interval_unit: b.intervalUnit, status: b.status, updated_at: sql<Date>`now()`, updated_by: scope.name || scope.account };
  const row = await k
    .insertInto('monitor_task')
    .values({ customer_id: customerId, family: b.family, ...values })
    .onConflict((oc) => oc.columns(['customer_id', 'family']).doUpdateSet(values))
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id };
}

/** Gives tasks back to the platform default: their rows go (all or none, as every delete by ids). */
export async function resetTasks(q: Queryable, scope: Scope, ids: number[]): Promise<{ deleted: number }> {
  if (scope.sceneIds !== null) throw noPermission();
  const k = scoped(q, scope);
  const found = await k.selectFrom('monitor_task').select('id').where('id', 'in', ids).execute();
  if (found.length !== new Set(ids).size) throw notFound();
  const r = await k.deleteFrom('monitor_task').where('id', 'in', ids).executeTakeFirst();
  return { deleted: Number(r.numDeletedRows) };
}
