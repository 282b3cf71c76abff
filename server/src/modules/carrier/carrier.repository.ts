import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { ALARM_DEFAULTS, Code, isClimateSensor, sensorMeasuresHumidity, type CarrierBody, type CarrierMode, type CarrierRow, type NoticeChannel, type SampleMode, type SensorType } from '@coldwatch/contract';
import { unreachable } from '../../alarm/recipients.js';
import { checkOffered } from '../type/type.repository.js';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { contains, countOf, msOf, msOrNull, paged, type PageInput } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';
import { conflict, paramError } from '../../platform/http/errors.js';
import { idsInScope, inUse, mapUnique, rowInScope, sameCustomer, subtreeIds } from '../shared/records.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';

type From = DB & { c: DB['carrier']; s: DB['scene']; cu: DB['customer']; t: DB['alarm_trigger'] };

/** Spec §2 grey switch icon: a trigger bound and a zone set (home's alarm mode widget counts by it too). */
export const hasTrigger = sql<boolean>`(c.temp_min IS NOT NULL OR c.hum_min IS NOT NULL)`;

/** The carrier columns every carrier answer starts from (list, detail, board). */
export function carrierSelect(k: Kysely<DB>) {
  return k
    .selectFrom('carrier as c')
    .innerJoin('scene as s', 's.id', 'c.scene_id')
    .innerJoin('customer as cu', 'cu.id', 'c.customer_id')
    // The bound trigger (migration 0041): its channels, delay and margins are the carrier's; without one the defaults.
    .leftJoin('alarm_trigger as t', 't.id', 'c.trigger_id')
    .select((eb) => [
      'c.id',
      'c.name',
      'c.type',
      'c.status',
      'c.alarm_on as alarmOn',
      sql<CarrierMode>`c.mode`.as('mode'),
      'c.load_type as loadType',
      'c.traceable',
      'c.is_kpi as isKpi',
      sql<SampleMode>`c.sample_mode`.as('sampleMode'),
      'c.mkt_dh as mktDh',
      'c.trigger_id as triggerId',
      't.name as triggerName',
      sql<NoticeChannel[]>`coalesce(t.channels, ARRAY['email'])`.as('channels'),
      hasTrigger.as('hasTrigger'),
      msOrNull('c.paused_until').as('pausedUntil'),
      'c.pause_reason as pauseReason',
      'c.scene_id as sceneId',
      's.label as sceneLabel',
      's.code as sceneCode',
      'c.customer_id as customerId',
      'cu.name as customerName',
      'c.temp_min as tempMin',
      'c.temp_max as tempMax',
      'c.hum_min as humMin',
      'c.hum_max as humMax',
      sql<number>`coalesce(t.delay_s, ${ALARM_DEFAULTS.delayS})`.as('alarmDelayS'),
      sql<number>`coalesce(t.temp_margin, ${ALARM_DEFAULTS.tempMargin})::float8`.as('tempMargin'),
      sql<number>`coalesce(t.hum_margin, ${ALARM_DEFAULTS.humMargin})::float8`.as('humMargin'),
      countOf(eb.selectFrom('sensor as x').whereRef('x.carrier_id', '=', 'c.id')).as('sensorCount'),
      msOf('c.created_at').as('createdAt'),
    ]);
}

export interface CarrierFilter extends PageInput {
  /** A platform user's (or proxy's) customer node; outside the caller's scope it finds nothing. */
  customerId?: number;
  type?: number;
  sceneId?: number;
  name?: string;
  status?: number;
  mode?: CarrierMode;
  alarmOn?: boolean;
}

/** The filters the list and the board share; a scene filter covers the scene's whole subtree. */
export async function carrierFilter(k: Kysely<DB>, scope: Scope, f: Omit<CarrierFilter, keyof PageInput>) {
  const sub = f.sceneId ? await subtreeIds(k, f.sceneId) : undefined;
  return (eb: ExpressionBuilder<From, 'c'>) => {
    const and = [sceneLimit(eb, scope, 'carrier', 'c')];
    if (f.customerId) and.push(eb('c.customer_id', '=', f.customerId));
    if (f.type) and.push(eb('c.type', '=', f.type));
    if (f.status) and.push(eb('c.status', '=', f.status));
    if (f.mode) and.push(eb('c.mode', '=', f.mode));
    if (f.alarmOn !== undefined) and.push(eb('c.alarm_on', '=', f.alarmOn));
    if (sub) and.push(sub.length ? eb('c.scene_id', 'in', sub) : eb.val(false));
    if (f.name) and.push(eb('c.name', 'ilike', contains(f.name)));
    return eb.and(and);
  };
}

const SORTABLE = { name: 'c.name', type: 'c.type', status: 'c.status', createdAt: 'c.created_at' };

/**
 * Marks the carriers whose alarm is on but would reach nobody (recipients.ts `unreachable`): the
 * card, the carrier page and the home count show them. The rows come from a scoped query.
 */
