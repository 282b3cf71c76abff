import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@coldwatch/contract';
import { setup, PASSWORD, type TestCtx } from '../../../test/helper.js';
import { signCaptcha } from '../../platform/auth/captcha.js';
import { ACCOUNT_CAPTCHA_AFTER, clientAddress, FREE_FAILURES, lockSeconds, QR_POLL_TIMES } from '../../platform/auth/login.js';

/*
 * Sign-in under attack: a client address has one bucket of sign-in calls a minute across every
 * sign-in route; wrong passwords lock the address they come from out of the account, not the
 * account; an account guessed at from many addresses asks for a picture code instead of locking.
 */

const LIMIT = 20;
let t: TestCtx;
beforeAll(async () => {
  t = await setup({ LOGIN_RATE_LIMIT: String(LIMIT) });
}, 180_000);
afterAll(() => t.close());

const en = { 'accept-language': 'en-US' };
const login = (account: string, password: string, ip: string, extra: { code?: string; cookies?: Record<string, string>; url?: string } = {}) =>
  t.app.inject({
    method: 'POST',
    url: extra.url ?? '/service/user/login',
    remoteAddress: ip,
    headers: en,
    cookies: extra.cookies,
    payload: { account, password, ...(extra.code === undefined ? {} : { code: extra.code }) },
  });
const code = (res: { json(): any }) => res.json().state.code as number;
let n = 0;
/** A user of its own per test: the counts of one test do not reach another's. */
const victim = async () => {
  const account = `victim${++n}`;
  await t.addUser(t.tenants.a.customerId, account);
  return account;
};

describe('wrong passwords lock the address they come from, not the account', () => {
  it('five in a row are free; from the sixth that address is refused, even the right password, with Retry-After', async () => {
    const account = await victim();
    for (let i = 0; i < FREE_FAILURES; i++) expect(code(await login(account, 'wrong1', '10.1.0.1'))).toBe(Code.PASSWORD_ERROR);
    expect(code(await login(account, 'wrong1', '10.1.0.1'))).toBe(Code.PASSWORD_ERROR);
    const locked = await login(account, PASSWORD, '10.1.0.1');
    expect(locked.statusCode).toBe(429);
    expect(code(locked)).toBe(Code.LOGIN_FAILED);
    expect(locked.json().state.msg).toMatch(/^Too many wrong passwords from this address: this account is locked here, try again in \d+ s$/);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // When the lock has passed, the right password works from there and clears that address's count.
    await t.db.query(`UPDATE login_failure SET locked_until = now() - interval '1 second' WHERE address = '10.1.0.1'`);
    expect(code(await login(account, PASSWORD, '10.1.0.1'))).toBe(Code.OK);
    expect(await t.db.query(`SELECT * FROM login_failure WHERE address = '10.1.0.1'`)).toEqual([]);
  });

  it("an attacker's address failing ten times does not stop the rightful user at another address", async () => {
    const account = await victim();
    const answers: number[] = [];
    for (let i = 0; i < 10; i++) answers.push((await login(account, `guess${i}`, '10.2.0.66')).statusCode);
    // the attacker is locked out after its sixth wrong password ...
    expect(answers).toEqual([200, 200, 200, 200, 200, 200, 429, 429, 429, 429]);
    // ... the user, at home, is not: no lock, no picture code
    const home = await login(account, PASSWORD, '10.2.0.1');
    expect(code(home)).toBe(Code.OK);
    expect(home.cookies.find((c) => c.name === 'cw_session')).toBeTruthy();
    // and the attacker stays locked out
    expect((await login(account, PASSWORD, '10.2.0.66')).statusCode).toBe(429);
    // every wrong password is in the system log, with the address it came from
    const rows = await t.db.query<{ ip: string }>(`SELECT ip FROM sys_log WHERE module = 'user' AND method = 'login' AND result = 0 AND params->>'account' = $1`, [account]);
    expect(rows.length).toBe(FREE_FAILURES + 1);
    expect(rows.every((r) => r.ip === '10.2.0.66')).toBe(true);
  });

  it('the lock grows with every further failure, up to fifteen minutes', () => {
    expect([6, 7, 8, 20].map(lockSeconds)).toEqual([30, 60, 120, 900]);
  });
});

