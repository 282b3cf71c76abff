import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../../test/helper.js';
import { startSmtpSink } from '../../../test/smtp.js';
import { call, seedRecords, type Records } from '../shared/records.fixture.js';
import { createNotifier } from '../../alarm/notifier.js';
import { runReportSchedule } from '../../jobs/reportSchedule.js';
import { lastPeriod, SCHEDULE_DELAY_MS } from './schedule.js';
import { pdfText } from './pdf.fixture.js';

/*
 * Scheduled reports (docs/reports.md "Scheduled reports"): the periods in the customer's zone,
 * a period's report made once however many runs (replicas) see it, and its mail reaching a real
 * SMTP server with the PDF attached (the pattern of alarm/exceptionLink.test.ts).
 */

const DAY = 86_400_000;

describe('the periods of a schedule', () => {
  it("are the customer's days, ISO weeks and calendar months, reported once over and the delay passed", () => {
    // 2026-11-04 (a Wednesday) 00:10 in +08:00 = 2026-11-03 16:10 UTC: yesterday's day is not yet reported (15 minutes' delay).
    const now = Date.UTC(2026, 10, 3, 16, 10);
    expect(lastPeriod('daily', now, '+08:00')).toEqual({ start: Date.UTC(2026, 10, 1, 16), end: Date.UTC(2026, 10, 2, 16) });
    expect(lastPeriod('daily', now + 10 * 60_000, '+08:00')).toEqual({ start: Date.UTC(2026, 10, 2, 16), end: Date.UTC(2026, 10, 3, 16) });
    // The week before Monday 2 November (local): Monday 26 October to Monday 2 November.
    expect(lastPeriod('weekly', now, '+08:00')).toEqual({ start: Date.UTC(2026, 9, 25, 16), end: Date.UTC(2026, 10, 1, 16) });
    // October in +08:00; and in -05:00, where November 1 begins at 05:00 UTC.
    expect(lastPeriod('monthly', now, '+08:00')).toEqual({ start: Date.UTC(2026, 8, 30, 16), end: Date.UTC(2026, 9, 31, 16) });
    expect(lastPeriod('monthly', Date.UTC(2026, 10, 1, 5) + SCHEDULE_DELAY_MS, '-05:00')).toEqual({ start: Date.UTC(2026, 9, 1, 5), end: Date.UTC(2026, 10, 1, 5) });
    expect(lastPeriod('monthly', Date.UTC(2026, 10, 1, 5) + SCHEDULE_DELAY_MS - 1, '-05:00').end).toBe(Date.UTC(2026, 9, 1, 5));
  });
});

let t: TestCtx;
let a: Records;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await setup();
  a = await seedRecords(t, 'alpha', 'Alpha', 'A1');
}, 180_000);
afterAll(async () => {
  await t?.close();
  await smtp?.stop();
});

/** The attachment of a raw multipart mail with this content type, decoded. */
function attachmentOf(raw: string, type: string): { name: string; data: Buffer } | null {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  if (!boundary) return null;
  for (const part of raw.split(`--${boundary}`)) {
    const [head, ...rest] = part.split(/\r?\n\r?\n/);
    if (!new RegExp(`content-type:\\s*${type}`, 'i').test(head)) continue;
    // The name may come RFC 2231-encoded (filename*=utf-8''…): the part's head as a whole.
    const name = decodeURIComponent(head.replace(/\r?\n\s+/g, ' ').replace(/%(?![0-9A-F]{2})/gi, '%25'));
    return { name, data: Buffer.from(rest.join('\n\n').replace(/\s+/g, ''), 'base64') };
  }
  return null;
}

