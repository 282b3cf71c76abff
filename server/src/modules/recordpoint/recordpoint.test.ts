import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PASSWORD, setup, type TestCtx } from '../../../test/helper.js';
import { seedRecords, type Records } from '../shared/records.fixture.js';
import { dayOf, daysOf, instantOf } from './recordpoint.service.js';

/*
 * Collect records (docs/records.md): the record-time rule of spec §5/§9 with passing and failing
 * lists, each time filled from the carrier's value nearest it, the signed approval (signature
 * counted toward the lockout, an approval final, a rejection with its reason, the values frozen
 * at signing), a foreign carrier 404 and the bad spans.
 */

let t: TestCtx;
let a: Records;
let b: Records;
const en = { 'accept-language': 'en-US' };
const sign = { account: 'alpha', password: PASSWORD };
// Customer zone +08:00: T0 is the local midnight that starts DAY.
const DAY = '2025-07-01';
const T0 = Date.UTC(2025, 6, 1) - 8 * 3_600_000;
const MIN = 60_000;

beforeAll(async () => {
  t = await setup();
  await t.db.query(`UPDATE app_user SET name = 'Li Wei' WHERE account = 'alpha'`);
  a = await seedRecords(t, 'alpha', 'Alpha', 'A1');
  b = await seedRecords(t, 'beta', 'Beta', 'B1');
  await t.db.query(`UPDATE customer SET time_zone = '+08:00' WHERE id = $1`, [a.customerId]);
  // One reading every 10 minutes of the local day, 4 °C, except 7.5 °C at 08:10 and nothing from 13:00 to 18:00.
  await t.db.query(
    `INSERT INTO reading(sensor_id, ts, customer_id, temp, hum)
     SELECT $1, to_timestamp(($2::bigint + g * 600000) / 1000.0), $3, CASE WHEN g = 49 THEN 7.5 ELSE 4 END, 55 FROM generate_series(0, 143) g WHERE g NOT BETWEEN 78 AND 107`,
    [a.sensorId, T0, a.customerId],
  );
}, 180_000);
afterAll(() => t?.close());
beforeEach(() => t.db.query('DELETE FROM login_failure'));

const call = (method: string, url: string, payload?: unknown, cookie = a.cookie) => t.app.inject({ method: method as 'GET', url, headers: { cookie, ...en }, payload: payload as object });
const setTimes = (times: string[], carrierId = a.carrierId, cookie = a.cookie) => call('PUT', '/service/recordPoint/times', { carrierId, times }, cookie);
const page = (q: Record<string, unknown> = {}, cookie = a.cookie) =>
  call('GET', `/service/recordPoint/page?${new URLSearchParams(Object.entries({ start: T0, end: T0 + 86_400_000 - 1, ...q }).map(([k, v]) => [k, String(v)]))}`, undefined, cookie);
const signDay = (extra: Record<string, unknown> = {}, cookie = a.cookie) => call('POST', '/service/recordPoint/sign', { carrierId: a.carrierId, day: DAY, decision: 'approved', sign, ...extra }, cookie);

describe('record times (spec §5, §9: up to seven, 30 minutes apart)', () => {
  it('takes seven times 30 minutes apart, refuses an eighth, two 10 minutes apart and two across midnight 20 minutes apart', async () => {
    expect((await setTimes(['08:00', '08:30', '09:00', '12:00', '16:00', '20:00', '23:30'])).json().state.code).toBe(200000);
    const eighth = await setTimes(['08:00', '08:30', '09:00', '12:00', '16:00', '20:00', '23:00', '23:30']);
    expect(eighth.json().state.msg).toContain('Up to seven record times');
    expect((await setTimes(['08:00', '08:10'])).json().state.msg).toContain('at least 30 minutes apart');
    expect((await setTimes(['23:50', '00:10'])).json().state.msg).toContain('at least 30 minutes apart');
    expect((await setTimes(['24:00'])).json().state.msg).toContain('from 00:00 to 23:59');
    // The refused lists changed nothing.
    const times = await call('GET', `/service/recordPoint/times?carrierId=${a.carrierId}`);
    expect(times.json().result.rows[0].times).toEqual(['08:00', '08:30', '09:00', '12:00', '16:00', '20:00', '23:30']);
  });

  it("another customer's carrier is 404 for times, page and signing", async () => {
    expect((await setTimes(['08:00'], a.carrierId, b.cookie)).statusCode).toBe(404);
    expect((await page({ carrierId: a.carrierId }, b.cookie)).statusCode).toBe(404);
    expect((await signDay({}, b.cookie)).statusCode).toBe(404);
  });
});

