import { beforeAll, describe, expect, it } from 'vitest';
import { WORK_ORDER_STATUS as S } from '@coldwatch/contract';
import type { TestCtx } from '../../../test/helper.js';
import { PASSWORD } from '../../../test/helper.js';
import { createCustomerWithAdmin } from '../../platform/seed/root.js';
import { call, requester, withTwoCustomers, type Records } from '../shared/records.fixture.js';

/** Work orders (docs/workorders.md): raise to evaluation, steps out of order refused, who sees and acts, the e-mails of each step. */

let t: TestCtx;
let a: Records;
let b: Records;
let admin: string;
withTwoCustomers((c) => ({ t, a, b } = c));
const req = requester(() => t);

const raise = (cookie: string, body: Record<string, unknown> = {}) =>
  call(t, cookie, 'POST', '/service/workOrder/add', { subjectKind: 'sensor', subjectId: a.sensorId, category: 'repair', description: 'AlphaT1 shows no readings', ...body });
/** The interface language by its cookie (spec §1: first), whatever language the user stored. */
const en = (cookie: string) => `${cookie}; lang=en-US`;
const step = (cookie: string, action: string, id: number, extra: Record<string, unknown> = {}) => req(en(cookie), 'PUT', `/service/workOrder/${action}`, { id, ...extra });
const mails = (id: number) =>
  t.db.query<{ recipient: string; subject: string; content: string }>(`SELECT recipient, subject, content FROM notice_log WHERE type = 'workOrder' AND subject ~ $1 ORDER BY id`, [`#${id}[\\]】]`]);

beforeAll(async () => {
  // The platform root and A's administrator have addresses to be told at; root reads English.
  await t.db.query(`UPDATE app_user SET email = 'root@platform.test', locale = 'en-US' WHERE id = $1`, [t.tenants.root.userId]);
  await t.db.query(`UPDATE app_user SET email = 'alpha@alpha.test', locale = 'zh-CN' WHERE account = 'alpha'`);
  admin = await t.login('admin');
});