export async function withReach<R extends { id: number }>(q: Queryable, rows: R[]): Promise<(R & { reachesNobody: boolean })[]> {
  const nobody = await unreachable(q, rows.map((r) => r.id));
  return rows.map((r) => ({ ...r, reachesNobody: nobody.has(r.id) }));
}

export async function page(q: Queryable, scope: Scope, f: CarrierFilter) {
  const k = scoped(q, scope);
  const where = await carrierFilter(k, scope, f);
  // Counted and paged on the carrier rows alone (the filters are on them): through the scene,
  // customer and trigger joins the count of 100,000 carriers cost several times as much.
  const base = k.selectFrom('carrier as c').where(where);
  const out = await paged(carrierSelect(k).where(where), f, { sortable: SORTABLE, by: 'c.id', base: { from: base, key: 'c.id' } });
  return { ...out, rows: await withReach(q, out.rows) };
}

export async function detail(q: Queryable, scope: Scope, id: number) {
  const k = scoped(q, scope);
  const found = await carrierSelect(k)
    .where('c.id', '=', id)
    .where((eb) => sceneLimit(eb, scope, 'carrier', 'c'))
    .executeTakeFirst();
  if (!found) return undefined;
  const [row]: CarrierRow[] = await withReach(q, [found]);
  const contacts = await k
    .selectFrom('carrier_contact as cc')
    .innerJoin('contact as ct', 'ct.id', 'cc.contact_id')
    .select(['ct.id', 'ct.name', 'ct.phone', 'ct.email', 'ct.alarm_level as alarmLevel'])
    .where('cc.carrier_id', '=', id)
    .orderBy('ct.id')
    .execute();
  return { ...row, contactIds: contacts.map((c) => c.id), contacts };
}

/**
 * Spec §5 "a device set with a thermometer cannot add a humidity interval": a carrier whose
 * temperature sensors are all thermometers (none of the `_th` types) cannot hold a humidity
 * zone. Gas and door sensors measure neither, so they do not count; a carrier without
 * sensors may hold a zone for the devices still to come. Called inside the write's
 * transaction, after the change, so it judges the state the write would leave.
 */
export async function checkHumidityZone(k: Kysely<DB>, carrierId: number, field: string) {
  const c = await k.selectFrom('carrier').select('hum_min').where('id', '=', carrierId).executeTakeFirst();
  if (!c || c.hum_min === null) return;
  const types = (await k.selectFrom('sensor').select('type').where('carrier_id', '=', carrierId).execute()).map((r) => r.type as SensorType);
  const climate = types.filter(isClimateSensor);
  if (climate.length > 0 && !climate.some(sensorMeasuresHumidity)) {
    throw paramError('errors.rule.humidityOnThermometer', { [field]: 'errors.rule.humidityOnThermometer' });
  }
}

const nameExists = () => conflict(Code.NAME_EXISTS, 'errors.exists.name');

async function checkRefs(k: Kysely<DB>, scope: Scope, body: CarrierBody, customerId?: number) {
  const scene = await rowInScope(k, scope, 'scene', body.sceneId);
  if (customerId !== undefined) sameCustomer(scene, customerId, 'scene');
  const owner = customerId ?? scene.customer_id;
  if (body.contactIds.length) for (const c of await idsInScope(k, scope, 'contact', body.contactIds)) sameCustomer(c, owner, 'contact');
  if (body.triggerId) sameCustomer(await rowInScope(k, scope, 'alarm_trigger', body.triggerId), owner, 'alarmTrigger');
  return owner;
}

async function checkName(k: Kysely<DB>, customerId: number, name: string, exceptId = 0) {
  const dup = await k.selectFrom('carrier').select('id').where('customer_id', '=', customerId).where('name', '=', name).where('id', '<>', exceptId).executeTakeFirst();
  if (dup) throw nameExists();
}

