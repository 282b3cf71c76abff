import { describe, expect, it } from 'vitest';
import type { TestCtx } from '../../../test/helper.js';
import { call, requester, withTwoCustomers, type Records } from '../shared/records.fixture.js';
import { record } from '../backup/backup.repository.js';

/*
 * The GSP checks of /count/guidance (docs/compliance.md) on a real database: each check with a
 * passing and a failing example, each finding cleared by the fix made through the API, and the
 * caller's scope (another customer's findings are never listed or counted).
 */

let t: TestCtx;
let a: Records;
let b: Records;
withTwoCustomers((c) => ({ t, a, b } = c));
const req = requester(() => t);

type Check = 'interval' | 'smsReach' | 'calibration' | 'backup';
const page = async (cookie: string, check: Check, extra: Record<string, string | number> = {}) =>
  call(t, cookie, 'GET', `/service/compliance/page?${new URLSearchParams(Object.entries({ check, iDisplayStart: 0, iDisplayLength: 50, ...extra }).map(([k, v]) => [k, String(v)]))}`);
const summary = async (cookie: string, customerId?: number) =>
  (await call(t, cookie, 'GET', `/service/compliance/summary${customerId ? `?customerId=${customerId}` : ''}`)).checks as { check: Check; checked: number; fail: number; warn: number; unrecorded: number }[];
const of = <R extends { check: Check }>(rows: R[], check: Check) => rows.find((r) => r.check === check)!;

/** The sensor's day `days` from today in its time zone (+08:00), as the form sends it. */
const day = (days: number) => new Date(Date.now() + 8 * 3600_000 + days * 86_400_000).toISOString().slice(0, 10);

const updateSensor = (over: Record<string, unknown>) =>
  call(t, a.cookie, 'PUT', '/service/sensor/update', { id: a.sensorId, devNo: a.devNo, type: 'zigbee_th', gatewayId: a.gatewayId, carrierId: a.carrierId, sampleInterval: 60, ...over });
const updateCarrier = (over: Record<string, unknown>) =>
  call(t, a.cookie, 'PUT', '/service/carrier/update', {
    id: a.carrierId, name: 'AlphaFridge', type: 2, sceneId: a.sceneId, tempMin: 2, tempMax: 8, humMin: 30, humMax: 70, contactIds: [a.contactId], ...over,
  });

/** A collection configuration as the gateway takes and acknowledges it (device-protocol.md down/config, up/ack). */
async function configureAndAck(collect: Record<string, number>) {
  await call(t, a.cookie, 'POST', '/service/sensor/config', { ids: [a.sensorId], kind: 'collect', collect });
  const auth = { authorization: `Bearer ${a.secret}` };
  const polled = await t.app.inject({ method: 'GET', url: `/ingest/v1/${a.gatewaySn}/commands`, headers: auth });
  const cmd = polled.json().commands[0];
  expect(cmd.params).toEqual(collect);
  expect((await t.app.inject({ method: 'POST', url: `/ingest/v1/${a.gatewaySn}/ack`, headers: auth, payload: { cmdId: cmd.cmdId, result: 'ok' } })).statusCode).toBe(200);
}

