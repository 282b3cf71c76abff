import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { Code, minuteOfDay, type AlarmTriggerFields, type AlarmTriggerRow, type NoticeChannel, type TriggerWindow } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import { contains, msOf, paged, type PageInput, type Paged } from '../../platform/db/query.js';
import { canSee, targetCustomer, type Scope } from '../../platform/auth/scope.js';
import { AppError, conflict, notFound } from '../../platform/http/errors.js';
import { idsInScope, mapUnique, rowInScope, sameCustomer } from '../shared/records.js';

/*
 * Alarm triggers (table alarm_trigger, migration 0041; docs/alarms.md "Triggers"). A customer's
 * record, read and changed through the caller's scope. Its named contacts must be the trigger's
 * customer's; the carriers it serves are bound from here or from the carrier dialog, and a
 * scene-limited caller binds and sees only carriers of its limit. A trigger bound to a carrier
 * cannot be deleted (spec §8 warning): unbind it first.
 */

const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

function triggerSelect(k: Kysely<DB>, scope: Scope) {
  return k
    .selectFrom('alarm_trigger as t')
    .innerJoin('customer as cu', 'cu.id', 't.customer_id')
    .select((eb) => [
      't.id',
      't.customer_id as customerId',
      'cu.name as customerName',
      't.name',
      't.categories',
      sql<NoticeChannel[]>`t.channels`.as('channels'),
      't.group_names as groupNames',
      't.levels',
      't.reason',
      't.win_start',
      't.win_end',
      't.weekdays',
      sql<NoticeChannel[]>`t.off_channels`.as('offChannels'),
      't.off_levels as offLevels',
      't.time_points',
      't.delay_s as delayS',
      sql<number>`t.temp_margin::float8`.as('tempMargin'),
      sql<number>`t.hum_margin::float8`.as('humMargin'),
      't.repeat_times as repeatTimes',
      't.repeat_interval_min as repeatIntervalMin',
      't.escalate_after_min as escalateAfterMin',
      sql<'open' | 'openEnd'>`t.notice_type`.as('noticeType'),
      msOf('t.updated_at').as('updatedAt'),
      eb
        .selectFrom('alarm_trigger_contact as tc')
        .innerJoin('contact as ct', 'ct.id', 'tc.contact_id')
        .select(sql<{ id: number; name: string }[]>`coalesce(json_agg(json_build_object('id', ct.id, 'name', ct.name) ORDER BY ct.id), '[]')`.as('x'))
        .whereRef('tc.trigger_id', '=', 't.id')
        .as('contacts'),
      // The carriers it serves, within a scene-limited caller's limit.
      eb
        .selectFrom('carrier as c')
        .select(sql<{ id: number; name: string }[]>`coalesce(json_agg(json_build_object('id', c.id, 'name', c.name) ORDER BY c.id), '[]')`.as('x'))
        .whereRef('c.trigger_id', '=', 't.id')
        .where((e) => sceneLimit(e, scope, 'carrier', 'c'))
        .as('carriers'),
    ]);
}

type Selected = Awaited<ReturnType<ReturnType<typeof triggerSelect>['executeTakeFirstOrThrow']>>;

const toRow = (r: Selected): AlarmTriggerRow => {
  const contacts = r.contacts ?? [];
  const carriers = r.carriers ?? [];
  return {
    id: r.id, customerId: r.customerId, customerName: r.customerName, name: r.name, categories: r.categories, channels: r.channels,
    contactIds: contacts.map((c) => c.id), contactNames: contacts.map((c) => c.name), groupNames: r.groupNames, levels: r.levels, reason: r.reason,
    windows: r.win_start.map((s, i) => ({ start: hhmm(s), end: hhmm(r.win_end[i]) })), weekdays: r.weekdays,
    offChannels: r.offChannels, offLevels: r.offLevels, timePoints: [...r.time_points].sort((a, b) => a - b).map(hhmm),
    delayS: r.delayS, tempMargin: Number(r.tempMargin), humMargin: Number(r.humMargin), repeatTimes: r.repeatTimes,
    repeatIntervalMin: r.repeatIntervalMin, escalateAfterMin: r.escalateAfterMin, noticeType: r.noticeType,
    carrierIds: carriers.map((c) => c.id), carrierNames: carriers.map((c) => c.name), updatedAt: Number(r.updatedAt),
  };
};

export interface TriggerFilter extends PageInput {
  name?: string;
  customerId?: number;
  carrierId?: number;
}

export async function page(q: Queryable, scope: Scope, f: TriggerFilter): Promise<Paged<AlarmTriggerRow>> {
  const query = triggerSelect(scoped(q, scope), scope).where((eb) => {
    const and: Expression<SqlBool>[] = [];
    if (f.name) and.push(eb('t.name', 'ilike', contains(f.name)));
    if (f.customerId) and.push(eb('t.customer_id', '=', f.customerId));
    if (f.carrierId) and.push(eb('t.id', 'in', eb.selectFrom('carrier as fc').select('fc.trigger_id').where('fc.id', '=', f.carrierId)));
    return eb.and(and);
  });
  const out = await paged(query, f, { by: ['t.customer_id', 't.name', 't.id'] });
  return { ...out, rows: out.rows.map(toRow) };
}

export async function detail(q: Queryable, scope: Scope, id: number) {
  const r = await triggerSelect(scoped(q, scope), scope).where('t.id', '=', id).executeTakeFirst();
  return r && toRow(r);
}

