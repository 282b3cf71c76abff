import type { ReportLocale as Locale, ReportSchedule } from '@coldwatch/contract';
import { sql } from 'kysely';
import type { Db } from '../platform/db/client.js';
import { crossTenant } from '../platform/db/kysely.js';
import { linkScope } from '../platform/auth/scope.js';
import { makeReport } from '../modules/report/reports.js';
import { lastPeriod } from '../modules/report/schedule.js';
import { fill, localTime, reportTexts } from '../modules/report/texts.js';

/*
 * Scheduled reports (docs/reports.md "Scheduled reports"): each print group with a daily,
 * weekly or monthly schedule gets the report of its last period that is over, in its customer's
 * time zone, e-mailed as PDF to its contacts. Across replicas a period's report is made once:
 *
 * 1. its row is inserted with ON CONFLICT DO NOTHING on the unique (group, period, start) of
 *    migration 0051, by whichever replica's run sees the period first;
 * 2. a row is made by the run that claims it (FOR UPDATE SKIP LOCKED, under a lease): a replica
 *    that dies making it leaves it to the next run after the lease; a failure is tried again
 *    (three tries), then stays failed with why, visible on /arch/printer;
 * 3. its mails are written to the notice outbox in the transaction that completes the row, each
 *    with the report as its attachment (notice_log.report_id); the notifier sends them, retried
 *    like any notice.
 *
 * Only periods that end after the schedule was set are reported: setting a schedule does not
 * send last month's report at once.
 */

export const REPORT_MAX_TRIES = 3;
const LEASE_MS = 10 * 60_000;
/** Reports made per run; the rest wait for the next run (five minutes). */
const PER_RUN = 10;

interface Claimed {
  id: number;
  customer_id: number;
  group_id: number;
  group_name: string;
  period: Exclude<ReportSchedule, 'none'>;
  start_ts: Date;
  end_ts: Date;
  locale: Locale;
}

const all = (db: Db) => crossTenant(db, 'the schedules of every customer, each report made in its own customer\'s scope');

export async function runReportSchedule(db: Db, now = Date.now()): Promise<{ due: number; made: number; failed: number; mails: number }> {
  const k = all(db);
  // 1. The periods that are over.
  const groups = await k
    .selectFrom('print_group as g')
    .innerJoin('customer as cu', 'cu.id', 'g.customer_id')
    .select(['g.id', 'g.customer_id', 'g.name', 'g.schedule', 'g.locale', 'cu.time_zone as tz', 'g.schedule_from'])
    .where('g.schedule', '<>', 'none')
    .where('g.schedule_from', 'is not', null)
    .where('cu.status', '=', 1)
    .execute();
  let due = 0;
  for (const g of groups) {
    const schedule = g.schedule as Exclude<ReportSchedule, 'none'>;
    const p = lastPeriod(schedule, now, g.tz);
    if (p.end <= new Date(g.schedule_from!).getTime()) continue;
    const carriers = await carriersOf(db, g.id);
    const ins = await k
      .insertInto('report')
      .values({
        customer_id: g.customer_id,
        group_id: g.id,
        group_name: g.name,
        carrier_ids: carriers,
        kind: 'scheduled',
        period: schedule,
        start_ts: new Date(p.start),
        end_ts: new Date(p.end),
        tz: g.tz,
        locale: g.locale,
        created_by: 'schedule',
      })
      .onConflict((oc) => oc.columns(['group_id', 'period', 'start_ts']).where('kind', '=', 'scheduled').doNothing())
      .returning('id')
      .execute();
    due += ins.length;
  }

  // 2. Claim what is to be made: new rows, rows whose maker died (lease over), failures not yet tried three times.
  const claimed = (await k
    .updateTable('report')
    .set({ status: 'generating', attempts: sql<number>`attempts + 1`, lease_until: sql<Date>`now() + ${LEASE_MS} * interval '1 millisecond'`, error: '' })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('report as r')
        .select('r.id')
        .where('r.kind', '=', 'scheduled')
        .where('r.group_id', 'is not', null)
        .where((w) =>
          w.or([
            w.and([w('r.status', '=', 'generating'), w.or([w('r.lease_until', 'is', null), w('r.lease_until', '<', sql<Date>`now()`)])]),
            w.and([w('r.status', '=', 'failed'), w('r.attempts', '<', REPORT_MAX_TRIES)]),
          ]),
        )
        .orderBy('r.id')
        .limit(PER_RUN)
        .forUpdate()
        .skipLocked(),
    )
    .returning(['id', 'customer_id', 'group_id', 'group_name', 'period', 'start_ts', 'end_ts', 'locale'])
    .execute()) as Claimed[];
  let made = 0;
  let failed = 0;
  let mails = 0;
  for (const c of claimed) {
    const carriers = await carriersOf(db, c.group_id);
    try {
      if (!carriers.length) throw new Error('the group has no carrier');
      const scope = linkScope(c.customer_id);
      const r = await makeReport(db, scope, {
        carrierIds: carriers,
        start: new Date(c.start_ts).getTime(),
        end: new Date(c.end_ts).getTime(),
        locale: c.locale,
        groupId: c.group_id,
        groupName: c.group_name,
        kind: 'scheduled',
        period: c.period,
        by: 'Coldwatch',
        reportId: Number(c.id),
        now,
      });
      mails += await writeMails(db, c, r.id);
      made++;
    } catch {
      // makeReport marked the row failed with why; the next run tries again up to REPORT_MAX_TRIES.
      await k.updateTable('report').set({ status: 'failed', lease_until: null }).where('id', '=', c.id).where('status', '=', 'generating').execute();
      failed++;
    }
  }
  return { due, made, failed, mails };
}

