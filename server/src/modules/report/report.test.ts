import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Code } from '@coldwatch/contract';
import { call, requester, withTwoCustomers, type TwoCustomers } from '../shared/records.fixture.js';
import { markForRollup } from '../../ingest/rollup.js';
import { PASSWORD } from '../../../test/helper.js';
import { pdfText, signaturePng } from './pdf.fixture.js';

/*
 * The carrier report PDF and the print groups of spec §7 (docs/reports.md): the report's text
 * read back with pdf.js (the carrier's Chinese name through the embedded subset's ToUnicode
 * map), each printGroup call passing and refused by its §5/§8 rule, and a report signed after
 * review whose file's SHA-256 the system log records, so that one byte changed is detected.
 */

let c: TwoCustomers;
withTwoCustomers((x) => (c = x));
const ask = requester(() => c.t);

const CN_NAME = '疫苗冷藏柜一号';
const DAY = 86_400_000;
const MIN = 60_000;
// Local midnight of 2 November 2026 in +08:00 (the customers' default zone).
const T0 = Date.UTC(2026, 10, 1, 16, 0);

/** POSTs and answers the raw response (a PDF or an envelope). */
const post = (cookie: string, url: string, payload: unknown, lang = 'zh-CN') =>
  c.t.app.inject({ method: 'POST', url, headers: { cookie, 'accept-language': lang }, payload: payload as object });
const reports = async () => Number((await c.t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM report'))!.n);

let seeded = false;
/** A day of A's fridge at 2–8 °C with one excursion to 9.6 °C, handled and signed by alpha (with a signature image). */
async function seed() {
  if (seeded) return;
  seeded = true;
  const { db } = c.t;
  await db.query('UPDATE carrier SET name = $2 WHERE id = $1', [c.a.carrierId, CN_NAME]);
  await db.query('UPDATE sensor SET sample_interval = 600 WHERE id = $1', [c.a.sensorId]);
  const rows: [number, number, number][] = [];
  for (let i = 0; i < 144; i++) {
    const ts = T0 + i * 10 * MIN;
    const base = 5 + 1.5 * Math.sin((i / 144) * Math.PI * 4);
    const v = i >= 60 && i < 66 ? 8.4 + (i - 60) * 0.25 : base;
    rows.push([ts, Math.round(v * 100) / 100, 50 + Math.round(8 * Math.cos(i / 20))]);
  }
  await db.query(
    `INSERT INTO reading (sensor_id, ts, customer_id, temp, hum) SELECT $1, to_timestamp(t / 1000.0), $2, v, h FROM unnest($3::bigint[], $4::real[], $5::real[]) AS x(t, v, h)`,
    [c.a.sensorId, c.a.customerId, rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2])],
  );
  await markForRollup(db, c.a.sensorId, T0, T0 + DAY);
  const png = signaturePng();
  const file = await db.one<{ id: number }>(`INSERT INTO stored_file (customer_id, user_id, kind, mime, size, data) VALUES ($1, $2, 'signature', 'image/png', $3, $4) RETURNING id`, [
    c.a.customerId,
    c.t.tenants.a.userId,
    png.length,
    png,
  ]);
  await db.query('UPDATE app_user SET signature = $2, name = $3 WHERE id = $1', [c.t.tenants.a.userId, String(file!.id), '李质量']);
  const sig = await db.one<{ id: number }>(`INSERT INTO signature_copy (customer_id, sha256, mime, size, data) VALUES ($1, sha256($2), 'image/png', $3, $2) RETURNING id`, [c.a.customerId, png, png.length]);
  const ex = await db.one<{ id: number }>(
    `INSERT INTO exception_record (customer_id, carrier_id, sensor_id, type, category, start_ts, end_ts, duration_s, ongoing, first_value, peak_value, limit_min, limit_max, status, reason, measures)
     VALUES ($1, $2, $3, 'data', 'temp_high', $4, $5, 3600, false, 8.4, 9.65, 2, 8, 1, '门未关好', '关门并复核') RETURNING id`,
    [c.a.customerId, c.a.carrierId, c.a.sensorId, new Date(T0 + 600 * MIN), new Date(T0 + 660 * MIN)],
  );
  await db.query(
    `INSERT INTO exception_handling (customer_id, exception_id, action, user_id, user_account, user_name, meaning, reason, measures, comment, judgement, status_before, status_after, signature_id, signed_at)
     VALUES ($1, $2, 'handle', $3, 'alpha', '张药师', 'reviewed', '门未关好', '关门并复核', '温度已恢复', 'confirmed', 0, 1, $4, $5)`,
    [c.a.customerId, ex!.id, c.t.tenants.a.userId, sig!.id, new Date(T0 + 700 * MIN)],
  );
}

