import { sql, type Kysely } from 'kysely';
import { VERIFY_STATUS, type Locale } from '@coldwatch/contract';
import type { Db, Queryable } from '../platform/db/client.js';
import type { DB } from '../platform/db/schema.gen.js';
import { crossTenant } from '../platform/db/kysely.js';
import { catalogues, customerLocales, fill, fmtTime } from '../alarm/templates.js';
import { recipientLocale } from '../alarm/texts.js';

/*
 * The job `verify-task` (issue 29; docs/statistics.md "Verification tasks"): moves every
 * customer's verification tasks along their times (to be started → task starting at the start →
 * data recording at the record start → terminated at the end) and writes their notices to
 * notice_log, which the notifier sends: on completion, on a timeout while recording (a device
 * without a reading for the data delay, or silent for the offline delay: once per task each),
 * and on an exception of the task's devices or carrier that starts while it records (each one
 * once: exception_seen keeps the highest told). Everything of a pass is one transaction, so a
 * notice and the state that says it was told commit together and a rerun tells nothing twice.
 * Recipients are the carrier's contacts (e-mail and SMS as the customer's switches allow), each
 * in its own language, as the calibration notices (alarm/calibration.ts).
 */

type Event = 'done' | 'delay' | 'offline' | 'exception';
const NOTICE_TYPE: Record<Event, string> = { done: 'verifyDone', delay: 'verifyDelay', offline: 'verifyOffline', exception: 'verifyException' };

interface Task {
  id: number;
  customer_id: number;
  carrier_id: number;
  name: string;
  record_start: Date;
  end_time: Date;
  data_delay_min: number;
  offline_delay_min: number;
  notify_complete: boolean;
  notify_timeout: boolean;
  notify_exception: boolean;
  delay_noticed: boolean;
  offline_noticed: boolean;
  exception_seen: number;
}

interface Told {
  task: Task;
  event: Event;
  vars: Record<string, string>;
}

const taskColumns = [
  'id', 'customer_id', 'carrier_id', 'name', 'record_start', 'end_time', 'data_delay_min', 'offline_delay_min',
  'notify_complete', 'notify_timeout', 'notify_exception', 'delay_noticed', 'offline_noticed', 'exception_seen',
] as const;

export async function advanceVerifyTasks(db: Db, now: number): Promise<{ starting: number; recording: number; completed: number; notices: number }> {
  return db.tx(async (q) => {
    const k = crossTenant(q, 'verification tasks of every customer move along their times');
    const at = new Date(now);
    const starting = await k.updateTable('verify_task').set({ status: VERIFY_STATUS.starting }).where('status', '=', VERIFY_STATUS.toStart).where('start_time', '<=', at).where('record_start', '>', at).executeTakeFirst();
    const recording = await k
      .updateTable('verify_task')
      .set({ status: VERIFY_STATUS.recording })
      .where('status', 'in', [VERIFY_STATUS.toStart, VERIFY_STATUS.starting])
      .where('record_start', '<=', at)
      .where('end_time', '>', at)
      .executeTakeFirst();
    const completed = await k
      .updateTable('verify_task')
      .set((eb) => ({ status: VERIFY_STATUS.terminated, ended_at: eb.ref('end_time') }))
      .where('status', '<', VERIFY_STATUS.terminated)
      .where('end_time', '<=', at)
      .returning([...taskColumns])
      .execute();
    const told: Told[] = completed.filter((t) => t.notify_complete).map((task) => ({ task, event: 'done', vars: { time: String(task.end_time.getTime()) } }));
    const open = await k.selectFrom('verify_task').select([...taskColumns]).where('status', '=', VERIFY_STATUS.recording).execute();
    for (const task of open) told.push(...(await timeouts(k, task, now)), ...(await exceptions(k, task)));
    const notices = await writeNotices(q, k, told);
    return { starting: Number(starting.numUpdatedRows), recording: Number(recording.numUpdatedRows), completed: completed.length, notices };
  });
}

/** The devices silent past the data delay and past the offline delay, each told once per task. */
async function timeouts(k: Kysely<DB>, task: Task, now: number): Promise<Told[]> {
  if (!task.notify_timeout || (task.delay_noticed && task.offline_noticed)) return [];
  // Silence counts from the device's last reading, or from the record start when that is later.
  const devices = await k
    .selectFrom('verify_task_device as d')
    .innerJoin('sensor as s', 's.id', 'd.sensor_id')
    .select(['s.dev_no', sql<number>`(extract(epoch from greatest(s.last_ts, ${task.record_start}::timestamptz)) * 1000)::bigint`.as('since')])
    .where('d.task_id', '=', task.id)
    .orderBy('s.dev_no')
    .execute();
  const silent = (min: number) => devices.filter((d) => now - Number(d.since) > min * 60_000).map((d) => d.dev_no);
  const out: Told[] = [];
  for (const [event, min, done, flag] of [['delay', task.data_delay_min, task.delay_noticed, 'delay_noticed'], ['offline', task.offline_delay_min, task.offline_noticed, 'offline_noticed']] as const) {
    const late = done ? [] : silent(min);
    if (!late.length) continue;
    await k.updateTable('verify_task').set({ [flag]: true }).where('id', '=', task.id).execute();
    out.push({ task, event, vars: { minutes: String(min), devices: late.join(', ') } });
  }
  return out;
}

