import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '@coldwatch/contract';
import { setup, type TestCtx } from '../../../test/helper.js';

/** Server-side parameters: `GET /service/share/param`, `PUT /service/param/update` (platform administrators only). */

let t: TestCtx;
let root: string;
let padmin: string;
let alpha: string;

const call = (method: string, url: string, cookie: string, payload?: unknown) =>
  t.app.inject({ method: method as any, url, headers: { cookie, 'accept-language': 'en-US' }, payload: payload as any });
const read = async (cookie: string) => (await call('GET', '/service/share/param', cookie)).json();
const put = (cookie: string, key: string, value: unknown) => call('PUT', '/service/param/update', cookie, { key, value });
const stored = async (key: string) => (await t.db.one<{ value: string }>('SELECT value FROM setting WHERE key = $1', [key]))?.value;

beforeAll(async () => {
  t = await setup();
  await t.addUser(t.tenants.root.customerId, 'padmin', 'Platform administrator', 3);
  [root, padmin, alpha] = await Promise.all([t.login('admin'), t.login('padmin'), t.login('alpha')]);
});
afterAll(() => t.close());

describe('parameters', () => {
  it('reads the defaults, with editable per caller', async () => {
    const r = await read(root);
    expect(r.state.code).toBe(200000);
    expect(r.result).toEqual({
      single_session: 'off',
      sensor_history_retention_days: '1827',
      log_retention_days: '1827',
      export_retention_days: '7',
      cache_retention_days: '1',
      sensor_config_timeout_minutes: '10',
      gateway_heartbeat_history: 'on',
      gateway_heartbeat_history_days: '30',
      gps_history_retention_days: '365',
      trip_stay_radius_m: '200',
      trip_stay_minutes: '30',
      map_tile_url: '',
      verification_validity_minutes: '5',
      login_verification: 'off',
      login_verification_after: '10',
      monitor_refresh_seconds: '30',
      fault_tolerance_coefficient: '3',
      alarm_volume: '60',
      alarm_count: '3',
      sensor_interval_seconds: '60',
      display_interval_seconds: '60',
      relay_interval_seconds: '60',
      labels_per_page: '12',
      backup_retention_years: '5',
      editable: true,
      gxpRecords: true,
    });
    expect((await read(padmin)).result.editable).toBe(true);
    const a = await read(alpha);
    expect(a.result).toMatchObject({ single_session: 'off', editable: false });
  });

  it('root and a platform administrator set them; the change is logged', async () => {
    const r1 = await put(root, 'log_retention_days', 3650);
    expect(r1.json().state.code, JSON.stringify(r1.json())).toBe(200000);
    expect(await stored('log_retention_days')).toBe('3650');
    const r2 = await put(padmin, 'sensor_history_retention_days', '3650');
    expect(r2.json().state.code).toBe(200000);
    expect((await read(padmin)).result.sensor_history_retention_days).toBe('3650');
    const log = await t.db.one<{ n: number }>(`SELECT count(*)::int AS n FROM sys_log WHERE module = 'param' AND method = 'update' AND result = 1`);
    expect(log!.n).toBe(2);
  });

  it('GxP records: less than 5 years is refused with the rule named, 5 years and more accepted', async () => {
    for (const key of ['sensor_history_retention_days', 'log_retention_days']) {
      const before = await stored(key);
      const r = await put(root, key, 365);
      expect(r.statusCode, key).toBe(400);
      expect(r.json().result.errors.value).toBe(translate('errors.param.gxpMinimum', 'en-US'));
      expect(r.json().state.msg).toContain('GSP article 42');
      expect(await stored(key)).toBe(before);
    }
    expect((await put(root, 'sensor_history_retention_days', 1827)).json().state.code).toBe(200000);
    expect((await put(root, 'log_retention_days', 1827)).json().state.code).toBe(200000);
  });

  it('the audit log is never kept shorter than the sensor history it covers', async () => {
    expect((await put(root, 'log_retention_days', 2000)).json().state.code).toBe(200000);
    const longer = await put(root, 'sensor_history_retention_days', 2001);
    expect(longer.json().result.errors.value).toBe(translate('errors.param.historyLongerThanLog', 'en-US'));
    expect((await put(root, 'sensor_history_retention_days', 2000)).json().state.code).toBe(200000);
    const shorter = await put(root, 'log_retention_days', 1999);
    expect(shorter.json().result.errors.value).toBe(translate('errors.param.logShorterThanHistory', 'en-US'));
    expect(await stored('log_retention_days')).toBe('2000');
    expect((await put(root, 'sensor_history_retention_days', 1827)).json().state.code).toBe(200000);
    expect((await put(root, 'log_retention_days', 1827)).json().state.code).toBe(200000);
  });

  it('a customer administrator gets 500102 and changes nothing', async () => {
    const r = await put(alpha, 'single_session', 'on');
    expect(r.json().state.code).toBe(500102);
    expect(await stored('single_session')).toBeUndefined();
  });

  const bad: [string, unknown, string][] = [
    ['single_session', 'yes', 'errors.param.singleSession'],
    ['single_session', '', 'errors.param.singleSession'],
    ['sensor_history_retention_days', 0, 'errors.param.retentionDays'],
    ['sensor_history_retention_days', 36501, 'errors.param.retentionDays'],
    ['sensor_history_retention_days', '12.5', 'errors.param.retentionDays'],
    ['sensor_history_retention_days', 'abc', 'errors.param.retentionDays'],
    ['log_retention_days', 0, 'errors.param.retentionDays'],
    ['export_retention_days', 366, 'errors.param.clearDays'],
    ['cache_retention_days', '-1', 'errors.param.clearDays'],
    ['backup_retention_years', 0, 'errors.param.backupYears'],
    ['backup_retention_years', 101, 'errors.param.backupYears'],
    ['map_tile_url', 'https://tiles.example/{z}/{x}.png', 'errors.param.tileUrl'],
    ['map_tile_url', 'javascript:alert(1)/{z}/{x}/{y}', 'errors.param.tileUrl'],
    ['map_tile_url', 'https://t.example/{z}/{x}/{y}.png?"onerror=', 'errors.param.tileUrl'],
    ['map_tile_url', "https://t.example;script-src:'unsafe-inline'/{z}/{x}/{y}", 'errors.param.tileUrl'],
  ];

  it('each retention setting takes its range (passing examples)', async () => {
    for (const [key, value] of [
      ['log_retention_days', 36500],
      ['backup_retention_years', 10],
      ['export_retention_days', 365],
      ['cache_retention_days', '2'],
      ['map_tile_url', 'https://{s}.tile.example.org/{z}/{x}/{y}.png'],
      ['map_tile_url', ''],
    ] as const) {
      expect((await put(root, key, value)).json().state.code).toBe(200000);
      expect(await stored(key)).toBe(String(value));
    }
  });
  for (const [key, value, msg] of bad) {
    it(`${key} = ${JSON.stringify(value)} answers 400`, async () => {
      const before = await stored(key);
      const r = await put(root, key, value);
      expect(r.statusCode).toBe(400);
      expect(r.json().state.code).toBe(400);
      expect(r.json().result.errors.value).toBe(translate(msg, 'en-US'));
      expect(await stored(key)).toBe(before);
    });
  }

  it('the map tile URL opens the CSP to its server only, and closes it again when emptied', async () => {
    const csp = async () => (await t.app.inject({ method: 'GET', url: '/healthz' })).headers['content-security-policy'] as string;
    expect((await put(root, 'map_tile_url', 'https://{s}.tiles.example.org/{z}/{x}/{y}.png')).json().state.code).toBe(200000);
    expect(await csp()).toMatch(/img-src 'self' data: blob: https:\/\/\*\.tiles\.example\.org;/);
    expect((await put(root, 'map_tile_url', '')).json().state.code).toBe(200000);
    expect(await csp()).not.toContain('tiles.example.org');
  });

  it('an unknown key answers 400', async () => {
    const r = await put(root, 'login_captcha', 'off');
    expect(r.statusCode).toBe(400);
    expect(r.json().result.errors).toHaveProperty('key');
  });

  it('single_session on: a second login of the same account revokes the first (500104)', async () => {
    const off1 = await t.login('beta');
    const off2 = await t.login('beta');
    expect((await call('GET', '/service/user/page', off1)).json().state.code).toBe(200000);
    expect((await call('GET', '/service/user/page', off2)).json().state.code).toBe(200000);

    expect((await put(root, 'single_session', 'on')).json().state.code).toBe(200000);
    expect((await read(root)).result.single_session).toBe('on');
    const first = await t.login('beta');
    expect((await call('GET', '/service/user/page', first)).json().state.code).toBe(200000);
    const second = await t.login('beta');
    expect((await call('GET', '/service/user/page', first)).json().state.code).toBe(500104);
    expect((await call('GET', '/service/user/page', second)).json().state.code).toBe(200000);

    expect((await put(root, 'single_session', 'off')).json().state.code).toBe(200000);
    const third = await t.login('beta');
    expect((await call('GET', '/service/user/page', second)).json().state.code).toBe(200000);
    expect((await call('GET', '/service/user/page', third)).json().state.code).toBe(200000);
  });
});

describe('parameters in the "not for GxP records" mode (GXP_RECORDS=off)', () => {
  let off: TestCtx;
  let offRoot: string;
  beforeAll(async () => {
    off = await setup({ GXP_RECORDS: 'off' });
    offRoot = await off.login('admin');
  });
  afterAll(() => off.close());

  it('says so, and takes retention shorter than 5 years, the log still no shorter than the history', async () => {
    const call = (payload?: unknown) =>
      off.app.inject({ method: payload ? 'PUT' : 'GET', url: payload ? '/service/param/update' : '/service/share/param', headers: { cookie: offRoot, 'accept-language': 'en-US' }, payload: payload as any });
    expect((await call()).json().result.gxpRecords).toBe(false);
    expect((await call({ key: 'sensor_history_retention_days', value: 365 })).json().state.code).toBe(200000);
    expect((await call({ key: 'log_retention_days', value: 365 })).json().state.code).toBe(200000);
    expect((await call({ key: 'log_retention_days', value: 364 })).json().result.errors.value).toBe(translate('errors.param.logShorterThanHistory', 'en-US'));
  });
});
