import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../../test/helper.js';
import { startAlarm, type Alarm } from '../../alarm/index.js';
import { ingest, site } from '../../alarm/testkit.js';

const T0 = Date.UTC(2024, 10, 22, 0, 0, 0);
const at = (min: number) => T0 + min * 60_000;

let t: TestCtx;
let alarm: Alarm;

beforeAll(async () => {
  t = await setup();
  alarm = startAlarm({ db: t.db, bus: t.bus, config: t.config }, { pollMs: 60_000 });
  const a = await site(t.db, t.tenants.a.customerId, { name: 'Alpha Fridge', emails: ['ops@alpha.test', 'boss@alpha.test'] });
  const b = await site(t.db, t.tenants.b.customerId, { name: 'Beta Fridge', emails: ['ops@beta.test'] });
  await ingest(t.db, a, [[at(0), 5], [at(1), 9], [at(2), 5], [at(3), 1]]);
  await ingest(t.db, b, [[at(0), 5], [at(1), 9]]);
  await alarm.drain();
  // A captcha notice still waiting, to show the type and status filters.
  await t.db.query(`INSERT INTO notice_log (customer_id, type, channel, recipient, content, next_attempt_at) VALUES ($1, 'captcha', 'sms', '13800000000', 'code 1234', now() + interval '1 day')`, [
    t.tenants.a.customerId,
  ]);
}, 180_000); // building the app (migrations, three argon2 hashes) is slow on a busy machine
afterAll(async () => {
  await alarm?.stop();
  await t?.close();
});

const page = async (q: string, account: string) =>
  (await t.app.inject({ method: 'GET', url: `/service/notice/page?${q}`, headers: { cookie: await t.login(account) } })).json();

describe('notice log API', () => {
  it('lists the caller\'s notices newest first with what was sent and how it went', async () => {
    const r = (await page('iDisplayStart=0&iDisplayLength=15', 'alpha')).result;
    expect(r.total).toBe(5);
    expect(r.rows[0]).toMatchObject({ type: 'captcha', channel: 'sms', status: 0 });
    const mail = r.rows.find((x: any) => x.channel === 'email');
    expect(mail).toMatchObject({
      type: 'alarm', status: 2, attempts: 1, result: 'SMTP_URL not configured', sendTime: null,
      customerId: t.tenants.a.customerId, customerName: 'Alpha Hospital',
    });
    expect(mail.subject).toContain('Alpha Fridge');
    expect(mail.content).toContain('Alpha Fridge');
    expect(typeof mail.createdAt).toBe('number');
    expect(typeof mail.exceptionId).toBe('number');
  });

  it('filters by type, channel, status, recipient and exception', async () => {
    const n = async (q: string) => (await page(q, 'alpha')).result.total;
    expect(await n('type=alarm')).toBe(4);
    expect(await n('channel=sms')).toBe(1);
    expect(await n('status=2')).toBe(4);
    expect(await n('status=0')).toBe(1);
    expect(await n('recipient=boss')).toBe(2);
    const [ex] = await t.db.query(`SELECT exception_id FROM notice_log WHERE recipient = 'boss@alpha.test' ORDER BY id LIMIT 1`);
    expect(await n(`exceptionId=${ex.exception_id}`)).toBe(2);
    expect((await t.app.inject({ method: 'GET', url: '/service/notice/page?type=fax', headers: { cookie: await t.login('alpha') } })).statusCode).toBe(400);
  });

  it('keeps customers apart', async () => {
    const r = (await page('iDisplayLength=100', 'beta')).result;
    expect(r.total).toBe(1);
    expect(r.rows[0].recipient).toBe('ops@beta.test');
    const all = (await page('iDisplayLength=100', 'admin')).result;
    expect(all.total).toBe(6);
  });
});