/** A group's carriers in their order. */
async function carriersOf(db: Db, groupId: number): Promise<number[]> {
  const rows = await all(db).selectFrom('print_group_carrier').select('carrier_id').where('group_id', '=', groupId).orderBy('position').orderBy('carrier_id').execute();
  return rows.map((r) => r.carrier_id);
}

/** One mail per contact of the group with an e-mail address, the report attached (notice_log.report_id). */
async function writeMails(db: Db, c: Claimed, reportId: number): Promise<number> {
  const k = all(db);
  const contacts = await k
    .selectFrom('print_group_contact as pt')
    .innerJoin('contact as ct', 'ct.id', 'pt.contact_id')
    .select('ct.email')
    .distinct()
    .where('pt.group_id', '=', c.group_id)
    .where('ct.email', '<>', '')
    .execute();
  const r = await k
    .selectFrom('report as r')
    .innerJoin('customer as cu', 'cu.id', 'r.customer_id')
    .select(['cu.name as customer', 'r.tz', 'r.carrier_names'])
    .where('r.id', '=', reportId)
    .executeTakeFirst();
  if (!contacts.length || !r) return 0;
  // A mail already written for this report (a run that died after writing them) is not written twice.
  const told = new Set((await k.selectFrom('notice_log').select('recipient').where('report_id', '=', reportId).execute()).map((x) => x.recipient));
  const to = contacts.map((x) => x.email).filter((e) => !told.has(e));
  if (!to.length) return 0;
  const t = reportTexts(c.locale);
  const start = new Date(c.start_ts).getTime();
  const end = new Date(c.end_ts).getTime();
  const periodName = `${t.scheduleName[c.period]} ${localTime(start, r.tz).slice(0, 10)}`;
  const subject = fill(t.mailSubject, { customer: r.customer, name: c.group_name, period: periodName }).slice(0, 200);
  const content = fill(t.mailBody, { name: c.group_name, period: periodName, start: localTime(start, r.tz), end: `${localTime(end, r.tz)} (UTC${r.tz})`, carriers: r.carrier_names.join(', ') });
  await k
    .insertInto('notice_log')
    .values(to.map((recipient) => ({ customer_id: c.customer_id, type: 'report', channel: 'email', recipient, subject, content, report_id: reportId })))
    .execute();
  return to.length;
}