describe('an account guessed at from many addresses', () => {
  it('asks every login of it for a correct picture code (LOGIN_CAPTCHA off too) instead of locking', async () => {
    expect(t.config.loginCaptcha).toBe(false);
    const account = await victim();
    for (let i = 0; i < ACCOUNT_CAPTCHA_AFTER - 1; i++) expect(code(await login(account, 'guess', `10.3.1.${i}`))).toBe(Code.PASSWORD_ERROR);
    // below the threshold nobody is asked
    expect(code(await login(account, PASSWORD, '10.3.0.1'))).toBe(Code.OK);
    expect(code(await login(account, 'guess', '10.3.1.99'))).toBe(Code.PASSWORD_ERROR);

    // at it, every caller is: the attacker's next address and the rightful user alike, whatever the password
    for (const [ip, password] of [['10.3.1.100', 'guess'], ['10.3.0.2', PASSWORD]]) {
      const asked = await login(account, password, ip);
      expect(asked.statusCode).toBe(200);
      expect(code(asked)).toBe(Code.LOGIN_FAILED);
      expect(asked.json().state.msg).toBe('This account has had many wrong passwords: please enter the verification code');
      expect(asked.json().result.errors).toEqual({ code: 'This account has had many wrong passwords: please enter the verification code' });
      expect(asked.cookies.find((c) => c.name === 'cw_session')).toBeUndefined();
    }
    // a wrong code is refused, and a code is good for one try
    const wrong = await signCaptcha(t.db, 'k7pq');
    expect(code(await login(account, PASSWORD, '10.3.0.2', { code: 'xxxx', cookies: { cw_captcha: wrong } }))).toBe(Code.LOGIN_FAILED);
    expect(code(await login(account, PASSWORD, '10.3.0.2', { code: 'k7pq', cookies: { cw_captcha: wrong } }))).toBe(Code.LOGIN_FAILED);
    // with a correct one the rightful user signs in, on either login path
    const good = await login(account, PASSWORD, '10.3.0.2', { code: 'k7pq', cookies: { cw_captcha: await signCaptcha(t.db, 'k7pq') } });
    expect(code(good)).toBe(Code.OK);
    expect(good.cookies.find((c) => c.name === 'cw_session')).toBeTruthy();
    expect(code(await login(account, PASSWORD, '10.3.0.3', { url: '/api/home/login', code: 'm3nx', cookies: { cw_captcha: await signCaptcha(t.db, 'm3nx') } }))).toBe(Code.OK);
    // while a guess with a solved code is just a wrong password, counted
    expect(code(await login(account, 'guess', '10.3.1.101', { code: 'w8rt', cookies: { cw_captcha: await signCaptcha(t.db, 'w8rt') } }))).toBe(Code.PASSWORD_ERROR);
    // another account is not affected
    expect(code(await login('alpha', PASSWORD, '10.3.1.102'))).toBe(Code.OK);

    // once the guessing has stopped for an hour, the code is no longer asked for
    await t.db.query(`UPDATE login_failure SET last_failed_at = now() - interval '61 minutes' WHERE user_id = (SELECT id FROM app_user WHERE account = $1)`, [account]);
    expect(code(await login(account, PASSWORD, '10.3.0.4'))).toBe(Code.OK);
  });
});

describe('one per-address bucket across every sign-in route', () => {
  it('the two login paths share it: the 21st attempt across them answers 429 with Retry-After', async () => {
    const ip = '10.9.0.1';
    const codes: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) codes.push((await login('nobody', 'x', ip, { url: i % 2 ? '/api/home/login' : '/service/user/login' })).statusCode);
    expect(codes.slice(0, LIMIT).every((c) => c === 200)).toBe(true);
    expect(codes[LIMIT]).toBe(429);
    const limited = await login('nobody', 'x', ip, { url: '/api/home/login' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().state.msg).toBe('Too many requests, please wait a moment');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // another address is not limited
    expect((await login('nobody', 'x', '10.9.0.2')).statusCode).toBe(200);
  });

  it('picture codes, registration and QR codes draw on it too; the QR status poll has its own, larger one', async () => {
    const ip = '10.9.1.1';
    const call = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, remoteAddress: ip, headers: en, payload });
    const calls = [
      () => call('GET', '/service/user/captcha'),
      () => call('GET', '/service/mine/loginQrcode/get'),
      () => call('GET', '/service/mine/loginQrcode/refresh'),
      () => call('POST', '/service/user/login', { account: 'nobody', password: 'x' }),
      () => call('POST', '/api/home/login', { account: 'nobody', password: 'x' }),
    ];
    for (let i = 0; i < LIMIT; i++) expect((await calls[i % calls.length]()).statusCode).not.toBe(429);
    for (const next of calls) expect((await next()).statusCode).toBe(429);
    expect((await call('POST', '/service/user/register', {})).statusCode).toBe(429);
    // the poll still answers (an unknown key here), until its own allowance is spent
    const poll = () => call('GET', '/service/mine/loginQrcode/status?key=nope');
    for (let i = 0; i < LIMIT * QR_POLL_TIMES; i++) expect((await poll()).statusCode).toBe(200);
    expect((await poll()).statusCode).toBe(429);
  });

  it('registration is limited by the same bucket, counted from its first call', async () => {
    const ip = '10.9.2.1';
    for (let i = 0; i < LIMIT; i++) expect((await t.app.inject({ method: 'POST', url: '/service/user/register', remoteAddress: ip, payload: {} })).statusCode).not.toBe(429);
    expect((await login('nobody', 'x', ip)).statusCode).toBe(429);
  });

  it('an IPv6 client is counted by its /64: rotating addresses within it gains nothing', async () => {
    expect(clientAddress('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientAddress('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientAddress('::1')).toBe('0:0:0:0::/64');
    expect(clientAddress('::ffff:10.0.0.7')).toBe('10.0.0.7');
    expect(clientAddress('10.0.0.7')).toBe('10.0.0.7');
    const codes: number[] = [];
    for (let i = 0; i <= LIMIT; i++) codes.push((await login('nobody', 'x', `2001:db8:9:9::${(i + 1).toString(16)}`)).statusCode);
    expect(codes[LIMIT]).toBe(429);
    expect((await login('nobody', 'x', '2001:db8:9:a::1')).statusCode).toBe(200);
  });
});
