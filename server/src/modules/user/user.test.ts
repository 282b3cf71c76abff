import { createHash } from 'node:crypto';
import { signCaptcha } from '../../platform/auth/captcha.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, PASSWORD, type TestCtx } from '../../../test/helper.js';

let t: TestCtx;
beforeAll(async () => {
  t = await setup();
});
afterAll(() => t.close());

describe('login', () => {
  it('logs in with the right password and returns the envelope', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/service/user/login', payload: { account: 'alpha', password: PASSWORD } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.state.code).toBe(200000);
    expect(body.result.user.account).toBe('alpha');
    expect(body.result.user).not.toHaveProperty('password_hash');
    const cookie = res.cookies.find((c) => c.name === 'cw_session')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
  });

  it('answers 500087 for an unknown account and 500088 for a wrong password', async () => {
    const a = await t.app.inject({ method: 'POST', url: '/service/user/login', payload: { account: 'nobody', password: 'x' } });
    expect(a.json().state.code).toBe(500087);
    const b = await t.app.inject({ method: 'POST', url: '/service/user/login', payload: { account: 'alpha', password: 'wrong' }, headers: { 'accept-language': 'en-US' } });
    expect(b.json().state).toEqual({ code: 500088, msg: 'Password error' });
  });

  it('speaks Chinese by default and English when the cookie says so', async () => {
    const zh = await t.app.inject({ method: 'POST', url: '/service/user/login', payload: { account: 'nobody', password: 'x' } });
    expect(zh.json().state.msg).toBe('账号不存在');
    const en = await t.app.inject({ method: 'POST', url: '/service/user/login', payload: { account: 'nobody', password: 'x' }, cookies: { lang: 'en_US' } });
    expect(en.json().state.msg).toBe('Account does not exist');
  });

  it('rejects an empty body with 400 and a field message', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/service/user/login', payload: {}, headers: { 'accept-language': 'en' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().state.code).toBe(400);
    expect(res.json().result.errors.account).toBe('Please enter the username');
  });

  it('guards /service calls: 401 with 500100 without a session, page info with one', async () => {
    const anon = await t.app.inject({ method: 'GET', url: '/service/mine/pageInfo' });
    expect(anon.statusCode).toBe(401);
    expect(anon.json().state.code).toBe(500100);
    const cookie = await t.login('alpha');
    const res = await t.app.inject({ method: 'GET', url: '/service/mine/pageInfo', headers: { cookie } });
    const r = res.json().result;
    expect(r.funcs).toContain('viewCarrier');
    expect(r.auths.newCarrier).toBe(true);
    expect(r.userRsp.customerName).toBe('Alpha Hospital');
  });

  it('checks the session and the function before the body: 500100 and 500102 win over 400', async () => {
    const anon = await t.app.inject({ method: 'POST', url: '/service/carrier/add', payload: { name: '' } });
    expect(anon.json().state.code).toBe(500100);
    await t.db.query(
      `INSERT INTO app_user(customer_id, account, name, password_hash, user_type, is_admin)
       SELECT customer_id, 'alpha_viewer', 'Viewer', password_hash, 0, false FROM app_user WHERE account = 'alpha'`,
    );
    const viewer = await t.login('alpha_viewer');
    const denied = await t.app.inject({ method: 'POST', url: '/service/carrier/add', payload: { name: '' }, headers: { cookie: viewer } });
    expect(denied.json().state.code).toBe(500102);
    const admin = await t.login('alpha');
    const invalid = await t.app.inject({ method: 'POST', url: '/service/carrier/add', payload: { name: '' }, headers: { cookie: admin } });
    expect(invalid.json().state.code).toBe(400);
  });

  it('ends the session on logout (POST; the GET alias only from the console\'s own pages)', async () => {
    const info = (cookie: string) => t.app.inject({ method: 'GET', url: '/service/mine/info', headers: { cookie } }).then((r) => r.json().state.code);
    const a = await t.login('alpha');
    // A link on another site cannot sign the user out.
    const crossSite = await t.app.inject({ method: 'GET', url: '/service/user/logout', headers: { cookie: a, 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.statusCode).toBe(403);
    expect(await info(a)).toBe(200000);
    await t.app.inject({ method: 'POST', url: '/service/user/logout', headers: { cookie: a } });
    expect(await info(a)).toBe(500100);
    const b = await t.login('alpha');
    await t.app.inject({ method: 'GET', url: '/service/user/logout', headers: { cookie: b, 'sec-fetch-site': 'same-origin' } });
    expect(await info(b)).toBe(500100);
  });

  it('stores only the hash of a session token', async () => {
    const cookie = await t.login('beta');
    const token = cookie.split('=')[1].split(';')[0];
    const rows = await t.db.query<{ token: string }>('SELECT token FROM user_session');
    expect(rows.some((r) => r.token === token)).toBe(false);
    expect(rows.some((r) => r.token === createHash('sha256').update(token).digest('hex'))).toBe(true);
  });

  it('sets Secure cookies when the request came over HTTPS through a trusted proxy', async () => {
    const c = await setup({ TRUST_PROXY: 'true' });
    try {
      const over = (proto: string) =>
        c.app.inject({ method: 'POST', url: '/service/user/login', headers: { 'x-forwarded-proto': proto }, payload: { account: 'alpha', password: PASSWORD } });
      expect((await over('https')).cookies.find((k) => k.name === 'cw_session')!.secure).toBe(true);
      expect((await over('http')).cookies.find((k) => k.name === 'cw_session')!.secure).toBeFalsy();
    } finally {
      await c.close();
    }
  });

  it('requires the captcha when LOGIN_CAPTCHA is on', async () => {
    const c = await setup({ LOGIN_CAPTCHA: 'on' });
    try {
      const res = await c.app.inject({ method: 'POST', url: '/service/user/login', payload: { account: 'alpha', password: PASSWORD } });
      expect(res.json().state.code).toBe(500103);
      const img = await c.app.inject({ method: 'GET', url: '/service/user/captcha' });
      expect(img.headers['content-type']).toContain('image/svg+xml');
      expect(img.cookies.find((k) => k.name === 'cw_captcha')!.value).toMatch(/^[\w-]+\.\d+\.[\w-]+\.[\w-]+$/);
      // The picture's text cannot be read back; a code signed the same way with a known answer stands in.
      const answer = 'k7pq';
      const id = await signCaptcha(c.db, answer);
      const good = await c.app.inject({ method: 'POST', url: '/service/user/login', payload: { account: 'alpha', password: PASSWORD, code: answer.toUpperCase() }, cookies: { cw_captcha: id } });
      expect(good.json().state.code).toBe(200000);
      const replay = await c.app.inject({ method: 'POST', url: '/service/user/login', payload: { account: 'alpha', password: PASSWORD, code: answer }, cookies: { cw_captcha: id } });
      expect(replay.json().state.code).toBe(500103);
    } finally {
      await c.close();
    }
  });
});
