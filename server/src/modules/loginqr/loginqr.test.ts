import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../../test/helper.js';
import { LOGIN_QR_TTL_MS } from './loginqr.repository.js';

let t: TestCtx;
let mobile: string;

beforeAll(async () => {
  t = await setup();
  mobile = await t.login('alpha');
}, 120_000);
afterAll(() => t?.close());

const issue = async (url = '/service/mine/loginQrcode/get') => {
  const res = await t.app.inject({ method: 'GET', url });
  expect(res.json().state.code).toBe(200000);
  return res.json().result as { key: string; qrcode: string; expiresAt: number };
};
const status = (key: string) => t.app.inject({ method: 'GET', url: `/service/mine/loginQrcode/status?key=${encodeURIComponent(key)}` });
const confirm = (key: string, cookie?: string) =>
  t.app.inject({ method: 'POST', url: `/service/mine/loginQrcode/confirm?key=${encodeURIComponent(key)}`, headers: cookie ? { cookie } : {} }).then((r) => r.json());
/** Moves a key's issue and expiry into the past, as if it had been shown `ms` ago. */
const age = (key: string, ms: number) =>
  t.db.query(`UPDATE login_qr SET created_at = created_at - $2 * interval '1 millisecond', expires_at = expires_at - $2 * interval '1 millisecond' WHERE key = $1`, [key, ms]);