async function setContacts(k: Kysely<DB>, carrierId: number, customerId: number, contactIds: number[]) {
  await k.deleteFrom('carrier_contact').where('carrier_id', '=', carrierId).execute();
  if (contactIds.length) {
    await k
      .insertInto('carrier_contact')
      .values([...new Set(contactIds)].map((contact_id) => ({ carrier_id: carrierId, contact_id, customer_id: customerId })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/** The carrier's sensors become exactly `sensorIds`: each in the caller's scope and the carrier's customer (spec: no cross-customer binding). */
async function setSensors(k: Kysely<DB>, scope: Scope, carrierId: number, customerId: number, sensorIds: number[] | undefined) {
  if (sensorIds === undefined) return;
  const ids = [...new Set(sensorIds)];
  if (ids.length) for (const s of await idsInScope(k, scope, 'sensor', ids)) sameCustomer(s, customerId, 'sensor');
  let unbind = k.updateTable('sensor').set({ carrier_id: null }).where('carrier_id', '=', carrierId);
  if (ids.length) unbind = unbind.where('id', 'not in', ids);
  await unbind.execute();
  if (ids.length) await k.updateTable('sensor').set({ carrier_id: carrierId }).where('id', 'in', ids).where('customer_id', '=', customerId).execute();
}

const columns = (b: CarrierBody) => ({
  scene_id: b.sceneId,
  name: b.name,
  type: b.type,
  status: b.status,
  alarm_on: b.alarmOn,
  mode: b.mode,
  load_type: b.loadType,
  traceable: b.traceable,
  is_kpi: b.isKpi,
  sample_mode: b.sampleMode,
  ...(b.mktDh === undefined ? {} : { mkt_dh: b.mktDh }),
  temp_min: b.tempMin,
  temp_max: b.tempMax,
  hum_min: b.humMin,
  hum_max: b.humMax,
  // Left out, the binding stays (a form that does not show the trigger keeps it).
  ...(b.triggerId === undefined ? {} : { trigger_id: b.triggerId }),
});

export async function add(q: Queryable, scope: Scope, b: CarrierBody) {
  await checkOffered(q, 'carrier', b);
  const k = scoped(q, scope);
  const customerId = await checkRefs(k, scope, b);
  await checkName(k, customerId, b.name);
  const row = await mapUnique(() => k.insertInto('carrier').values({ customer_id: customerId, ...columns(b) }).returning('id').executeTakeFirstOrThrow(), {
    carrier_customer_id_name: nameExists(),
  });
  await setContacts(k, row.id, customerId, b.contactIds);
  await setSensors(k, scope, row.id, customerId, b.sensorIds);
  await checkHumidityZone(k, row.id, 'humMin');
  return { id: row.id };
}

/** Spec §2 /noti/alarmLog: one row per carrier whose alarm switch changed (or was paused: `pausedUntil`), with the reason given. */
export async function logSwitch(
  k: Kysely<DB>,
  scope: Scope,
  rows: { id: number; customer_id: number; name: string }[],
  alarmOn: boolean,
  reason = '',
  pausedUntil: Date | null = null,
) {
  if (!rows.length) return;
  await k
    .insertInto('alarm_switch_log')
    .values(
      rows.map((r) => ({
        customer_id: r.customer_id, carrier_id: r.id, carrier_name: r.name, alarm_on: alarmOn, user_id: scope.userId,
        operator: scope.name || scope.account, reason, paused_until: pausedUntil,
      })),
    )
    .execute();
}

/** Switches the alarm of carriers on or off; carriers already in that state are left alone and not logged. */
export async function alarmSwitch(q: Queryable, scope: Scope, ids: number[], alarmOn: boolean, reason = '') {
  const k = scoped(q, scope);
  await idsInScope(k, scope, 'carrier', ids);
  const changed = await k
    .updateTable('carrier')
    .set({ alarm_on: alarmOn })
    .where('id', 'in', ids)
    .where('alarm_on', '<>', alarmOn)
    .returning(['id', 'customer_id', 'name'])
    .execute();
  await logSwitch(k, scope, changed, alarmOn, reason);
  return { changed: changed.length };
}

export async function update(q: Queryable, scope: Scope, b: CarrierBody & { id: number }) {
  const k = scoped(q, scope);
  const cur = await rowInScope(k, scope, 'carrier', b.id);
  // Locked: two edits at once must not both log the same switch change.
  const before = await k.selectFrom('carrier').select(['alarm_on', 'type']).where('id', '=', b.id).forUpdate().executeTakeFirstOrThrow();
  await checkOffered(q, 'carrier', b, before);
  await checkRefs(k, scope, b, cur.customer_id);
  await checkName(k, cur.customer_id, b.name, b.id);
  await mapUnique(() => k.updateTable('carrier').set(columns(b)).where('id', '=', b.id).where('customer_id', '=', cur.customer_id).execute(), {
    carrier_customer_id_name: nameExists(),
  });
  await setSensors(k, scope, b.id, cur.customer_id, b.sensorIds);
  await checkHumidityZone(k, b.id, 'humMin');
  await setContacts(k, b.id, cur.customer_id, b.contactIds);
  if (before.alarm_on !== b.alarmOn) await logSwitch(k, scope, [{ id: b.id, customer_id: cur.customer_id, name: b.name }], b.alarmOn);
  return { id: b.id };
}

/** A carrier with sensors bound is refused: unbinding is a deliberate step, not a side effect of deleting. */
export async function remove(q: Queryable, scope: Scope, ids: number[]) {
  const k = scoped(q, scope);
  await idsInScope(k, scope, 'carrier', ids);
  const bound = await k.selectFrom('sensor').select('id').where('carrier_id', 'in', ids).limit(1).executeTakeFirst();
  if (bound) throw inUse('carrier');
  const r = await k.deleteFrom('carrier').where('id', 'in', ids).executeTakeFirst();
  return { deleted: Number(r.numDeletedRows) };
}