describe('the carrier report', () => {
  it("draws a day of a carrier in Chinese: the carrier's Chinese name reads back from the embedded subset, with figures, the signed step and page n of m", async () => {
    await seed();
    const before = await reports();
    const res = await post(c.a.cookie, '/service/report/carrier', { carrierId: c.a.carrierId, startTime: T0, endTime: T0 + DAY, locale: 'zh-CN' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(String(res.headers['content-disposition'])).toContain(encodeURIComponent(CN_NAME));
    const pdf = res.rawPayload;
    if (process.env.REPORT_PDF_OUT) writeFileSync(`${process.env.REPORT_PDF_OUT}/carrier-report-zh-CN.pdf`, pdf);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // The CJK font is embedded as a subset (a six-letter tag before its name), not the whole 8 MB.
    expect(pdf.toString('latin1')).toMatch(/\/FontName \/[A-Z]{6}\+NotoSansHans-Regular/);
    expect(pdf.length).toBeLessThan(400_000);
    const pages = await pdfText(pdf);
    const text = pages.join('\n');
    expect(text).toContain(CN_NAME);
    expect(text).toContain('Alpha Hospital');
    expect(text).toContain('温湿度监测报告');
    expect(text).toContain('2026-11-02 00:00');
    expect(text).toContain('UTC+08:00');
    expect(text).toContain('平均动力学温度');
    // The excursion with its signed handling step.
    expect(text).toContain('温度过高');
    expect(text).toContain('张药师');
    expect(text).toContain('关门并复核');
    expect(text).toContain('本报告尚未签名');
    pages.forEach((p, i) => expect(p).toContain(`第 ${i + 1} 页，共 ${pages.length} 页`));
    expect(pages[0]).toMatch(/生成于 \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    expect(await reports()).toBe(before + 1);
    // The print is in the system log with the file's SHA-256.
    const log = await c.t.db.one<{ params: { sha256: string; reportId: number } }>(`SELECT params FROM sys_log WHERE module = 'report' AND method = 'carrier' ORDER BY id DESC LIMIT 1`);
    expect(log!.params.sha256).toBe(res.headers['x-report-sha256']);
    // And in the download centre, as the caller's file of kind report.
    const rec = await c.t.db.one<{ kind: string; status: string; sha256: string; name: string }>('SELECT kind, status, sha256, name FROM download_record WHERE key = $1', [res.headers['x-download-key']]);
    expect(rec).toMatchObject({ kind: 'report', status: 'generated', sha256: res.headers['x-report-sha256'] });
    expect(rec!.name).toContain(CN_NAME);
  });

  it('speaks English for an English reader', async () => {
    await seed();
    const res = await post(c.a.cookie, '/service/report/carrier', { carrierId: c.a.carrierId, startTime: T0, endTime: T0 + DAY }, 'en-US');
    expect(res.statusCode).toBe(200);
    if (process.env.REPORT_PDF_OUT) writeFileSync(`${process.env.REPORT_PDF_OUT}/carrier-report-en-US.pdf`, res.rawPayload);
    const pages = await pdfText(res.rawPayload);
    expect(pages.join('\n')).toContain('Mean kinetic temperature');
    expect(pages[0]).toContain(CN_NAME);
    pages.forEach((p, i) => expect(p).toContain(`Page ${i + 1} of ${pages.length}`));
  });

  it('refuses a start after the end, a period over 366 days and a carrier of another customer, making no report', async () => {
    const before = await reports();
    const back = await ask(c.a.cookie, 'POST', '/service/report/carrier', { carrierId: c.a.carrierId, startTime: T0 + DAY, endTime: T0 });
    expect(back.status).toBe(400);
    expect(back.state.msg).toContain('The start cannot be later than the end');
    const long = await ask(c.a.cookie, 'POST', '/service/report/carrier', { carrierId: c.a.carrierId, startTime: T0 - 400 * DAY, endTime: T0 });
    expect(long.status).toBe(400);
    expect(long.state.msg).toContain('A report covers at most 366 days');
    const foreign = await ask(c.b.cookie, 'POST', '/service/report/carrier', { carrierId: c.a.carrierId, startTime: T0, endTime: T0 + DAY });
    expect(foreign.state.code).toBe(Code.NOT_FOUND);
    expect(await reports()).toBe(before);
  });
});

describe('print groups (spec §7 printGroup/*, printer/info)', () => {
  let groupId: number;
  const body = () => ({ groupName: '一号库报告', carrierIds: [c.a.carrierId], schedule: 'none' });

  it('addPrintGroup adds a group; a taken name (§8 existing group), a foreign carrier, a schedule without recipients are refused', async () => {
    const added = await ask(c.a.cookie, 'POST', '/service/printGroup/addPrintGroup', body());
    expect(added.state.code).toBe(Code.OK);
    groupId = added.result.id;
    const again = await ask(c.a.cookie, 'POST', '/service/printGroup/addPrintGroup', body());
    expect(again.state.code).toBe(Code.NAME_EXISTS);
    expect(again.state.msg).toBe('The group name already exists');
    const foreign = await ask(c.a.cookie, 'POST', '/service/printGroup/addPrintGroup', { ...body(), groupName: 'Other', carrierIds: [c.b.carrierId] });
    expect(foreign.state.code).toBe(Code.NOT_FOUND);
    const lonely = await ask(c.a.cookie, 'POST', '/service/printGroup/addPrintGroup', { ...body(), groupName: 'Daily', schedule: 'daily' });
    expect(lonely.status).toBe(400);
    expect(lonely.state.msg).toContain('A scheduled report needs at least one recipient');
    const empty = await ask(c.a.cookie, 'POST', '/service/printGroup/addPrintGroup', { ...body(), groupName: 'Empty', carrierIds: [] });
    expect(empty.status).toBe(400);
    expect(empty.state.msg).toContain('Choose at least one carrier');
  });

  it('list and info answer the caller\'s groups; another customer sees none and gets 404', async () => {
    const list = await call(c.t, c.a.cookie, 'GET', '/service/printGroup/list');
    expect(list).toEqual([expect.objectContaining({ id: groupId, groupName: '一号库报告', carriers: [expect.objectContaining({ id: c.a.carrierId, name: CN_NAME })], schedule: 'none' })]);
    expect(await call(c.t, c.b.cookie, 'GET', '/service/printGroup/list')).toEqual([]);
    expect((await call(c.t, c.a.cookie, 'GET', `/service/printGroup/info?id=${groupId}`)).groupName).toBe('一号库报告');
    expect((await ask(c.b.cookie, 'GET', `/service/printGroup/info?id=${groupId}`)).state.code).toBe(Code.NOT_FOUND);
  });

  it('checkPrintGroup tells whether a name is taken (not by the group itself); it needs a name', async () => {
    const q = (s: string) => ask(c.a.cookie, 'POST', `/service/printGroup/checkPrintGroup?${s}`);
    expect((await q(`groupName=${encodeURIComponent('一号库报告')}`)).result).toEqual({ exists: true });
    expect((await q(`groupName=${encodeURIComponent('一号库报告')}&id=${groupId}`)).result).toEqual({ exists: false });
    expect((await q('groupName=Free')).result).toEqual({ exists: false });
    // B's own namespace: A's name is free there.
    expect((await ask(c.b.cookie, 'POST', `/service/printGroup/checkPrintGroup?groupName=${encodeURIComponent('一号库报告')}`)).result).toEqual({ exists: false });
    expect((await q('groupName=')).status).toBe(400);
  });

  it('save sets carriers, schedule and recipients; a recipient without e-mail or of another customer is refused', async () => {
    const noMail = await call(c.t, c.a.cookie, 'POST', '/service/contact/add', { name: 'NoMail', phone: '13800000002', groupName: 'day' });
    const refused = await ask(c.a.cookie, 'POST', '/service/printGroup/save', { id: groupId, carrierIds: [c.a.carrierId], schedule: 'weekly', contactIds: [noMail.id] });
    expect(refused.state.code).toBe(Code.FAILED);
    expect(refused.state.msg).toBe('A recipient has no e-mail address');
    const foreign = await ask(c.a.cookie, 'POST', '/service/printGroup/save', { id: groupId, carrierIds: [c.a.carrierId], schedule: 'weekly', contactIds: [c.b.contactId] });
    expect(foreign.state.code).toBe(Code.NOT_FOUND);
    const withMail = await call(c.t, c.a.cookie, 'POST', '/service/contact/add', { name: 'QA', phone: '13800000003', email: 'qa@alpha.test', groupName: 'day' });
    const saved = await ask(c.a.cookie, 'POST', '/service/printGroup/save', { id: groupId, carrierIds: [c.a.carrierId], schedule: 'weekly', contactIds: [withMail.id], locale: 'en-US' });
    expect(saved.state.code).toBe(Code.OK);
    const info = await call(c.t, c.a.cookie, 'GET', `/service/printGroup/info?id=${groupId}`);
    expect(info).toMatchObject({ schedule: 'weekly', locale: 'en-US', contacts: [{ id: withMail.id, email: 'qa@alpha.test' }] });
    expect(info.scheduleFrom).toBeGreaterThan(Date.now() - 60_000);
    expect((await ask(c.b.cookie, 'POST', '/service/printGroup/save', { id: groupId, carrierIds: [c.b.carrierId], schedule: 'none' })).state.code).toBe(Code.NOT_FOUND);
  });

  it('updateGroupName renames; a name another group holds is refused', async () => {
    const other = await call(c.t, c.a.cookie, 'POST', '/service/printGroup/addPrintGroup', { ...body(), groupName: 'Second' });
    const taken = await ask(c.a.cookie, 'POST', '/service/printGroup/updateGroupName', { id: other.id, groupName: '一号库报告' });
    expect(taken.state.code).toBe(Code.NAME_EXISTS);
    expect((await ask(c.a.cookie, 'POST', '/service/printGroup/updateGroupName', { id: other.id, groupName: '二号库报告' })).state.code).toBe(Code.OK);
    expect((await call(c.t, c.a.cookie, 'GET', `/service/printGroup/info?id=${other.id}`)).groupName).toBe('二号库报告');
    const tooLong = await ask(c.a.cookie, 'POST', '/service/printGroup/updateGroupName', { id: other.id, groupName: 'x'.repeat(31) });
    expect(tooLong.status).toBe(400);
  });

  it('printer/info tells the paper, font, languages and limits', async () => {
    const info = await call(c.t, c.a.cookie, 'GET', '/service/printer/info');
    expect(info).toMatchObject({ paper: 'A4', languages: ['zh-CN', 'en-US'], schedules: ['none', 'daily', 'weekly', 'monthly'], maxDays: 366, maxCarriers: 20 });
    expect(info.font).toContain('Noto Sans');
    const viewer = await c.t.addUser(c.a.customerId, 'alphaprinter', 'Operator');
    expect(viewer).toBeGreaterThan(0);
    expect((await ask(await c.t.login('alphaprinter'), 'POST', '/service/printGroup/addPrintGroup', { ...body(), groupName: 'Operator' })).state.code).toBe(Code.NO_PERMISSION);
  });

  it('prints a group as one PDF report; a period over the limit is refused', async () => {
    await seed();
    const res = await post(c.a.cookie, '/service/printGroup/print', { id: groupId, startTime: T0, endTime: T0 + DAY });
    expect(res.statusCode).toBe(200);
    const text = (await pdfText(res.rawPayload)).join('\n');
    expect(text).toContain('一号库报告');
    expect(text).toContain(CN_NAME);
    const list = await call(c.t, c.a.cookie, 'GET', '/service/printGroup/list');
    expect(list.find((g: { id: number }) => g.id === groupId).lastReport).toMatchObject({ id: Number(res.headers['x-report-id']), kind: 'print', status: 'generated' });
    const long = await ask(c.a.cookie, 'POST', '/service/printGroup/print', { id: groupId, startTime: T0 - 367 * DAY, endTime: T0 });
    expect(long.status).toBe(400);
    expect((await ask(c.b.cookie, 'POST', '/service/printGroup/print', { id: groupId, startTime: T0, endTime: T0 + DAY })).state.code).toBe(Code.NOT_FOUND);
  });

  it('delete removes groups all or none (their reports stay); an unknown or foreign id is 404', async () => {
    const made = await reports();
    expect((await ask(c.b.cookie, 'DELETE', `/service/printGroup/delete?ids=${groupId}`)).state.code).toBe(Code.NOT_FOUND);
    expect((await ask(c.a.cookie, 'DELETE', `/service/printGroup/delete?ids=${groupId},999999`)).state.code).toBe(Code.NOT_FOUND);
    expect((await ask(c.a.cookie, 'DELETE', `/service/printGroup/delete?ids=${groupId}`)).result).toEqual({ deleted: 1 });
    expect(await reports()).toBe(made);
    const page = await call(c.t, c.a.cookie, 'GET', '/service/report/page?iDisplayStart=0&iDisplayLength=50');
    expect(page.rows.some((r: { groupName: string; groupId: number | null }) => r.groupName === '一号库报告' && r.groupId === null)).toBe(true);
  });
});

describe('signing a report after review', () => {
  it('signs with the password entered again; the signed PDF carries the signature and its SHA-256 is in the system log; one byte changed is detected', async () => {
    await seed();
    const made = await post(c.a.cookie, '/service/report/carrier', { carrierId: c.a.carrierId, startTime: T0, endTime: T0 + DAY });
    const id = Number(made.headers['x-report-id']);
    const wrong = await ask(c.a.cookie, 'POST', '/service/report/sign', { id, meaning: 'reviewed', sign: { account: 'alpha', password: 'wrong-one' } });
    expect(wrong.state.code).toBe(Code.PASSWORD_ERROR);
    const other = await ask(c.a.cookie, 'POST', '/service/report/sign', { id, meaning: 'reviewed', sign: { account: 'beta', password: PASSWORD } });
    expect(other.state.code).toBe(Code.PASSWORD_ERROR);
    expect((await ask(c.a.cookie, 'POST', '/service/report/sign', { id, meaning: 'reviewed' })).state.code).not.toBe(Code.OK);
    expect((await ask(c.b.cookie, 'POST', '/service/report/sign', { id, meaning: 'reviewed', sign: { account: 'beta', password: PASSWORD } })).state.code).toBe(Code.NOT_FOUND);

    const signed = await ask(c.a.cookie, 'POST', '/service/report/sign', { id, meaning: 'approved', comment: '数据完整，批准', sign: { account: 'alpha', password: PASSWORD } });
    expect(signed.state.code).toBe(Code.OK);
    const sha = signed.result.sha256;
    expect(sha).toMatch(/^[0-9a-f]{64}$/);
    expect(sha).not.toBe(made.headers['x-report-sha256']);
    const log = await c.t.db.one<{ params: { sha256: string; signer: string } }>(`SELECT params FROM sys_log WHERE module = 'report' AND method = 'sign' AND result = 1 ORDER BY id DESC LIMIT 1`);
    expect(log!.params).toMatchObject({ sha256: sha, signer: 'alpha' });

    const file = await c.t.app.inject({ method: 'GET', url: `/service/report/download?id=${id}`, headers: { cookie: c.a.cookie } });
    expect(file.headers['x-report-sha256']).toBe(sha);
    if (process.env.REPORT_PDF_OUT) writeFileSync(`${process.env.REPORT_PDF_OUT}/carrier-report-signed-zh-CN.pdf`, file.rawPayload);
    const text = (await pdfText(file.rawPayload)).join('\n');
    expect(text).toContain('批准：李质量 (alpha)');
    expect(text).toContain('数据完整，批准');
    expect(text).toMatch(/报告内容 SHA-256：[0-9a-f]{64}/);

    const verify = async (data: Buffer, cookie = c.a.cookie) => {
      const boundary = '----report';
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="r.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
        data,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await c.t.app.inject({ method: 'POST', url: '/service/report/verify', headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
      return res.json();
    };
    const ok = await verify(file.rawPayload);
    expect(ok.result).toMatchObject({ genuine: true, reportId: id, sha256: sha, superseded: false, signatures: [expect.objectContaining({ meaning: 'approved', userAccount: 'alpha', sha256: sha })] });
    // One byte changed anywhere: another hash, not a report of this console.
    const changed = Buffer.from(file.rawPayload);
    changed[Math.floor(changed.length / 2)] ^= 0x01;
    expect((await verify(changed)).result).toMatchObject({ genuine: false, reportId: null });
    // The unsigned original is genuine but superseded by its signed version.
    expect((await verify(made.rawPayload)).result).toMatchObject({ genuine: true, reportId: id, superseded: true, signatures: [] });
    // Another customer cannot learn of A's report by its file.
    expect((await verify(file.rawPayload, c.b.cookie)).result).toMatchObject({ genuine: false, reportId: null });
    const page = await call(c.t, c.a.cookie, 'GET', '/service/report/page?iDisplayStart=0&iDisplayLength=5');
    expect(page.rows.find((r: { id: number }) => r.id === id)).toMatchObject({ sha256: sha, signatures: [expect.objectContaining({ userName: '李质量', meaning: 'approved' })] });
  });
});
