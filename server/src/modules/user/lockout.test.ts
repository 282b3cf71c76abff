import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@coldwatch/contract';
import { setup, PASSWORD, type TestCtx } from '../../../test/helper.js';
import { FREE_FAILURES, lockSeconds } from '../../platform/auth/login.js';

/*
 * Sign-in under attack (issue 8): after five wrong passwords in a row an account is locked for
 * a growing time and refused even with the right password; a client address is limited in how
 * many sign-in calls it makes a minute (login, captcha, registration, login QR).
 */

let t: TestCtx;
beforeAll(async () => {
  t = await setup({ LOGIN_RATE_LIMIT: '12' });
}, 180_000);
afterAll(() => t.close());

const login = (account: string, password: string, ip = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/service/user/login', remoteAddress: ip, headers: { 'accept-language': 'en-US' }, payload: { account, password } });

describe('login lockout', () => {
  it('locks an account after five wrong passwords; the right one is refused until the lock passes', async () => {
    for (let i = 0; i < FREE_FAILURES; i++) expect((await login('beta', 'wrong1', `10.1.0.${i}`)).json().state.code).toBe(Code.PASSWORD_ERROR);
    // The fifth failure in a row leaves the account usable; the sixth locks it.
    const sixth = await login('beta', 'wrong1', '10.1.1.1');
    expect(sixth.json().state.code).toBe(Code.PASSWORD_ERROR);
    const locked = await login('beta', PASSWORD, '10.1.1.2');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().state.code).toBe(Code.LOGIN_FAILED);
    expect(locked.json().state.msg).toMatch(/^Too many wrong passwords: this account is locked, try again in \d+ s$/);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // When the lock has passed, the right password works and clears the count.
    await t.db.query(`UPDATE app_user SET locked_until = now() - interval '1 second' WHERE account = 'beta'`);
    expect((await login('beta', PASSWORD, '10.1.1.3')).json().state.code).toBe(Code.OK);
    expect(await t.db.one(`SELECT failed_logins, locked_until FROM app_user WHERE account = 'beta'`)).toEqual({ failed_logins: 0, locked_until: null });
  });

  it('the lock grows with every further failure, up to fifteen minutes', () => {
    expect([6, 7, 8, 20].map(lockSeconds)).toEqual([30, 60, 120, 900]);
  });

  it('another account is not affected', async () => {
    expect((await login('alpha', PASSWORD, '10.2.0.1')).json().state.code).toBe(Code.OK);
  });
});

describe('per-address limit', () => {
  it('answers 429 with Retry-After once an address made too many sign-in calls in a minute; another address is not limited', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 14; i++) codes.push((await login('nobody', 'x', '10.9.9.9')).statusCode);
    expect(codes.slice(0, 12).every((c) => c === 200)).toBe(true);
    expect(codes.slice(12)).toEqual([429, 429]);
    const limited = await login('nobody', 'x', '10.9.9.9');
    expect(limited.json().state.msg).toBe('Too many requests, please wait a moment');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login('nobody', 'x', '10.9.9.8')).statusCode).toBe(200);
  });
});