/** One customer's triggers (the caller's current one by default): what the carrier dialog offers. */
export function options(q: Queryable, scope: Scope, customerId?: number) {
  const cid = customerId ?? scope.customerId;
  if (!canSee(scope, cid)) throw notFound();
  return scoped(q, scope)
    .selectFrom('alarm_trigger')
    .select(['id', 'name', sql<NoticeChannel[]>`channels`.as('channels')])
    .where('customer_id', '=', cid)
    .orderBy('name')
    .execute();
}

const columns = (b: AlarmTriggerFields) => ({
  name: b.name,
  categories: b.categories,
  channels: b.channels,
  group_names: [...new Set(b.groupNames)],
  levels: [...new Set(b.levels)],
  reason: b.reason,
  win_start: b.windows.map((w: TriggerWindow) => minuteOfDay(w.start)),
  win_end: b.windows.map((w: TriggerWindow) => minuteOfDay(w.end)),
  weekdays: b.weekdays,
  off_channels: b.offChannels,
  off_levels: [...new Set(b.offLevels)],
  time_points: b.timePoints.map(minuteOfDay),
  delay_s: b.delayS,
  temp_margin: b.tempMargin,
  hum_margin: b.humMargin,
  repeat_times: b.repeatTimes,
  repeat_interval_min: b.repeatIntervalMin,
  escalate_after_min: b.escalateAfterMin,
  notice_type: b.noticeType,
  updated_at: sql<Date>`now()`,
});

/** Spec §8 "name exists", within the customer's triggers. */
const nameExists = () => conflict(Code.NAME_EXISTS, 'errors.exists.name');

/** Its named contacts must be its customer's (another customer's, or one outside the scope, refuses the call and stores nothing). */
async function setContacts(k: Kysely<DB>, scope: Scope, triggerId: number, customerId: number, contactIds: number[]) {
  const ids = [...new Set(contactIds)];
  if (ids.length) for (const c of await idsInScope(k, scope, 'contact', ids)) sameCustomer(c, customerId, 'contact');
  await k.deleteFrom('alarm_trigger_contact').where('trigger_id', '=', triggerId).execute();
  if (ids.length) await k.insertInto('alarm_trigger_contact').values(ids.map((contact_id) => ({ trigger_id: triggerId, contact_id, customer_id: customerId }))).execute();
}

/** The carriers it serves become exactly `carrierIds` (within a scene-limited caller's limit: the write holds to it). */
async function setCarriers(k: Kysely<DB>, scope: Scope, triggerId: number, customerId: number, carrierIds: number[] | undefined) {
  if (carrierIds === undefined) return;
  const ids = [...new Set(carrierIds)];
  if (ids.length) for (const c of await idsInScope(k, scope, 'carrier', ids)) sameCustomer(c, customerId, 'carrier');
  let unbind = k.updateTable('carrier').set({ trigger_id: null }).where('trigger_id', '=', triggerId);
  if (ids.length) unbind = unbind.where('id', 'not in', ids);
  await unbind.execute();
  if (ids.length) await k.updateTable('carrier').set({ trigger_id: triggerId }).where('id', 'in', ids).where('customer_id', '=', customerId).execute();
}

export async function add(q: Queryable, scope: Scope, b: AlarmTriggerFields & { customerId?: number }) {
  const customerId = targetCustomer(scope, b.customerId);
  const k = scoped(q, scope);
  const row = await mapUnique(() => k.insertInto('alarm_trigger').values({ customer_id: customerId, ...columns(b) }).returning('id').executeTakeFirstOrThrow(), {
    alarm_trigger_customer_id_name: nameExists(),
  });
  await setContacts(k, scope, row.id, customerId, b.contactIds);
  await setCarriers(k, scope, row.id, customerId, b.carrierIds);
  return { id: row.id };
}

export async function update(q: Queryable, scope: Scope, b: AlarmTriggerFields & { id: number }) {
  const k = scoped(q, scope);
  const cur = await rowInScope(k, scope, 'alarm_trigger', b.id);
  await mapUnique(() => k.updateTable('alarm_trigger').set(columns(b)).where('id', '=', b.id).execute(), { alarm_trigger_customer_id_name: nameExists() });
  await setContacts(k, scope, b.id, cur.customer_id, b.contactIds);
  await setCarriers(k, scope, b.id, cur.customer_id, b.carrierIds);
  return { id: b.id };
}

/** All or none: a foreign or unknown id is a 404; a trigger bound to a carrier refuses the whole call (spec §8 warning). */
export async function remove(q: Queryable, scope: Scope, ids: number[]) {
  const k = scoped(q, scope);
  await idsInScope(k, scope, 'alarm_trigger', ids);
  // Every carrier counts, also those outside a scene-limited caller's limit: the binding is real.
  const bound = await k
    .selectFrom('carrier as c')
    .innerJoin('alarm_trigger as t', 't.id', 'c.trigger_id')
    .select(['t.name', sql<number>`count(*)::int`.as('n')])
    .where('c.trigger_id', 'in', ids)
    .groupBy('t.name')
    .executeTakeFirst();
  if (bound) throw new AppError(Code.FAILED, 'errors.alarmTrigger.bound', 200, undefined, { name: bound.name, count: bound.n });
  const r = await k.deleteFrom('alarm_trigger').where('id', 'in', ids).executeTakeFirst();
  return { deleted: Number(r.numDeletedRows) };
}