describe('GSP checks', () => {
  it('a fresh customer: its sensor records often enough, its carrier reaches nobody by SMS, no calibration date is recorded, the console has no backup yet', async () => {
    const s = await summary(a.cookie);
    expect(s).toEqual([
      { check: 'interval', checked: 1, fail: 0, warn: 0, unrecorded: 0 },
      { check: 'smsReach', checked: 1, fail: 1, warn: 0, unrecorded: 0 },
      { check: 'calibration', checked: 1, fail: 0, warn: 0, unrecorded: 1 },
      { check: 'backup', checked: 1, fail: 1, warn: 0, unrecorded: 0 },
    ]);
    expect((await page(a.cookie, 'interval')).total).toBe(0);
    expect((await page(a.cookie, 'calibration')).total).toBe(0);
    const sms = await page(a.cookie, 'smsReach');
    expect(sms.rows).toEqual([
      {
        key: `smsReach:sms:${a.carrierId}`, check: 'smsReach', rule: 'sms', severity: 'fail', customerId: a.customerId, customerName: 'Alpha Hospital',
        carrierId: a.carrierId, carrierName: 'AlphaFridge', sensorId: null, devNo: null, value: 0, limit: 3, source: null, calibExpiry: null,
        sms: { mobiles: 1, channel: false, customer: false, alarmOn: true }, backup: null,
      },
    ]);
  });

  it('recording interval in storage: over 30 minutes is a finding, and so is recording every 30 minutes out of range; an exception interval clears that', async () => {
    await updateSensor({ sampleInterval: 3600 });
    let r = await page(a.cookie, 'interval');
    expect(r.rows.map((x: any) => [x.rule, x.value, x.limit, x.source, x.sensorId, x.devNo, x.carrierId])).toEqual([
      ['storage', 3600, 1800, 'sensor', a.sensorId, a.devNo, a.carrierId],
      ['outOfRange', 3600, 120, 'sensor', a.sensorId, a.devNo, a.carrierId],
    ]);
    expect(of(await summary(a.cookie), 'interval')).toMatchObject({ checked: 1, fail: 2 });

    // 30 minutes exactly is within the storage rule; out of range it is still far too slow.
    await updateSensor({ sampleInterval: 1800 });
    r = await page(a.cookie, 'interval');
    expect(r.rows.map((x: any) => [x.rule, x.value])).toEqual([['outOfRange', 1800]]);

    // The device acknowledges an exception interval of one minute: out of range it records every minute.
    await configureAndAck({ exceptionSampleInterval: 60 });
    expect((await page(a.cookie, 'interval')).total).toBe(0);
    expect(of(await summary(a.cookie), 'interval')).toMatchObject({ checked: 1, fail: 0 });
  });

  it('the interval the device acknowledged counts over the sensor\'s own setting; setting the device right clears it', async () => {
    await updateSensor({ sampleInterval: 60 });
    await configureAndAck({ sampleInterval: 2400 });
    const r = await page(a.cookie, 'interval');
    expect(r.rows.map((x: any) => [x.rule, x.value, x.source])).toEqual([['storage', 2400, 'config']]);
    await configureAndAck({ sampleInterval: 600 });
    expect((await page(a.cookie, 'interval')).total).toBe(0);
  });

  it('in transport (mode or vehicle) the limit is 5 minutes', async () => {
    // The device records every 10 minutes (the last configuration), out of range every minute.
    await updateCarrier({ mode: 'transport' });
    let r = await page(a.cookie, 'interval');
    expect(r.rows.map((x: any) => [x.rule, x.value, x.limit])).toEqual([['transport', 600, 300]]);
    await updateCarrier({ mode: 'normal', type: 3 });
    r = await page(a.cookie, 'interval');
    expect(r.rows.map((x: any) => [x.rule, x.value, x.limit])).toEqual([['transport', 600, 300]]);
    await configureAndAck({ sampleInterval: 300 });
    expect((await page(a.cookie, 'interval')).total).toBe(0);
    await updateCarrier({ type: 2 });
    // A scrapped carrier holds no goods: its sensors are not checked.
    await configureAndAck({ sampleInterval: 3600 });
    expect((await page(a.cookie, 'interval')).total).toBe(1);
    await updateCarrier({ status: 2 });
    expect((await page(a.cookie, 'interval')).total).toBe(0);
    expect(of(await summary(a.cookie), 'interval').checked).toBe(0);
    await updateCarrier({ status: 1 });
    await configureAndAck({ sampleInterval: 60 });
    expect((await page(a.cookie, 'interval')).total).toBe(0);
  });

  it('SMS alarms: three distinct mobiles, SMS among the carrier\'s methods and the customer\'s SMS on; the fix clears the finding', async () => {
    const contact = async (name: string, phone: string, groupName = 'day') => (await call(t, a.cookie, 'POST', '/service/contact/add', { name, phone, groupName })).id as number;
    const second = await contact('AlphaPharmacist', '13800000001');
    // The same mobile in another group is the same person; a landline takes no SMS.
    const same = await contact('AlphaNurseDay', '13800000000');
    const landline = await contact('AlphaDesk', '021-55550000');
    // The carrier's channels are its trigger's (docs/alarms.md "Triggers").
    const trig = await call(t, a.cookie, 'POST', '/service/alarmTrigger/add', { name: 'By SMS', channels: ['email', 'sms'] });
    await updateCarrier({ contactIds: [a.contactId, second, same, landline], triggerId: trig.id });
    let [f] = (await page(a.cookie, 'smsReach')).rows;
    expect(f).toMatchObject({ value: 0, sms: { mobiles: 2, channel: true, customer: false, alarmOn: true } });

    // The customer's SMS notification is the platform's to switch.
    const root = await t.login('admin');
    await call(t, root, 'PUT', '/service/customer/update', { id: a.customerId, name: 'Alpha Hospital', code: 'ALPHA', orgType: '09', notifySms: true });
    [f] = (await page(a.cookie, 'smsReach')).rows;
    expect(f).toMatchObject({ value: 2, limit: 3, sms: { mobiles: 2, channel: true, customer: true, alarmOn: true } });

    const third = await contact('AlphaDriver', '13800000002');
    await updateCarrier({ contactIds: [a.contactId, second, same, landline, third], triggerId: trig.id });
    expect((await page(a.cookie, 'smsReach')).total).toBe(0);
    expect(of(await summary(a.cookie), 'smsReach')).toMatchObject({ checked: 1, fail: 0 });

    // An alarm switched off reaches nobody.
    await updateCarrier({ contactIds: [a.contactId, second, third], triggerId: trig.id, alarmOn: false });
    [f] = (await page(a.cookie, 'smsReach')).rows;
    expect(f).toMatchObject({ value: 0, sms: { mobiles: 3, alarmOn: false } });
    await updateCarrier({ contactIds: [a.contactId, second, third], triggerId: trig.id, alarmOn: true });
    expect((await page(a.cookie, 'smsReach')).total).toBe(0);
  });

  it('calibration: expired is a failure, within 30 days a warning, later nothing; a new date clears it', async () => {
    await updateSensor({ calibExpiry: day(-1) });
    let r = await page(a.cookie, 'calibration');
    expect(r.rows).toEqual([expect.objectContaining({ rule: 'expired', severity: 'fail', value: -1, limit: 30, calibExpiry: day(-1), sensorId: a.sensorId, devNo: a.devNo })]);
    expect(of(await summary(a.cookie), 'calibration')).toEqual({ check: 'calibration', checked: 1, fail: 1, warn: 0, unrecorded: 0 });

    // The last valid day is today: still valid, due now.
    await updateSensor({ calibExpiry: day(0) });
    r = await page(a.cookie, 'calibration');
    expect(r.rows.map((x: any) => [x.rule, x.severity, x.value])).toEqual([['expiring', 'warn', 0]]);
    await updateSensor({ calibExpiry: day(30) });
    expect((await page(a.cookie, 'calibration')).rows.map((x: any) => [x.rule, x.value])).toEqual([['expiring', 30]]);
    expect(of(await summary(a.cookie), 'calibration')).toMatchObject({ fail: 0, warn: 1 });

    await updateSensor({ calibExpiry: day(31) });
    expect((await page(a.cookie, 'calibration')).total).toBe(0);
    expect(of(await summary(a.cookie), 'calibration')).toEqual({ check: 'calibration', checked: 1, fail: 0, warn: 0, unrecorded: 0 });
  });

  it('scope: another customer never sees or counts A\'s findings; a platform user sees both and narrows by customer; a scene limit narrows too', async () => {
    await updateSensor({ calibExpiry: day(-5) });
    await configureAndAck({ sampleInterval: 3600, exceptionSampleInterval: 600 });
    expect((await page(a.cookie, 'interval')).rows.map((x: any) => [x.rule, x.value, x.source])).toEqual([['storage', 3600, 'config'], ['outOfRange', 600, 'exception']]);
    const alphaTotals = { interval: (await page(a.cookie, 'interval')).total, smsReach: (await page(a.cookie, 'smsReach')).total, calibration: (await page(a.cookie, 'calibration')).total };
    expect(alphaTotals).toEqual({ interval: 2, smsReach: 0, calibration: 1 });

    for (const check of ['interval', 'smsReach', 'calibration', 'backup'] as const) {
      const own = await page(b.cookie, check);
      expect(own.rows.every((x: any) => x.customerId === b.customerId || x.check === 'backup')).toBe(true);
      expect(JSON.stringify(own)).not.toContain('Alpha');
      // The backup finding is the console's, the same for everyone; every other check finds nothing of A.
      expect((await page(b.cookie, check, { customerId: a.customerId })).total).toBe(check === 'backup' ? 1 : 0);
    }
    expect(await summary(b.cookie, a.customerId)).toEqual([
      { check: 'interval', checked: 0, fail: 0, warn: 0, unrecorded: 0 },
      { check: 'smsReach', checked: 0, fail: 0, warn: 0, unrecorded: 0 },
      { check: 'calibration', checked: 0, fail: 0, warn: 0, unrecorded: 0 },
      { check: 'backup', checked: 1, fail: 1, warn: 0, unrecorded: 0 },
    ]);
    expect(of(await summary(b.cookie), 'interval')).toMatchObject({ checked: 1, fail: 0 });

    const root = await t.login('admin');
    const all = await page(root, 'smsReach');
    expect(new Set(all.rows.map((x: any) => x.customerName))).toEqual(new Set(['Beta Clinic']));
    const both = await page(root, 'interval');
    expect(both.rows.map((x: any) => x.customerName)).toEqual(['Alpha Hospital', 'Alpha Hospital']);
    expect((await page(root, 'calibration', { customerId: b.customerId })).total).toBe(0);
    expect((await page(root, 'calibration', { customerId: a.customerId })).total).toBe(1);
    expect(of(await summary(root), 'smsReach')).toMatchObject({ checked: 2, fail: 1 });
    expect(of(await summary(root, a.customerId), 'smsReach')).toMatchObject({ checked: 1, fail: 0 });

    // A user of A limited to a scene without the carrier sees none of it.
    const other = await call(t, a.cookie, 'POST', '/service/scene/add', { label: 'AlphaAnnex' });
    const uid = await t.addUser(a.customerId, 'alphaannex', 'Operator', 0);
    await t.db.query('INSERT INTO user_scene(user_id, scene_id) VALUES ($1, $2)', [uid, other.id]);
    const limited = await t.login('alphaannex');
    expect((await page(limited, 'interval')).total).toBe(0);
    expect(of(await summary(limited), 'calibration').checked).toBe(0);

    // Paging: one row a page, the total over all.
    const first = await page(a.cookie, 'interval', { iDisplayLength: 1 });
    const second = await page(a.cookie, 'interval', { iDisplayStart: 1, iDisplayLength: 1 });
    expect([first.total, first.rows.length, second.rows.length]).toEqual([2, 1, 1]);
    expect(first.rows[0].key).not.toBe(second.rows[0].key);
  });

  it('daily backup: none or the last good one over 26 hours old is a finding; a later failure and the next run are named; a fresh backup clears it', async () => {
    const hour = 3_600_000;
    const backup = async (startedAt: number, outcome: 'ok' | 'failed') =>
      record(t.db, { name: outcome === 'ok' ? `coldwatch-${startedAt}.dump` : '', kind: 'pg_dump', startedAt, durationMs: 1000, outcome });
    const none = await page(a.cookie, 'backup');
    expect(none.rows).toEqual([
      {
        key: 'backup:backupDaily:console', check: 'backup', rule: 'backupDaily', severity: 'fail', customerId: null, customerName: null, carrierId: null, carrierName: null,
        sensorId: null, devNo: null, value: 0, limit: 26, source: null, calibExpiry: null, sms: null, backup: { lastAt: null, failedAt: null, nextRunAt: null },
      },
    ]);

    const okAt = Date.now() - 30 * hour;
    await backup(okAt, 'ok');
    await backup(Date.now() - 6 * hour, 'failed');
    const old = (await page(a.cookie, 'backup')).rows[0];
    expect([old.value, old.backup.lastAt, typeof old.backup.failedAt]).toEqual([30, okAt, 'number']);
    expect(of(await summary(a.cookie), 'backup')).toMatchObject({ checked: 1, fail: 1 });

    await backup(Date.now() - 25 * hour, 'ok');
    expect((await page(a.cookie, 'backup')).total).toBe(0);
    expect(of(await summary(a.cookie), 'backup')).toMatchObject({ checked: 1, fail: 0 });
    // A failure after a good backup within the day is not a finding: the day's backup exists.
    await backup(Date.now() - hour, 'failed');
    expect((await page(a.cookie, 'backup')).total).toBe(0);
  });

  it('refuses an unknown check with its message', async () => {
    const r = await req(a.cookie, 'GET', '/service/compliance/page?check=restore&iDisplayStart=0&iDisplayLength=10');
    expect(r.status).toBe(400);
    expect(JSON.stringify(r)).toContain('Choose one of the checks');
  });
});