describe('work orders', () => {
  it('go from raise to evaluation: each step by its side, recorded with who and when, and mailed to the other side', async () => {
    const { id } = await raise(a.cookie);
    const asProvider = await call(t, admin, 'GET', `/service/workOrder/page?iDisplayLength=100&status=${S.pending}`);
    expect(asProvider.rows.map((r: { id: number }) => r.id)).toContain(id);
    expect((await call(t, admin, 'GET', '/service/workOrder/counts')).side).toBe('provider');
    for (const [cookie, action, extra] of [
      [admin, 'accept', {}],
      [admin, 'record', { note: 'Battery replaced' }],
      [admin, 'done', { note: 'Sensor reports again' }],
      [a.cookie, 'confirm', {}],
      [a.cookie, 'evaluate', { rating: 4, note: 'Quick' }],
    ] as const) {
      const r = await step(cookie, action, id, extra);
      expect(r.state.code, `${action}: ${JSON.stringify(r)}`).toBe(200000);
    }
    const d = await call(t, a.cookie, 'GET', `/service/workOrder/detail?id=${id}`);
    expect(d).toMatchObject({ id, status: S.evaluated, rating: 4, subjectKind: 'sensor', subjectName: a.devNo, carrierName: 'AlphaFridge', mySide: 'customer' });
    expect(d.steps.map((s: { action: string; side: string; statusAfter: number }) => [s.action, s.side, s.statusAfter])).toEqual([
      ['raise', 'customer', S.pending],
      ['accept', 'provider', S.accepted],
      ['record', 'provider', S.accepted],
      ['done', 'provider', S.done],
      ['confirm', 'customer', S.confirmed],
      ['evaluate', 'customer', S.evaluated],
    ]);
    expect(d.steps.every((s: { userName: string; at: number }) => s.userName && s.at > Date.now() - 60_000)).toBe(true);
    // The customer's steps go to the platform (no proxy governs A), the provider's to who raised it, each in its language.
    const sent = await mails(id);
    expect(sent.map((m) => m.recipient)).toEqual(['root@platform.test', 'alpha@alpha.test', 'alpha@alpha.test', 'alpha@alpha.test', 'root@platform.test', 'root@platform.test']);
    expect(sent[0].subject).toContain('raised');
    expect(sent[2].content).toContain('Battery replaced');
    expect(sent[3].subject).toContain('标记为已完成');
    expect(sent[5].content).toContain('Rating: 4 of 5');
  });

  it('refuses steps out of order with their messages, and a step by the wrong side', async () => {
    const { id } = await raise(a.cookie);
    const refused = async (cookie: string, action: string, msg: string, extra: Record<string, unknown> = {}) => {
      const r = await step(cookie, action, id, extra);
      expect(r.state, action).toEqual({ code: 500000, msg });
    };
    await refused(a.cookie, 'confirm', 'The work order can be confirmed only after the provider has marked it done');
    await refused(a.cookie, 'evaluate', 'Confirm the work order before evaluating it', { rating: 5 });
    await refused(a.cookie, 'accept', 'Only the service provider (the platform or the governing proxy) can do this');
    await refused(admin, 'done', 'Accept the work order before recording work or marking it done');
    expect((await step(admin, 'accept', id)).state.code).toBe(200000);
    await refused(admin, 'accept', 'This work order has already been accepted, rejected or cancelled');
    await refused(a.cookie, 'cancel', 'A work order can be cancelled only before it is accepted');
    await refused(admin, 'record', 'Please give the reason or the work done');
    expect((await step(admin, 'done', id)).state.code).toBe(200000);
    await refused(admin, 'confirm', 'Only the customer who raised the work order can do this');
    expect((await step(a.cookie, 'confirm', id)).state.code).toBe(200000);
    await refused(a.cookie, 'confirm', 'This work order has already been confirmed');
    for (const rating of [0, 6, 2.5]) {
      const r = await step(a.cookie, 'evaluate', id, { rating });
      expect(r.status).toBe(400);
      expect(r.result.errors).toEqual({ rating: 'The rating is a whole number from 1 to 5' });
    }
    expect((await step(a.cookie, 'evaluate', id, { rating: 5 })).state.code).toBe(200000);
    await refused(a.cookie, 'evaluate', 'This work order has already been evaluated', { rating: 3 });
    // Refusals wrote no step: raise, accept, done, confirm, evaluate.
    expect((await call(t, a.cookie, 'GET', `/service/workOrder/detail?id=${id}`)).steps).toHaveLength(5);
  });

  it('is cancelled by the customer before acceptance, and then no longer accepted; a rejection needs its reason', async () => {
    const first = await raise(a.cookie, { subjectKind: 'carrier', subjectId: a.carrierId, category: 'installation' });
    expect((await step(a.cookie, 'cancel', first.id)).state.code).toBe(200000);
    expect((await step(admin, 'accept', first.id)).state).toEqual({ code: 500000, msg: 'This work order has been cancelled' });
    const second = await raise(a.cookie, { subjectKind: 'gateway', subjectId: a.gatewayId, category: 'other' });
    expect((await step(admin, 'reject', second.id)).state.msg).toBe('Please give the reason or the work done');
    expect((await step(admin, 'reject', second.id, { note: 'Out of warranty' })).state.code).toBe(200000);
    const d = await call(t, a.cookie, 'GET', `/service/workOrder/detail?id=${second.id}`);
    expect(d).toMatchObject({ status: S.rejected, subjectName: a.gatewaySn });
    expect(d.steps[1]).toMatchObject({ action: 'reject', note: 'Out of warranty', side: 'provider' });
  });

  it('is raised on an exception with its carrier; another customer\'s subject is 404', async () => {
    const ex = await t.db.one<{ id: number }>(`INSERT INTO exception_record(customer_id, sensor_id, type, category, start_ts) VALUES ($1, $2, 'data', 'temp_high', now()) RETURNING id`, [a.customerId, a.sensorId]);
    const { id } = await raise(a.cookie, { subjectKind: 'exception', subjectId: ex!.id, category: 'calibration' });
    expect(await call(t, a.cookie, 'GET', `/service/workOrder/detail?id=${id}`)).toMatchObject({ exceptionId: ex!.id, carrierId: a.carrierId, subjectName: 'AlphaFridge · temp_high' });
    const foreign = await req(b.cookie, 'POST', '/service/workOrder/add', { subjectKind: 'sensor', subjectId: a.sensorId, category: 'repair', description: 'x' });
    expect(foreign.status).toBe(404);
    // A provider raises nothing: orders are the customer's.
    const byAdmin = await req(admin, 'POST', '/service/workOrder/add', { subjectKind: 'sensor', subjectId: a.sensorId, category: 'repair', description: 'x' });
    expect(byAdmin.state.msg).toBe('Only the customer who raised the work order can do this');
  });

  it("a proxy governing A provides for A's orders and hears of them; one governing B sees none of them", async () => {
    const proxy = async (account: string, governed: number) => {
      const agency = await createCustomerWithAdmin(t.db, { name: `Agency ${account}`, code: `AG${account.toUpperCase()}`, account: `${account}admin`, password: PASSWORD });
      const role = await t.db.one<{ id: number }>(`INSERT INTO role (customer_id, name, level) VALUES ($1, 'Proxy', -1) RETURNING id`, [agency.customerId]);
      await t.db.query(`INSERT INTO role_func (role_id, func) VALUES ($1, 'viewWorkOrder'), ($1, 'editWorkOrder')`, [role!.id]);
      await t.db.query('INSERT INTO role_proxy_customer (role_id, governed_id) VALUES ($1, $2)', [role!.id, governed]);
      const user = await t.addUser(agency.customerId, account, 'Proxy', -1);
      await t.db.query(`UPDATE app_user SET email = $2 WHERE id = $1`, [user, `${account}@agency.test`]);
      return t.login(account);
    };
    const ofA = await proxy('woagenta', a.customerId);
    const ofB = await proxy('woagentb', b.customerId);
    const { id } = await raise(a.cookie);
    expect((await mails(id)).map((m) => m.recipient)).toEqual(['woagenta@agency.test']);
    expect((await call(t, ofB, 'GET', '/service/workOrder/page?iDisplayLength=100')).rows.map((r: { id: number }) => r.id)).not.toContain(id);
    expect((await step(ofB, 'accept', id)).status).toBe(404);
    expect((await call(t, ofA, 'GET', `/service/workOrder/detail?id=${id}`)).mySide).toBe('provider');
    expect((await step(ofA, 'accept', id)).state.code).toBe(200000);
    expect((await mails(id)).map((m) => m.recipient)).toEqual(['woagenta@agency.test', 'alpha@alpha.test']);
  });

  it('takes JPG or PNG pictures while open, shows them to who sees the order, and refuses other files', async () => {
    const { id } = await raise(a.cookie);
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a0e6b0a80000000049454e44ae426082', 'hex');
    const upload = (cookie: string, name: string, data: Buffer, order = id) => {
      const boundary = 'wo-boundary';
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
        data,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return t.app.inject({ method: 'POST', url: `/service/workOrder/picture?id=${order}`, headers: { cookie: en(cookie), 'content-type': `multipart/form-data; boundary=${boundary}`, 'accept-language': 'en-US' }, payload }).then((r) => r.json());
    };
    const ok = await upload(a.cookie, 'broken.png', png);
    expect(ok.state.code).toBe(200000);
    expect((await upload(a.cookie, 'broken.gif', Buffer.from('GIF89a'))).state.msg).toBe('Only JPG, JPEG or PNG pictures can be uploaded');
    const img = await t.app.inject({ method: 'GET', url: `/service/workOrder/image?id=${ok.result.id}`, headers: { cookie: admin } });
    expect(img.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(img.rawPayload, png)).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: `/service/workOrder/image?id=${ok.result.id}`, headers: { cookie: b.cookie } })).statusCode).toBe(404);
    expect((await step(a.cookie, 'cancel', id)).state.code).toBe(200000);
    expect((await upload(a.cookie, 'late.png', png)).state.msg).toBe('Pictures can be added only while the work order is open');
  });

  it('keeps its steps as written: the database refuses to change or delete one', async () => {
    const { id } = await raise(a.cookie);
    await expect(t.db.query(`UPDATE work_order_step SET note = 'changed' WHERE work_order_id = $1`, [id])).rejects.toThrow(/refused/);
    await expect(t.db.query(`DELETE FROM work_order WHERE id = $1`, [id])).rejects.toThrow(/refused/);
  });

  it("counts the caller's orders by state and those waiting for its side", async () => {
    const mine = await call(t, a.cookie, 'GET', '/service/workOrder/counts');
    const all = await call(t, a.cookie, 'GET', '/service/workOrder/page?iDisplayLength=100');
    expect(mine.side).toBe('customer');
    expect(Object.values(mine.byStatus as Record<string, number>).reduce((x, y) => x + y, 0)).toBe(all.total);
    expect(mine.waiting).toBe((mine.byStatus[S.done] ?? 0) + (mine.byStatus[S.confirmed] ?? 0));
    expect((await call(t, b.cookie, 'GET', '/service/workOrder/counts')).byStatus).toEqual({});
  });
});
