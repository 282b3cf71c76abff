import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EX_LINK_TTL_MS } from '@coldwatch/contract';
import { PASSWORD, setup, type TestCtx } from '../../../test/helper.js';
import { signExceptionLink } from '../../alarm/exceptionLink.js';

/*
 * /exDetail (spec §2, no sign-in) through its signed, expiring link: the one exception it
 * names, nothing of another, nothing after expiry or after any change to the token (401 with
 * a message saying which).
 */

let t: TestCtx;
let alpha: string;
let exA: number;
let exB: number;
const en = { 'accept-language': 'en-US' };

beforeAll(async () => {
  t = await setup({ PUBLIC_URL: 'https://cold.example.org/' });
  alpha = await t.login('alpha');
  const ins = (customerId: number, peak: number) =>
    t.db.one<{ id: number }>(
      `INSERT INTO exception_record (customer_id, type, category, status, ongoing, start_ts, end_ts, duration_s, first_value, peak_value, limit_min, limit_max)
       VALUES ($1, 'data', 'temp_high', 0, false, now() - interval '2 hours', now() - interval '1 hour', 3600, 8.4, $2, 2, 8) RETURNING id`,
      [customerId, peak],
    );
  exA = (await ins(t.tenants.a.customerId, 11.5))!.id;
  exB = (await ins(t.tenants.b.customerId, 27.25))!.id;
  await t.db.query(`INSERT INTO notice_log (customer_id, exception_id, type, channel, recipient, content) VALUES ($1, $2, 'alarm', 'email', 'qa@alpha.test', 'x'), ($1, $2, 'alarm', 'email', 'ops@alpha.test', 'x')`, [
    t.tenants.a.customerId,
    exA,
  ]);
  const reason = (await t.db.one<{ id: number }>(`SELECT id FROM ex_catalog WHERE customer_id = $1 AND code = 'defrost'`, [t.tenants.a.customerId]))!.id;
  const res = await t.app.inject({
    method: 'PUT', url: '/service/exception/handle', headers: { cookie: alpha, ...en },
    payload: { ids: [exA], reasonId: reason, measures: 'Waited for the defrost cycle to end', judgement: 'suspected', sign: { account: 'alpha', password: PASSWORD } },
  });
  expect(res.json().state.code).toBe(200000);
}, 180_000);
afterAll(() => t?.close());

const shared = (token: string) => t.app.inject({ method: 'GET', url: `/service/exception/shared?token=${encodeURIComponent(token)}`, headers: en });

describe('the /exDetail link', () => {
  it('is made on PUBLIC_URL by a user who may view the exception, for 7 days, and logged', async () => {
    const before = Date.now();
    const r = (await t.app.inject({ method: 'GET', url: `/service/exception/link?id=${exA}`, headers: { cookie: alpha } })).json().result;
    expect(r.url).toMatch(new RegExp(`^https://cold\\.example\\.org/exDetail\\?token=${exA}\\.${t.tenants.a.customerId}\\.\\d+\\.[\\w-]+$`));
    expect(r.expiresAt).toBeGreaterThanOrEqual(before + EX_LINK_TTL_MS);
    expect(r.expiresAt).toBeLessThanOrEqual(Date.now() + EX_LINK_TTL_MS);
    expect(await t.db.one(`SELECT result FROM sys_log WHERE module = 'exception' AND method = 'link' ORDER BY id DESC LIMIT 1`)).toEqual({ result: 1 });
    const beta = await t.login('beta');
    expect((await t.app.inject({ method: 'GET', url: `/service/exception/link?id=${exA}`, headers: { cookie: beta } })).statusCode).toBe(404);
  });

  it('opens without a session: the exception\'s facts, values, signed steps and notice count, and no identifiers', async () => {
    const { token, exp } = await signExceptionLink(t.db, exA, t.tenants.a.customerId);
    const res = await shared(token);
    expect(res.statusCode).toBe(200);
    const r = res.json().result;
    expect(r).toMatchObject({
      id: exA, customerName: 'Alpha Hospital', category: 'temp_high', status: 1, ongoing: false, firstValue: 8.4, peakValue: 11.5, limitMin: 2, limitMax: 8,
      reason: 'Defrost cycle', measures: 'Waited for the defrost cycle to end', judgement: 'suspected', noticeCount: 2, timeZone: '+08:00', expiresAt: exp,
    });
    expect(r.steps).toEqual([expect.objectContaining({ action: 'handle', meaning: 'reviewed', userAccount: 'alpha', reason: 'Defrost cycle' })]);
    for (const key of ['customerId', 'carrierId', 'sensorId', 'gatewayId', 'reasonId']) expect(r).not.toHaveProperty(key);
    expect(r.steps[0]).not.toHaveProperty('userId');
    expect(res.body).not.toContain('qa@alpha.test');
  });

  it('with a token for exception A never shows B, whatever part is changed', async () => {
    const { token } = await signExceptionLink(t.db, exA, t.tenants.a.customerId);
    const [, cid, exp, mac] = token.split('.');
    for (const forged of [`${exB}.${cid}.${exp}.${mac}`, `${exB}.${t.tenants.b.customerId}.${exp}.${mac}`, `${exA}.${cid}.${Number(exp) + 86_400_000}.${mac}`, `${exA}.${cid}.${exp}.${mac.slice(0, -2)}AA`, token.slice(0, -1), `${token}.1`, 'nonsense']) {
      const res = await shared(forged);
      expect(res.statusCode, forged).toBe(401);
      expect(res.json().state).toEqual({ code: 500000, msg: 'This exception link is not valid: it was changed, cut short or made by another console' });
      expect(res.body).not.toContain('27.25');
    }
    // B's own genuine token shows B only.
    const b = await signExceptionLink(t.db, exB, t.tenants.b.customerId);
    expect((await shared(b.token)).json().result).toMatchObject({ id: exB, peakValue: 27.25, customerName: 'Beta Clinic' });
  });

  it('a token naming another customer than its exception\'s shows nothing', async () => {
    const { token } = await signExceptionLink(t.db, exB, t.tenants.a.customerId);
    const res = await shared(token);
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('27.25');
  });

  it('answers 401 with a message once expired', async () => {
    const { token } = await signExceptionLink(t.db, exA, t.tenants.a.customerId, Date.now() - EX_LINK_TTL_MS - 1000);
    const res = await shared(token);
    expect(res.statusCode).toBe(401);
    expect(res.json().state).toEqual({ code: 500000, msg: 'This exception link has expired (links work for 7 days): sign in to see the exception' });
  });
});