describe('a scheduled report', () => {
  it('is made once per group and period however many runs see it, and reaches the SMTP server with its PDF attached', async () => {
    await t.db.query('UPDATE carrier SET name = $2 WHERE id = $1', [a.carrierId, '疫苗冷藏柜二号']);
    const contact = await call(t, a.cookie, 'POST', '/service/contact/add', { name: 'QA', phone: '13800000004', email: 'qa@alpha.test', groupName: 'day' });
    const group = await call(t, a.cookie, 'POST', '/service/printGroup/addPrintGroup', { groupName: '每日报告', carrierIds: [a.carrierId], schedule: 'daily', contactIds: [contact.id] });
    // The schedule was set two days ago: yesterday's day is due.
    await t.db.query(`UPDATE print_group SET schedule_from = now() - interval '2 days' WHERE id = $1`, [group.id]);
    const now = Date.now();
    // Two replicas' runs at once, then a third later: one report.
    const runs = await Promise.all([runReportSchedule(t.db, now), runReportSchedule(t.db, now)]);
    const later = await runReportSchedule(t.db, now + 60_000);
    expect(runs.reduce((n, r) => n + r.due, 0) + later.due).toBe(1);
    expect(runs.reduce((n, r) => n + r.made, 0) + later.made).toBe(1);
    const rows = await t.db.query<{ id: number; status: string; start_ts: Date; end_ts: Date; kind: string }>(`SELECT id, status, start_ts, end_ts, kind FROM report WHERE group_id = $1`, [group.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'generated', kind: 'scheduled' });
    expect(new Date(rows[0].end_ts).getTime() - new Date(rows[0].start_ts).getTime()).toBe(DAY);
    // The insert itself is refused a second time by the unique key on group and period.
    await expect(
      t.db.query(`INSERT INTO report (customer_id, group_id, carrier_ids, kind, period, start_ts, end_ts, tz) VALUES ($1, $2, '{}', 'scheduled', 'daily', $3, $4, '+08:00')`, [
        a.customerId,
        group.id,
        rows[0].start_ts,
        rows[0].end_ts,
      ]),
    ).rejects.toThrow();

    const notice = await t.db.one<{ id: number; report_id: number; type: string; recipient: string }>(`SELECT id, report_id, type, recipient FROM notice_log WHERE report_id = $1`, [rows[0].id]);
    expect(notice).toMatchObject({ type: 'report', recipient: 'qa@alpha.test' });
    const notifier = createNotifier(t.db, { smtpUrl: smtp.url, mailFrom: 'console@cold.test' }, { now: () => Date.now() + 1 });
    try {
      expect(await notifier.pass()).toBe(1);
      await notifier.idle();
    } finally {
      notifier.close();
    }
    const sent = await t.db.one<{ status: number }>('SELECT status FROM notice_log WHERE id = $1', [notice!.id]);
    expect(sent!.status).toBe(1);
    const raw = smtp.mails.at(-1)!;
    expect(raw).toMatch(/multipart\/mixed/i);
    const pdf = attachmentOf(raw, 'application/pdf');
    expect(pdf).not.toBeNull();
    expect(pdf!.name).toMatch(/filename.*每日报告.*\.pdf/s);
    expect(pdf!.data.subarray(0, 5).toString()).toBe('%PDF-');
    const text = (await pdfText(pdf!.data)).join('\n');
    expect(text).toContain('疫苗冷藏柜二号');
    expect(text).toContain('每日报告');
  });

  it('is not made for periods that ended before the schedule was set', async () => {
    const group = await call(t, a.cookie, 'POST', '/service/printGroup/addPrintGroup', {
      groupName: 'Monthly',
      carrierIds: [a.carrierId],
      schedule: 'monthly',
      contactIds: [(await call(t, a.cookie, 'POST', '/service/contact/add', { name: 'QB', phone: '13800000005', email: 'qb@alpha.test', groupName: 'day' })).id],
    });
    await runReportSchedule(t.db);
    expect(await t.db.query('SELECT id FROM report WHERE group_id = $1', [group.id])).toHaveLength(0);
  });

  it('is made now on "send now": once per period, mailed by the next run; a group without schedule is refused', async () => {
    const contact = await call(t, a.cookie, 'POST', '/service/contact/add', { name: 'QC', phone: '13800000006', email: 'qc@alpha.test', groupName: 'day' });
    const group = await call(t, a.cookie, 'POST', '/service/printGroup/addPrintGroup', { groupName: 'Weekly now', carrierIds: [a.carrierId], schedule: 'weekly', contactIds: [contact.id] });
    const sent = await call(t, a.cookie, 'POST', `/service/printGroup/send?id=${group.id}`);
    expect(sent).toMatchObject({ created: true });
    expect(sent.endTs - sent.startTs).toBe(7 * DAY);
    expect(await call(t, a.cookie, 'POST', `/service/printGroup/send?id=${group.id}`)).toMatchObject({ reportId: sent.reportId, created: false });
    const r = await runReportSchedule(t.db);
    expect(r.made).toBeGreaterThanOrEqual(1);
    const notices = await t.db.query<{ recipient: string }>('SELECT recipient FROM notice_log WHERE report_id = $1', [sent.reportId]);
    expect(notices.map((n) => n.recipient)).toEqual(['qc@alpha.test']);
    const plain = await call(t, a.cookie, 'POST', '/service/printGroup/addPrintGroup', { groupName: 'Plain', carrierIds: [a.carrierId] });
    const refused = await t.app.inject({ method: 'POST', url: `/service/printGroup/send?id=${plain.id}`, headers: { cookie: a.cookie, 'accept-language': 'en-US' } });
    expect(refused.json().state.msg).toBe('The group has no schedule');
    const b = await t.login('beta');
    expect((await t.app.inject({ method: 'POST', url: `/service/printGroup/send?id=${group.id}`, headers: { cookie: b } })).json().state.code).toBe(404);
  });
});
