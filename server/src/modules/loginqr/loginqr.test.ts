import { createHash } from 'node:crypto';
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

/** A code as a browser gets it: the answer, and the cookie binding the code to that browser. */
const issue = async (url = '/service/mine/loginQrcode/get', cookies: Record<string, string> = {}) => {
  const res = await t.app.inject({ method: 'GET', url, cookies });
  expect(res.json().state.code).toBe(200000);
  const secret = res.cookies.find((c) => c.name === 'cw_qr')!;
  return { ...(res.json().result as { key: string; qrcode: string; expiresAt: number }), browser: { cw_qr: secret.value }, secret };
};
/** A poll of `key` by a client holding `cookies` (the asking browser's, another's, or none). */
const status = (key: string, cookies: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: `/service/mine/loginQrcode/status?key=${encodeURIComponent(key)}`, cookies });
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
    expect((await status(q.key, q.browser)).json().result).toEqual({ status: 'waiting', user: null });
  });

  it('a signed-in user confirms, then the waiting browser is logged in exactly once', async () => {
    const q = await issue();
    const anonymous = await t.app.inject({ method: 'POST', url: `/service/mine/loginQrcode/confirm?key=${q.key}` });
    expect(anonymous.json().state.code).toBe(500100);
    expect((await status(q.key, q.browser)).json().result.status).toBe('waiting');

    expect(await confirm(q.key, mobile)).toMatchObject({ state: { code: 200000 }, result: { status: 'confirmed' } });
    const confirmLog = await t.db.one<any>(`SELECT * FROM sys_log WHERE module = 'loginQr' ORDER BY id DESC LIMIT 1`);
    expect(confirmLog).toMatchObject({ method: 'confirm', operator: 'alpha', result: 1 });
    expect(JSON.stringify(confirmLog.params)).not.toContain(q.key);

    const logsBefore = (await t.db.one<{ n: number }>(`SELECT count(*)::int AS n FROM sys_log WHERE module = 'user' AND method = 'login' AND result = 1`))!.n;
    const res = await status(q.key, q.browser);
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
    const again = await status(q.key, q.browser);
    expect(again.json().result).toEqual({ status: 'expired', user: null });
    expect(again.cookies.find((c) => c.name === 'cw_session')).toBeUndefined();
    const reconfirm = await confirm(q.key, mobile);
    expect(reconfirm.state.code).toBe(500000);
    expect(reconfirm.state.msg).toMatch(/已被使用|already been used/);
  });

  it('the code belongs to the browser that asked: an HTTP-only, strict same-site secret, of which only the hash is stored', async () => {
    const q = await issue();
    expect(q.secret).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/service/mine/loginQrcode', maxAge: LOGIN_QR_TTL_MS / 1000 });
    expect(q.secret.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = await t.db.one<{ secret_hash: string }>(`SELECT secret_hash FROM login_qr WHERE key = $1`, [q.key]);
    expect(row!.secret_hash).toBe(createHash('sha256').update(q.secret.value).digest('hex'));
    expect(JSON.stringify(await t.db.query(`SELECT * FROM login_qr WHERE key = $1`, [q.key]))).not.toContain(q.secret.value);
    // every code has its own secret
    expect((await issue()).secret.value).not.toBe(q.secret.value);
  });

  it('a stolen key logs nobody in: a third party polling it learns nothing, and the asking browser still logs in', async () => {
    const q = await issue();
    const thief = await issue(); // a code of the thief's own: a genuine secret, for another key
    const stolen = (cookies: Record<string, string> = {}) => status(q.key, cookies);
    const seen = async (cookies?: Record<string, string>) => {
      const res = await stolen(cookies);
      expect(res.cookies.find((c) => c.name === 'cw_session')).toBeUndefined();
      return res.json();
    };
    // Before confirmation, after it, and after the login: the same answer as for a key that does not exist.
    const unknown = (await status('no-such-key')).json();
    expect(unknown.state.code).toBe(500000);
    expect(await seen()).toEqual(unknown);
    expect(await seen(thief.browser)).toEqual(unknown);
    expect((await confirm(q.key, mobile)).state.code).toBe(200000);
    expect(await seen()).toEqual(unknown);
    expect(await seen(thief.browser)).toEqual(unknown);
    const last = q.browser.cw_qr.slice(-1);
    expect(await seen({ cw_qr: `${q.browser.cw_qr.slice(0, -1)}${last === 'A' ? 'B' : 'A'}` })).toEqual(unknown);

    // The thief's polls spent nothing: the owner's browser logs in, once.
    const res = await status(q.key, q.browser);
    expect(res.json().result).toMatchObject({ status: 'confirmed', user: { account: 'alpha' } });
    expect(res.cookies.find((c) => c.name === 'cw_session')).toBeTruthy();
    // its secret is done with
    expect(res.cookies.find((c) => c.name === 'cw_qr')).toMatchObject({ value: '', path: '/service/mine/loginQrcode' });
    expect(await seen()).toEqual(unknown);
    expect((await status(q.key, q.browser)).json().result).toEqual({ status: 'expired', user: null });
  });

  it('a key expires after five minutes: it can be neither confirmed nor used', async () => {
    const fresh = await issue();
    await age(fresh.key, LOGIN_QR_TTL_MS - 1000);
    expect((await status(fresh.key, fresh.browser)).json().result.status).toBe('waiting');

    const q = await issue();
    await age(q.key, LOGIN_QR_TTL_MS + 1000);
    expect((await status(q.key, q.browser)).json().result).toEqual({ status: 'expired', user: null });
    const r = await confirm(q.key, mobile);
    expect(r.state.code).toBe(500000);
    expect(r.state.msg).toMatch(/过期|expired/);
    expect((await t.db.one<any>(`SELECT result FROM sys_log WHERE module = 'loginQr' ORDER BY id DESC LIMIT 1`))!.result).toBe(0);

    // confirmed in time, but the browser polls only after the five minutes: no login
    const late = await issue();
    expect((await confirm(late.key, mobile)).state.code).toBe(200000);
    await age(late.key, LOGIN_QR_TTL_MS + 1000);
    const res = await status(late.key, late.browser);
    expect(res.json().result.status).toBe('expired');
    expect(res.cookies.find((c) => c.name === 'cw_session')).toBeUndefined();
  });

  it('refresh ends the old key and gives a new one', async () => {
    const old = await issue();
    const next = await issue(`/service/mine/loginQrcode/refresh?key=${old.key}`, old.browser);
    expect(next.key).not.toBe(old.key);
    expect(next.secret.value).not.toBe(old.secret.value);
    expect(next.qrcode).toMatch(/^data:image\/png;base64,/);
    expect((await status(old.key, old.browser)).json().result.status).toBe('expired');
    expect((await confirm(old.key, mobile)).state.code).toBe(500000);
    expect((await status(next.key, next.browser)).json().result.status).toBe('waiting');
    // only the browser showing a code can end it: another client's refresh leaves it waiting
    const shown = await issue();
    await issue(`/service/mine/loginQrcode/refresh?key=${shown.key}`);
    await issue(`/service/mine/loginQrcode/refresh?key=${shown.key}`, next.browser);
    expect((await status(shown.key, shown.browser)).json().result.status).toBe('waiting');
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
    const res = await t.app.inject({ method: 'GET', url: `/service/mine/loginQrcode/status?key=${q.key}`, headers: { cookie: `${other}; cw_qr=${q.browser.cw_qr}` } });
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
      const res = await status(q.key, q.browser);
      expect(res.json().state.code, what).toBe(500103);
      expect(res.cookies.find((x) => x.name === 'cw_session')).toBeUndefined();
      // the key is spent
      expect((await status(q.key, q.browser)).json().result.status).toBe('expired');
    }
  });
});