/** Exceptions of the task's devices or carrier that started while it records, not told yet: one notice for them all. */
async function exceptions(k: Kysely<DB>, task: Task): Promise<Told[]> {
  if (!task.notify_exception) return [];
  const rows = await k
    .selectFrom('exception_record as e')
    .leftJoin('sensor as s', 's.id', 'e.sensor_id')
    .select(['e.id', 'e.start_ts', 's.dev_no'])
    .where('e.customer_id', '=', task.customer_id)
    .where('e.id', '>', task.exception_seen)
    .where('e.start_ts', '>=', task.record_start)
    .where((eb) => eb.or([eb('e.carrier_id', '=', task.carrier_id), eb('e.sensor_id', 'in', eb.selectFrom('verify_task_device').select('sensor_id').where('task_id', '=', task.id))]))
    .orderBy('e.start_ts')
    .execute();
  if (!rows.length) return [];
  await k.updateTable('verify_task').set({ exception_seen: Math.max(...rows.map((r) => r.id)) }).where('id', '=', task.id).execute();
  const devices = [...new Set(rows.map((r) => r.dev_no).filter((d): d is string => !!d))];
  return [{ task, event: 'exception', vars: { count: String(rows.length), time: String(rows[0].start_ts.getTime()), devices: devices.join(', ') || '-' } }];
}

/** The notice rows of what is told: to each contact of the task's carrier, by mail and SMS as the customer allows, in the contact's language. */
async function writeNotices(q: Queryable, k: Kysely<DB>, told: Told[]): Promise<number> {
  if (!told.length) return 0;
  const carriers = [...new Set(told.map((t) => t.task.carrier_id))];
  const facts = await k
    .selectFrom('carrier as c')
    .innerJoin('customer as cu', 'cu.id', 'c.customer_id')
    .select(['c.id', 'c.name as carrier', 'cu.name as customer', 'cu.time_zone', 'cu.notify_email', 'cu.notify_sms'])
    .where('c.id', 'in', carriers)
    .execute();
  const contacts = await k
    .selectFrom('carrier_contact as cc')
    .innerJoin('contact as ct', (j) => j.onRef('ct.id', '=', 'cc.contact_id').onRef('ct.customer_id', '=', 'cc.customer_id'))
    .select(['cc.carrier_id', 'ct.email', 'ct.phone', 'ct.locale'])
    .where('cc.carrier_id', 'in', carriers)
    .orderBy('ct.id')
    .execute();
  const locales = await customerLocales(q, [...new Set(told.map((t) => t.task.customer_id))]);
  const rows: { customer_id: number; type: string; channel: string; recipient: string; subject: string; content: string }[] = [];
  for (const t of told) {
    const f = facts.find((x) => x.id === t.task.carrier_id);
    if (!f) continue;
    for (const ct of contacts.filter((c) => c.carrier_id === t.task.carrier_id)) {
      const text = render(t, { customer: f.customer, carrier: f.carrier }, f.time_zone, recipientLocale(ct.locale, locales.get(t.task.customer_id)!));
      const push = (channel: string, recipient: string, subject: string, content: string) => rows.push({ customer_id: t.task.customer_id, type: NOTICE_TYPE[t.event], channel, recipient, subject, content });
      if (f.notify_email && ct.email) push('email', ct.email, text.subject, text.content);
      if (f.notify_sms && ct.phone) push('sms', ct.phone, '', text.sms);
    }
  }
  if (rows.length) await k.insertInto('notice_log').values(rows).execute();
  return rows.length;
}

/** A verification notice's mail and SMS in one language (packages/contract/locales/<lang>/notice.json "verifyTask"). */
export function render(t: Told, who: { customer: string; carrier: string }, tz: string, locale: Locale) {
  const c = catalogues[locale].verifyTask;
  const vars: Record<string, string> = { ...t.vars, ...who, task: t.task.name, event: c.event[t.event] };
  if (vars.time) vars.time = fmtTime(Number(vars.time), tz);
  const detail = fill(c.detail[t.event], vars);
  const all = { ...vars, detail };
  return { subject: fill(c.subject, all).slice(0, 200), content: fill(c.body, all), sms: fill(c.sms, all) };
}