describe('the daily record, filled from the nearest value', () => {
  it('fills each time from the nearest reading within 15 minutes, and leaves a time without one empty', async () => {
    await setTimes(['08:08', '14:00', '20:00']);
    const r = (await page({ carrierId: a.carrierId })).json().result;
    expect(r).toMatchObject({ total: 1, timeZone: '+08:00' });
    const [row] = r.rows;
    expect(row).toMatchObject({ day: DAY, state: 'pending', complete: true, signedBy: null });
    expect(row.points).toEqual([
      { time: '08:08', at: T0 + 488 * MIN, ts: T0 + 490 * MIN, temp: 7.5, hum: 55 },
      { time: '14:00', at: T0 + 840 * MIN, ts: null, temp: null, hum: null },
      { time: '20:00', at: T0 + 1200 * MIN, ts: T0 + 1200 * MIN, temp: 4, hum: 55 },
    ]);
  });

  it('knows the customer\'s days: an instant at local midnight, a span\'s days newest first', () => {
    expect(instantOf(DAY, 0, '+08:00')).toBe(T0);
    expect(dayOf(T0 - 1, '+08:00')).toBe('2025-06-30');
    expect(daysOf(T0, T0 + 3 * 86_400_000 - 1, '+08:00', T0 + 10 * 86_400_000)).toEqual(['2025-07-03', '2025-07-02', '2025-07-01']);
    // Not beyond today.
    expect(daysOf(T0, T0 + 3 * 86_400_000, '+08:00', T0 + 86_400_000 + 60_000)).toEqual(['2025-07-02', '2025-07-01']);
  });

  it('refuses a start after the end and a span over 400 days', async () => {
    expect((await page({ start: T0 + MIN, end: T0 })).json().state.msg).toContain('The start cannot be later than the end');
    expect((await page({ end: T0 + 401 * 86_400_000 })).json().state.msg).toContain('at most 400 days');
  });
});

describe('approval, signed as exception handling is', () => {
  it('a wrong password records nothing and counts toward the lockout; a rejection needs its reason', async () => {
    const wrong = await signDay({ sign: { account: 'alpha', password: 'wrong-one' } });
    expect(wrong.json().state.msg).toContain('account or password of the signature is wrong');
    expect((await t.db.one<{ n: number }>('SELECT coalesce(sum(failures), 0)::int AS n FROM login_failure'))!.n).toBe(1);
    expect((await signDay({ decision: 'rejected' })).json().state.msg).toContain('Say why the record is rejected');
    expect((await signDay({ sign: undefined })).json().state.msg).toContain('Sign with your account and password');
    expect((await t.db.query('SELECT 1 FROM record_point_sign')).length).toBe(0);
  });

  it('rejected, then approved: the approval is final, keeps the values as signed and names the signer', async () => {
    expect((await signDay({ decision: 'rejected', comment: 'Probe 2 missing at 14:00' })).json().result).toEqual({ carrierId: a.carrierId, day: DAY, state: 'rejected' });
    expect((await page({ carrierId: a.carrierId })).json().result.rows[0]).toMatchObject({ state: 'rejected', comment: 'Probe 2 missing at 14:00', signedBy: 'Li Wei' });
    expect((await signDay()).json().result.state).toBe('approved');
    expect((await signDay()).json().state.msg).toContain('already approved');
    expect((await signDay({ decision: 'rejected', comment: 'late' })).json().state.msg).toContain('already approved');
    // A reading back-filled after the approval does not change what was signed.
    await t.db.query(`INSERT INTO reading(sensor_id, ts, customer_id, temp, hum) VALUES ($1, $2, $3, 9, 60)`, [a.sensorId, new Date(T0 + 840 * MIN), a.customerId]);
    const row = (await page({ carrierId: a.carrierId })).json().result.rows[0];
    expect(row).toMatchObject({ state: 'approved', signedBy: 'Li Wei', signedAccount: 'alpha' });
    expect(row.points[1]).toMatchObject({ time: '14:00', ts: null });
    expect(row.history.map((h: { decision: string }) => h.decision)).toEqual(['rejected', 'approved']);
    expect((await page({ state: 'pending' })).json().result.total).toBe(0);
    expect((await page({ state: 'approved' })).json().result.total).toBe(1);
    // Signed rows are kept as signed.
    await expect(t.db.query('UPDATE record_point_sign SET comment = $1', ['changed'])).rejects.toThrow(/kept as signed/);
  });

  it('a day is signed only once its last record time has passed, and only for a carrier with times', async () => {
    // The day after tomorrow: its times are all ahead, whenever the test runs.
    const ahead = dayOf(Date.now() + 2 * 86_400_000, '+08:00');
    await setTimes(['08:00']);
    const early = await signDay({ day: ahead });
    expect(early.json().state.msg).toContain('once its last record time has passed');
    await t.db.query('DELETE FROM record_point_time WHERE carrier_id = $1', [a.carrierId]);
    expect((await signDay({ day: '2025-07-02' })).json().state.msg).toContain('no record times');
  });
});
