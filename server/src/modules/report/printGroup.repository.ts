import { sql, type Kysely } from 'kysely';
import { Code, type PrintGroupRow, type ReportKind, type ReportSchedule, type ReportStatus, type ReportLocale as Locale } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import { contains, msOf } from '../../platform/db/query.js';
import { lastPeriod } from './schedule.js';
import { targetCustomer, type Scope } from '../../platform/auth/scope.js';
import { AppError, conflict, notFound } from '../../platform/http/errors.js';
import { mapUnique } from '../shared/records.js';
import { requireWholeCustomer } from '../forwarding/servers.repository.js';

/*
 * Print groups (spec §3 Print group, §5, §7 printGroup/*; docs/reports.md): a customer's named
 * group of carriers printed as one report, with an optional schedule and its recipients. A
 * group is the customer's; its carriers are scene-bound, so a scene-limited user reads the
 * groups with the carriers of its scenes only, and changes none (a group reaches beyond them).
 */

export interface GroupInput {
  customerId?: number;
  groupName: string;
  carrierIds: number[];
  schedule: ReportSchedule;
  contactIds: number[];
  locale: Locale;
}

const failed = (key: string) => new AppError(Code.FAILED, `errors.report.${key}`);
const nameExists = () => conflict(Code.NAME_EXISTS, 'errors.report.groupExists');

/** The groups of the caller's customers (optionally one), with their carriers (within its scene limit), contacts and last report. */
export async function listGroups(q: Queryable, scope: Scope, f: { groupName?: string; customerId?: number; id?: number }): Promise<PrintGroupRow[]> {
  const k = scoped(q, scope);
  let query = k
    .selectFrom('print_group as g')
    .innerJoin('customer as cu', 'cu.id', 'g.customer_id')
    .select(['g.id', 'g.customer_id', 'cu.name as customerName', 'g.name', 'g.schedule', 'g.locale', 'g.created_by', msOf('g.created_at').as('createdAt'), sql<number | null>`(extract(epoch from g.schedule_from) * 1000)::bigint`.as('scheduleFrom')])
    .orderBy('g.customer_id')
    .orderBy('g.name');
  if (f.id) query = query.where('g.id', '=', f.id);
  if (f.groupName) query = query.where('g.name', 'ilike', contains(f.groupName));
  if (f.customerId) query = query.where('g.customer_id', '=', f.customerId);
  const groups = await query.execute();
  if (!groups.length) return [];
  const ids = groups.map((g) => g.id);
  const [carriers, contacts, last] = await Promise.all([
    k
      .selectFrom('print_group_carrier as pc')
      .innerJoin('carrier as c', 'c.id', 'pc.carrier_id')
      .select(['pc.group_id', 'c.id', 'c.name', 'c.type'])
      .where('pc.group_id', 'in', ids)
      .where((eb) => sceneLimit(eb, scope, 'carrier', 'c'))
      .orderBy('pc.group_id')
      .orderBy('pc.position')
      .orderBy('c.id')
      .execute(),
    k
      .selectFrom('print_group_contact as pt')
      .innerJoin('contact as ct', 'ct.id', 'pt.contact_id')
      .select(['pt.group_id', 'ct.id', 'ct.name', 'ct.email'])
      .where('pt.group_id', 'in', ids)
      .orderBy('ct.id')
      .execute(),
    k
      .selectFrom('report as r')
      .select(['r.group_id', 'r.id', 'r.kind', 'r.status', msOf('r.start_ts').as('startTs'), msOf('r.end_ts').as('endTs'), msOf('r.created_at').as('createdAt')])
      .distinctOn('r.group_id')
      .where('r.group_id', 'in', ids)
      .orderBy('r.group_id')
      .orderBy('r.id', 'desc')
      .execute(),
  ]);
  return groups.map((g) => {
    const l = last.find((x) => x.group_id === g.id);
    return {
      id: g.id,
      customerId: g.customer_id,
      customerName: g.customerName,
      groupName: g.name,
      carriers: carriers.filter((c) => c.group_id === g.id).map((c) => ({ id: c.id, name: c.name, type: c.type })),
      contacts: contacts.filter((c) => c.group_id === g.id).map((c) => ({ id: c.id, name: c.name, email: c.email })),
      schedule: g.schedule as ReportSchedule,
      locale: g.locale as Locale,
      scheduleFrom: g.scheduleFrom === null ? null : Number(g.scheduleFrom),
      lastReport: l
        ? { id: Number(l.id), kind: l.kind as ReportKind, status: l.status as ReportStatus, startTs: Number(l.startTs), endTs: Number(l.endTs), createdAt: Number(l.createdAt) }
        : null,
      createdBy: g.created_by,
      createdAt: Number(g.createdAt),
    };
  });
}