describe('login by QR code', () => {
  it('issues a key valid five minutes with a PNG code, without a session', async () => {
    const q = await issue();
    expect(q.key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(q.qrcode).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/=]+$/);
    expect(Buffer.from(q.qrcode.split(',')[1], 'base64').subarray(1, 4).toString()).toBe('PNG');
    const row = await t.db.one<{ ttl: number; created: number }>(
      `SELECT (extract(epoch from expires_at - created_at) * 1000)::int AS ttl, (extract(epoch from created_at) * 1000)::bigint AS created FROM login_qr WHERE key = $1`,
      [q.key],
    );
    expect(row!.ttl).toBe(LOGIN_QR_TTL_MS);
    expect(LOGIN_QR_TTL_MS).toBe(300_000);
    expect(q.expiresAt).toBe(row!.created + LOGIN_QR_TTL_MS);
    expect((await status(q.key)).json().result).toEqual({ status: 'waiting', user: null });
  });

  it('a signed-in user confirms, then the waiting browser is logged in exactly once', async () => {
    const q = await issue();
    const anonymous = await t.app.inject({ method: 'POST', url: `/service/mine/loginQrcode/confirm?key=${q.key}` });
    expect(anonymous.json().state.code).toBe(500100);
    expect((await status(q.key)).json().result.status).toBe('waiting');

    expect(await confirm(q.key, mobile)).toMatchObject({ state: { code: 200000 }, result: { status: 'confirmed' } });
    const confirmLog = await t.db.one<any>(`SELECT * FROM sys_log WHERE module = 'loginQr' ORDER BY id DESC LIMIT 1`);
    expect(confirmLog).toMatchObject({ method: 'confirm', operator: 'alpha', result: 1 });
    expect(JSON.stringify(confirmLog.params)).not.toContain(q.key);

    const logsBefore = (await t.db.one<{ n: number }>(`SELECT count(*)::int AS n FROM sys_log WHERE module = 'user' AND method = 'login' AND result = 1`))!.n;
    const res = await status(q.key);
    const body = res.json();
    expect(body.state.code).toBe(200000);
    expect(body.result.status).toBe('confirmed');
    expect(body.result.user).toMatchObject({ account: 'alpha', customerId: t.tenants.a.customerId });
    expect(body.result.user.password_hash).toBeUndefined();
    const cookie = res.cookies.find((c) => c.name === 'cw_session')!;
    expect(cookie).toBeTruthy();
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    expect(cookie.path).toBe('/');
    const header = String(res.headers['set-cookie']);
    expect(header).toMatch(/HttpOnly/);
    expect(header).toMatch(/SameSite=Lax/);

    // the new session works, as alpha
    const info = await t.app.inject({ method: 'GET', url: '/service/mine/info', headers: { cookie: `cw_session=${cookie.value}` } });
    expect(info.json().result.user.account).toBe('alpha');
    // a login row like the password login's
    const logsAfter = (await t.db.one<{ n: number }>(`SELECT count(*)::int AS n FROM sys_log WHERE module = 'user' AND method = 'login' AND result = 1`))!.n;
    expect(logsAfter).toBe(logsBefore + 1);
    const loginLog = await t.db.one<any>(`SELECT * FROM sys_log WHERE module = 'user' AND method = 'login' ORDER BY id DESC LIMIT 1`);
    expect(loginLog).toMatchObject({ operator: 'alpha', customer_id: t.tenants.a.customerId, user_id: t.tenants.a.userId, result: 1 });

    // single use: the next poll finds nothing to log in with, and the key cannot be confirmed again
    const again = await status(q.key);
    expect(again.json().result).toEqual({ status: 'expired', user: null });
    expect(again.cookies.find((c) => c.name === 'cw_session')).toBeUndefined();
    const reconfirm = await confirm(q.key, mobile);
    expect(reconfirm.state.code).toBe(500000);
    expect(reconfirm.state.msg).toMatch(/已被使用|already been used/);
  });

  it('a key expires after five minutes: it can be neither confirmed nor used', async () => {
    const fresh = await issue();
    await age(fresh.key, LOGIN_QR_TTL_MS - 1000);
    expect((await status(fresh.key)).json().result.status).toBe('waiting');

    const q = await issue();
    await age(q.key, LOGIN_QR_TTL_MS + 1000);
    expect((await status(q.key)).json().result).toEqual({ status: 'expired', user: null });
    const r = await confirm(q.key, mobile);
    expect(r.state.code).toBe(500000);
    expect(r.state.msg).toMatch(/过期|expired/);
    expect((await t.db.one<any>(`SELECT result FROM sys_log WHERE module = 'loginQr' ORDER BY id DESC LIMIT 1`))!.result).toBe(0);

    // confirmed in time, but the browser polls only after the five minutes: no login
    const late = await issue();
    expect((await confirm(late.key, mobile)).state.code).toBe(200000);
    await age(late.key, LOGIN_QR_TTL_MS + 1000);
    const res = await status(late.key);
    expect(res.json().result.status).toBe('expired');
    expect(res.cookies.find((c) => c.name === 'cw_session')).toBeUndefined();
  });

  it('refresh ends the old key and gives a new one', async () => {
    const old = await issue();
    const next = await issue(`/service/mine/loginQrcode/refresh?key=${old.key}`);
    expect(next.key).not.toBe(old.key);
    expect(next.qrcode).toMatch(/^data:image\/png;base64,/);
    expect((await status(old.key)).json().result.status).toBe('expired');
    expect((await confirm(old.key, mobile)).state.code).toBe(500000);
    expect((await status(next.key)).json().result.status).toBe('waiting');
    // refresh without a key (or with an unknown one) still gives a new key
    expect((await issue('/service/mine/loginQrcode/refresh')).key).toBeTruthy();
    expect((await issue('/service/mine/loginQrcode/refresh?key=nope')).key).toBeTruthy();
  });

  it('an unknown key is answered with a clear error', async () => {
    const r = await confirm('no-such-key', mobile);
    expect(r.state.code).toBe(500000);
    expect(r.state.msg).toMatch(/无效|Unknown/);
    expect((await status('no-such-key')).json().state.code).toBe(500000);
    expect((await t.app.inject({ method: 'GET', url: '/service/mine/loginQrcode/status' })).statusCode).toBe(400);
  });

  it("a browser holding another account's session gets the new one; the old session ends", async () => {
    const other = await t.login('beta');
    const q = await issue();
    expect((await confirm(q.key, mobile)).state.code).toBe(200000);
    const res = await t.app.inject({ method: 'GET', url: `/service/mine/loginQrcode/status?key=${q.key}`, headers: { cookie: other } });
    expect(res.json().result.user.account).toBe('alpha');
    expect(res.cookies.find((c) => c.name === 'cw_session')!.value).not.toBe(other.split('=')[1]);
    expect((await t.app.inject({ method: 'GET', url: '/service/mine/info', headers: { cookie: other } })).json().state.code).toBe(500100);
    // the confirming phone stays signed in (single_session is off)
    expect((await t.app.inject({ method: 'GET', url: '/service/mine/info', headers: { cookie: mobile } })).json().state.code).toBe(200000);
  });

  it('a cancelled user or customer cannot log in this way', async () => {
    for (const [what, sql] of [
      ['user', `UPDATE app_user SET status = 0 WHERE account = $1`],
      ['customer', `UPDATE customer SET status = 0 WHERE id = (SELECT customer_id FROM app_user WHERE account = $1)`],
    ] as const) {
      const account = `qr${what}`;
      const customerId = what === 'user' ? t.tenants.a.customerId : t.tenants.b.customerId;
      await t.addUser(customerId, account, 'Operator', 0);
      const c = await t.login(account);
      const q = await issue();
      expect((await confirm(q.key, c)).state.code).toBe(200000);
      await t.db.query(sql, [account]);
      const res = await status(q.key);
      expect(res.json().state.code, what).toBe(500103);
      expect(res.cookies.find((x) => x.name === 'cw_session')).toBeUndefined();
      // the key is spent
      expect((await status(q.key)).json().result.status).toBe('expired');
    }
  });
});
