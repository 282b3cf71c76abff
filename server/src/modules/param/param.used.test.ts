import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, translate } from '@coldwatch/contract';
import { setup, PASSWORD, type TestCtx } from '../../../test/helper.js';
import { checkCaptcha, signCaptcha } from '../../platform/auth/captcha.js';
import { expectRefused } from './param.fixture.js';

/*
 * The parameters of /sys/paramsetup added for spec §3 are read by the code they name: each test
 * changes one and sees its effect, and refuses a value out of its range. (The monitoring
 * auto-refresh is read by the browser: web/src/features/databoard/refresh.test.ts; the fault-detection
 * tolerance coefficient by the offline rule: server/src/alarm/offline.test.ts; the alarm volume and
 * count by the device monitor's sound: web/src/features/databoard/alarmSound.test.ts.)
 */

let t: TestCtx;
let root: string;
beforeAll(async () => {
  t = await setup();
  root = await t.login('admin');
}, 180_000);
afterAll(() => t.close());

const en = { 'accept-language': 'en-US' };
const put = (key: string, value: unknown) => t.app.inject({ method: 'PUT', url: '/service/param/update', headers: { cookie: root, ...en }, payload: { key, value } }).then((r) => ({ status: r.statusCode, ...r.json() }));
const login = (account: string, password: string, ip: string, extra: { code?: string; cookies?: Record<string, string> } = {}) =>
  t.app
    .inject({ method: 'POST', url: '/service/user/login', remoteAddress: ip, headers: en, cookies: extra.cookies, payload: { account, password, ...(extra.code === undefined ? {} : { code: extra.code }) } })
    .then((r) => r.json());
const MIN = 60_000;

describe('parameters in use', () => {
  it('verification validity: a picture code lives as many minutes as the parameter says; the picture cookie too', async () => {
    const now = Date.now();
    expect((await put('verification_validity_minutes', 2)).state.code).toBe(200000);
    const short = await signCaptcha(t.db, 'ab12', now);
    expect(await checkCaptcha(t.db, short, 'ab12', now + 3 * MIN)).toBe(false);
    const cookie = (await t.app.inject({ method: 'GET', url: '/service/user/captcha' })).cookies.find((c) => c.name === 'cw_captcha');
    expect(cookie?.maxAge).toBe(120);
    expect((await put('verification_validity_minutes', 10)).state.code).toBe(200000);
    const long = await signCaptcha(t.db, 'ab12', now);
    expect(await checkCaptcha(t.db, long, 'ab12', now + 3 * MIN)).toBe(true);
  });

  it('login verification on: every login needs the picture code, and the login page is told; off: not', async () => {
    await t.addUser(t.tenants.a.customerId, 'verify1');
    expect((await put('login_verification', 'on')).state.code).toBe(200000);
    expect((await t.app.inject({ method: 'GET', url: '/service/user/loginOptions' })).json().result.captcha).toBe(true);
    const refused = await login('verify1', PASSWORD, '10.9.0.1');
    expect(refused.state.code).toBe(Code.LOGIN_FAILED);
    expect(refused.state.msg).toBe(translate('errors.login.emptyCode', 'en-US'));
    const ok = await login('verify1', PASSWORD, '10.9.0.1', { code: 'q2w3', cookies: { cw_captcha: await signCaptcha(t.db, 'q2w3') } });
    expect(ok.state.code).toBe(200000);
    expect((await put('login_verification', 'off')).state.code).toBe(200000);
    expect((await t.app.inject({ method: 'GET', url: '/service/user/loginOptions' })).json().result.captcha).toBe(false);
    expect((await login('verify1', PASSWORD, '10.9.0.2')).state.code).toBe(200000);
  });

  it('wrong passwords before the picture code: the account asks for it after as many as the parameter says', async () => {
    await t.addUser(t.tenants.a.customerId, 'verify2');
    await t.addUser(t.tenants.a.customerId, 'verify3');
    expect((await put('login_verification_after', 2)).state.code).toBe(200000);
    for (const ip of ['10.9.1.1', '10.9.1.2']) expect((await login('verify2', 'guess', ip)).state.code).toBe(Code.PASSWORD_ERROR);
    expect((await login('verify2', PASSWORD, '10.9.1.3')).state.msg).toBe(translate('errors.signIn.captchaRequired', 'en-US'));
    expect((await put('login_verification_after', 3)).state.code).toBe(200000);
    for (const ip of ['10.9.2.1', '10.9.2.2']) expect((await login('verify3', 'guess', ip)).state.code).toBe(Code.PASSWORD_ERROR);
    expect((await login('verify3', PASSWORD, '10.9.2.3')).state.code).toBe(200000);
  });

  it('refuses each out of its range with its message, and keeps the value', async () => {
    const bad = [
      ['verification_validity_minutes', 0, 'errors.param.validityMinutes'],
      ['verification_validity_minutes', 31, 'errors.param.validityMinutes'],
      ['login_verification', 'yes', 'errors.param.onOff'],
      ['login_verification_after', 0, 'errors.param.verificationAfter'],
      ['login_verification_after', 101, 'errors.param.verificationAfter'],
      ['monitor_refresh_seconds', 9, 'errors.param.refreshSeconds'],
      ['monitor_refresh_seconds', 3601, 'errors.param.refreshSeconds'],
      ['monitor_refresh_seconds', 12.5, 'errors.param.refreshSeconds'],
      ['fault_tolerance_coefficient', 0, 'errors.param.toleranceCoefficient'],
      ['fault_tolerance_coefficient', 21, 'errors.param.toleranceCoefficient'],
      ['alarm_volume', 101, 'errors.param.alarmVolume'],
      ['alarm_volume', -1, 'errors.param.alarmVolume'],
      ['alarm_count', 11, 'errors.param.alarmCount'],
    ] as const;
    await expectRefused(put, bad);
    expect((await put('monitor_refresh_seconds', 120)).state.code).toBe(200000);
    expect((await put('fault_tolerance_coefficient', 4)).state.code).toBe(200000);
    expect((await put('alarm_volume', 0)).state.code).toBe(200000);
    expect((await put('alarm_count', 10)).state.code).toBe(200000);
    const read = await t.app.inject({ method: 'GET', url: '/service/share/param', headers: { cookie: await t.login('alpha') } });
    expect(read.json().result.monitor_refresh_seconds).toBe('120');
  });
});