export async function groupInfo(q: Queryable, scope: Scope, id: number): Promise<PrintGroupRow> {
  const [g] = await listGroups(q, scope, { id });
  if (!g) throw notFound();
  return g;
}

/** §8 "existing group": a name taken by another group of the customer. */
export async function nameTaken(k: Kysely<DB>, customerId: number, name: string, exceptId = 0): Promise<boolean> {
  const row = await k.selectFrom('print_group').select('id').where('customer_id', '=', customerId).where('name', '=', name).where('id', '<>', exceptId).executeTakeFirst();
  return !!row;
}

/** checkPrintGroup: in the caller's customer (or the one named), excluding the group `id` being renamed. */
export async function checkName(q: Queryable, scope: Scope, f: { groupName: string; id?: number; customerId?: number }) {
  const k = scoped(q, scope);
  let customerId = targetCustomer(scope, f.customerId);
  if (f.id) {
    const g = await k.selectFrom('print_group').select('customer_id').where('id', '=', f.id).executeTakeFirst();
    if (!g) throw notFound();
    customerId = g.customer_id;
  }
  return { exists: await nameTaken(k, customerId, f.groupName.trim(), f.id ?? 0) };
}

/**
 * The carriers and contacts of a group: every carrier of the group's customer within the caller's
 * scope and limit (a foreign or unknown one is a 404, one of another customer of the caller
 * "does not belong to this customer"); every contact the customer's, with an e-mail address.
 */
async function checkMembers(k: Kysely<DB>, scope: Scope, customerId: number, b: Pick<GroupInput, 'carrierIds' | 'contactIds'>) {
  const carriers = await k
    .selectFrom('carrier as c')
    .select(['c.id', 'c.customer_id'])
    .where('c.id', 'in', b.carrierIds)
    .where((eb) => sceneLimit(eb, scope, 'carrier', 'c'))
    .execute();
  if (carriers.length !== b.carrierIds.length) throw notFound();
  if (carriers.some((c) => c.customer_id !== customerId)) throw new AppError(Code.FAILED, 'errors.foreign.carrier');
  if (!b.contactIds.length) return;
  const contacts = await k.selectFrom('contact').select(['id', 'customer_id', 'email']).where('id', 'in', b.contactIds).execute();
  if (contacts.length !== b.contactIds.length) throw notFound();
  if (contacts.some((c) => c.customer_id !== customerId)) throw new AppError(Code.FAILED, 'errors.foreign.contact');
  if (contacts.some((c) => !c.email)) throw failed('contactNoEmail');
}

async function writeMembers(k: Kysely<DB>, groupId: number, customerId: number, b: Pick<GroupInput, 'carrierIds' | 'contactIds'>) {
  await k.deleteFrom('print_group_carrier').where('group_id', '=', groupId).execute();
  await k.deleteFrom('print_group_contact').where('group_id', '=', groupId).execute();
  await k
    .insertInto('print_group_carrier')
    .values(b.carrierIds.map((carrier_id, position) => ({ customer_id: customerId, group_id: groupId, carrier_id, position })))
    .execute();
  if (b.contactIds.length) {
    await k
      .insertInto('print_group_contact')
      .values(b.contactIds.map((contact_id) => ({ customer_id: customerId, group_id: groupId, contact_id })))
      .execute();
  }
}

const uniqueAnswers = () => ({ print_group_customer_id_name_key: nameExists() });

export async function addGroup(q: Queryable, scope: Scope, b: GroupInput): Promise<{ id: number }> {
  requireWholeCustomer(scope);
  const k = scoped(q, scope);
  const customerId = targetCustomer(scope, b.customerId);
  if (await nameTaken(k, customerId, b.groupName)) throw nameExists();
  await checkMembers(k, scope, customerId, b);
  const row = await mapUnique(
    () =>
      k
        .insertInto('print_group')
        .values({
          customer_id: customerId,
          name: b.groupName,
          schedule: b.schedule,
          locale: b.locale,
          schedule_from: b.schedule === 'none' ? null : sql<Date>`now()`,
          created_by: scope.account,
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
    uniqueAnswers(),
  );
  await writeMembers(k, row.id, customerId, b);
  return { id: row.id };
}

/** §7 save: carriers, schedule, recipients, language. A schedule set anew counts its periods from now. */
export async function saveGroup(q: Queryable, scope: Scope, b: Omit<GroupInput, 'groupName' | 'customerId'> & { id: number }): Promise<{ id: number }> {
  requireWholeCustomer(scope);
  const k = scoped(q, scope);
  const cur = await k.selectFrom('print_group').select(['id', 'customer_id', 'schedule']).where('id', '=', b.id).forUpdate().executeTakeFirst();
  if (!cur) throw notFound();
  await checkMembers(k, scope, cur.customer_id, b);
  await k
    .updateTable('print_group')
    .set({
      schedule: b.schedule,
      locale: b.locale,
      ...(cur.schedule !== b.schedule ? { schedule_from: b.schedule === 'none' ? null : sql<Date>`now()` } : {}),
    })
    .where('id', '=', b.id)
    .execute();
  await writeMembers(k, b.id, cur.customer_id, b);
  return { id: b.id };
}

export async function renameGroup(q: Queryable, scope: Scope, id: number, groupName: string): Promise<{ id: number }> {
  requireWholeCustomer(scope);
  const k = scoped(q, scope);
  const cur = await k.selectFrom('print_group').select(['id', 'customer_id']).where('id', '=', id).forUpdate().executeTakeFirst();
  if (!cur) throw notFound();
  if (await nameTaken(k, cur.customer_id, groupName, id)) throw nameExists();
  await mapUnique(() => k.updateTable('print_group').set({ name: groupName }).where('id', '=', id).execute(), uniqueAnswers());
  return { id };
}

/** All or none: an unknown or foreign id makes the whole call 404. Their reports stay (group_id set null, the name kept). */
export async function deleteGroups(q: Queryable, scope: Scope, ids: number[]): Promise<{ deleted: number }> {
  requireWholeCustomer(scope);
  const k = scoped(q, scope);
  const rows = await k.selectFrom('print_group').select('id').where('id', 'in', ids).forUpdate().execute();
  if (rows.length !== new Set(ids).size) throw notFound();
  const done = await k.deleteFrom('print_group').where('id', 'in', ids).executeTakeFirst();
  return { deleted: Number(done.numDeletedRows) };
}

/** A group to print: its customer, name and carriers in order (those the caller may see). */
export async function groupToPrint(q: Queryable, scope: Scope, id: number) {
  const g = await groupInfo(q, scope, id);
  if (!g.carriers.length) throw failed('noCarriers');
  return g;
}

/**
 * A scheduled group's report of its last period, now (the "send now" of the page): its row of
 * the schedule, inserted once per period as the job inserts it (a period already made is not
 * made or mailed again); the job makes it and writes its mails at its next run, which the caller wakes.
 */
export async function queueLastPeriod(q: Queryable, scope: Scope, id: number): Promise<{ reportId: number; startTs: number; endTs: number; created: boolean }> {
  requireWholeCustomer(scope);
  const k = scoped(q, scope);
  const g = await k
    .selectFrom('print_group as g')
    .innerJoin('customer as cu', 'cu.id', 'g.customer_id')
    .select(['g.id', 'g.customer_id', 'g.name', 'g.schedule', 'g.locale', 'cu.time_zone as tz'])
    .where('g.id', '=', id)
    .executeTakeFirst();
  if (!g) throw notFound();
  if (g.schedule === 'none') throw failed('notScheduled');
  const contacts = await k.selectFrom('print_group_contact').select('contact_id').where('group_id', '=', id).execute();
  if (!contacts.length) throw failed('recipientsRequired');
  const p = lastPeriod(g.schedule as Exclude<ReportSchedule, 'none'>, Date.now(), g.tz);
  const carriers = await k.selectFrom('print_group_carrier').select('carrier_id').where('group_id', '=', id).orderBy('position').orderBy('carrier_id').execute();
  if (!carriers.length) throw failed('noCarriers');
  const made = await k
    .insertInto('report')
    .values({
      customer_id: g.customer_id,
      group_id: g.id,
      group_name: g.name,
      carrier_ids: carriers.map((c) => c.carrier_id),
      kind: 'scheduled',
      period: g.schedule,
      start_ts: new Date(p.start),
      end_ts: new Date(p.end),
      tz: g.tz,
      locale: g.locale,
      created_by: scope.account,
    })
    .onConflict((oc) => oc.columns(['group_id', 'period', 'start_ts']).where('kind', '=', 'scheduled').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (made) return { reportId: Number(made.id), startTs: p.start, endTs: p.end, created: true };
  const kept = await k
    .selectFrom('report')
    .select('id')
    .where('group_id', '=', id)
    .where('kind', '=', 'scheduled')
    .where('period', '=', g.schedule)
    .where('start_ts', '=', new Date(p.start))
    .executeTakeFirstOrThrow();
  return { reportId: Number(kept.id), startTs: p.start, endTs: p.end, created: false };
}
