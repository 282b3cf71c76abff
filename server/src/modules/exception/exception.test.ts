import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../../test/helper.js';
import { startAlarm, type Alarm } from '../../alarm/index.js';
import { exceptionsOf, ingest, site, type R, type Site } from '../../alarm/testkit.js';

const T0 = Date.UTC(2024, 10, 22, 0, 0, 0);
const at = (min: number) => T0 + min * 60_000;

let t: TestCtx;
let alarm: Alarm;
let a: Site;
let b: Site;
let alpha: string;
let beta: string;

const get = async (url: string, cookie: string) => (await t.app.inject({ method: 'GET', url, headers: { cookie } })).json();

beforeAll(async () => {
  t = await setup();
  alarm = startAlarm({ db: t.db, bus: t.bus, config: t.config }, { pollMs: 60_000 });
  a = await site(t.db, t.tenants.a.customerId, { name: 'Alpha Fridge', emails: ['ops@alpha.test'] });
  b = await site(t.db, t.tenants.b.customerId, { name: 'Beta Fridge' });
  // Alpha: six closed excursions (minutes 1, 3, … 11, alternately high and low), then an ongoing one from minute 20.
  const rs: R[] = [];
  for (let i = 0; i < 6; i++) rs.push([at(2 * i), 5], [at(2 * i + 1), i % 2 ? 1 : 9]);
  rs.push([at(12), 5], [at(20), 12], [at(21), 13]);
  await ingest(t.db, a, rs);
  await ingest(t.db, b, [[at(0), 5], [at(1), 30]]);
  await alarm.drain();
  alpha = await t.login('alpha');
  beta = await t.login('beta');
}, 180_000); // building the app (migrations, three argon2 hashes) is slow on a busy machine
afterAll(async () => {
  await alarm?.stop();
  await t?.close();
});

describe('exception API', () => {
  it('pages the caller\'s exceptions newest first, with carrier name and device number', async () => {
    const r = (await get('/service/exception/page?iDisplayStart=0&iDisplayLength=5', alpha)).result;
    expect(r).toMatchObject({ total: 7, iDisplayStart: 0, iDisplayLength: 5 });
    expect(r.rows).toHaveLength(5);
    expect(r.rows[0]).toMatchObject({
      carrierId: a.carrierId, carrierName: 'Alpha Fridge', sensorId: a.sensorId, devNo: a.devNo, customerName: 'Alpha Hospital',
      type: 'data', category: 'temp_high', status: 0, ongoing: true, startTs: at(20), endTs: null,
      firstValue: 12, peakValue: 13, limitMin: 2, limitMax: 8, reason: '', measures: '',
    });
    expect(r.rows[0].durationS).toBeGreaterThan(0);
    expect(r.rows[1]).toMatchObject({ ongoing: false, startTs: at(11), endTs: at(12), durationS: 60, category: 'temp_low' });
    const starts = r.rows.map((x: any) => x.startTs);
    expect([...starts].sort((x, y) => y - x)).toEqual(starts);
    const next = (await get('/service/exception/page?iDisplayStart=5&iDisplayLength=5', alpha)).result;
    expect(next.rows).toHaveLength(2);
  });

  it('filters by status, category, carrier, device number, ongoing and time', async () => {
    const n = async (q: string) => (await get(`/service/exception/page?${q}`, alpha)).result.total;
    expect(await n('category=temp_low')).toBe(3);
    expect(await n('category=temp_high&ongoing=false')).toBe(3);
    expect(await n(`carrierId=${a.carrierId}`)).toBe(7);
    expect(await n(`carrierId=${b.carrierId}`)).toBe(0);
    expect(await n(`devNo=${a.devNo.slice(2)}`)).toBe(7);
    expect(await n('status=1')).toBe(0);
    expect(await n('type=offline')).toBe(0);
    // Going on at some point in minutes 4..6: only the excursion of minute 5 (the one of minute 3 ended at 4, back in range).
    expect(await n(`startTime=${at(4)}&endTime=${at(6)}`)).toBe(1);
    expect(await n(`startTime=${at(30)}`)).toBe(1);
    const bad = await t.app.inject({ method: 'GET', url: `/service/exception/page?startTime=${at(9)}&endTime=${at(1)}`, headers: { cookie: alpha } });
    expect(bad.statusCode).toBe(400);
    const badCat = await t.app.inject({ method: 'GET', url: '/service/exception/page?category=bogus', headers: { cookie: alpha } });
    expect(badCat.statusCode).toBe(400);
  });

  it('shows a customer none of another customer\'s exceptions', async () => {
    const mine = (await get('/service/exception/page?iDisplayLength=100', beta)).result;
    expect(mine.total).toBe(1);
    expect(mine.rows[0]).toMatchObject({ carrierName: 'Beta Fridge', peakValue: 30 });
    const alphaIds = (await exceptionsOf(t.db, a.sensorId)).map((e) => e.id);
    expect(mine.rows.map((r: any) => r.id)).not.toContain(alphaIds[0]);
    const detail = await t.app.inject({ method: 'GET', url: `/service/exception/detail?id=${alphaIds[0]}`, headers: { cookie: beta } });
    expect(detail.statusCode).toBe(404);
    const handle = await t.app.inject({ method: 'PUT', url: '/service/exception/handle', headers: { cookie: beta }, payload: { id: alphaIds[0], reason: 'x', measures: 'y' } });
    expect(handle.statusCode).toBe(404);
    const close = await t.app.inject({ method: 'PUT', url: `/service/exception/close?ids=${alphaIds[0]}`, headers: { cookie: beta } });
    expect(close.statusCode).toBe(404);
    expect((await get('/service/exception/latest', beta)).result).toHaveLength(1);
    expect((await get('/service/exception/stats', beta)).result).toMatchObject({ total: 1, pending: 1, ongoing: 1 });
    const notices = (await get('/service/notice/page', beta)).result;
    expect(notices.total).toBe(0);
  });

  it('answers the detail with its notices', async () => {
    const [first] = await exceptionsOf(t.db, a.sensorId);
    const r = (await get(`/service/exception/detail?id=${first.id}`, alpha)).result;
    expect(r).toMatchObject({ id: first.id, carrierName: 'Alpha Fridge', startTs: at(1), endTs: at(2) });
    expect(r.notices).toEqual([expect.objectContaining({ channel: 'email', recipient: 'ops@alpha.test', type: 'alarm', status: 2 })]);
    expect((await t.app.inject({ method: 'GET', url: '/service/exception/detail?id=999999', headers: { cookie: alpha } })).statusCode).toBe(404);
  });

  it('handles an exception with reason and measures, and logs it', async () => {
    const [first] = await exceptionsOf(t.db, a.sensorId);
    const res = await t.app.inject({
      method: 'PUT', url: '/service/exception/handle', headers: { cookie: alpha },
      payload: { id: first.id, reason: 'Door left open', measures: 'Closed the door, checked goods' },
    });
    expect(res.json()).toMatchObject({ state: { code: 200000 }, result: { id: first.id, status: 1 } });
    const r = (await get(`/service/exception/detail?id=${first.id}`, alpha)).result;
    expect(r).toMatchObject({ status: 1, reason: 'Door left open', measures: 'Closed the door, checked goods' });
    // (Beta's refused attempt above is on the log too, with result 0.)
    const log = await t.db.query(`SELECT * FROM sys_log WHERE module = 'exception' AND method = 'handle' AND result = 1`);
    expect(log).toEqual([expect.objectContaining({ result: 1, operator: 'alpha' })]);
    const tooLong = await t.app.inject({ method: 'PUT', url: '/service/exception/handle', headers: { cookie: alpha }, payload: { id: first.id, reason: 'x'.repeat(251) } });
    expect(tooLong.statusCode).toBe(400);
  });

  it('closes only exceptions that are over, all or nothing', async () => {
    const ex = await exceptionsOf(t.db, a.sensorId);
    const ongoing = ex.find((e) => e.ongoing)!;
    const over = ex.filter((e) => !e.ongoing).slice(0, 2);
    const refused = await t.app.inject({ method: 'PUT', url: `/service/exception/close?ids=${over[0].id},${ongoing.id}`, headers: { cookie: alpha, 'accept-language': 'en' } });
    expect(refused.json().state).toEqual({ code: 500000, msg: 'An ongoing exception cannot be closed until it has ended' });
    expect((await exceptionsOf(t.db, a.sensorId)).find((e) => e.id === over[0].id)!.status).toBe(1);

    const res = await t.app.inject({ method: 'PUT', url: `/service/exception/close?ids=${over.map((e) => e.id).join(',')}`, headers: { cookie: alpha } });
    expect(res.json()).toMatchObject({ state: { code: 200000 }, result: { closed: 2 } });
    const after = await exceptionsOf(t.db, a.sensorId);
    expect(after.filter((e) => e.status === 2).map((e) => e.id)).toEqual(over.map((e) => e.id));
    // A closed record is final.
    const again = await t.app.inject({ method: 'PUT', url: '/service/exception/handle', headers: { cookie: alpha }, payload: { id: over[0].id, reason: 'late' } });
    expect(again.json().state.code).toBe(500000);
  });

  it('answers the latest five and the counts for the home page', async () => {
    const latest = (await get('/service/exception/latest', alpha)).result;
    expect(latest).toHaveLength(5);
    expect(latest[0]).toMatchObject({ startTs: at(20), ongoing: true, carrierName: 'Alpha Fridge' });
    const stats = (await get('/service/exception/stats', alpha)).result;
    // The handled one was closed afterwards: closed wins.
    expect(stats).toEqual({ total: 7, pending: 5, processed: 0, closed: 2, ongoing: 1, byCategory: { temp_high: 4, temp_low: 3 } });
  });

  it('lets a normal user view but not handle or close', async () => {
    await t.addUser(t.tenants.a.customerId, 'alpha_viewer', 'Operator');
    const viewer = await t.login('alpha_viewer');
    expect((await get('/service/exception/page', viewer)).result.total).toBe(7);
    const [first] = await exceptionsOf(t.db, a.sensorId);
    const res = await t.app.inject({ method: 'PUT', url: '/service/exception/handle', headers: { cookie: viewer }, payload: { id: first.id, reason: 'x' } });
    expect(res.json().state.code).toBe(500102);
    const anon = await t.app.inject({ method: 'GET', url: '/service/exception/page' });
    expect(anon.statusCode).toBe(401);
  });
});

describe('exception paging of a customer with more than the count window', () => {
  it('counts a window past the page and says that more follow; near the end the count is exact', async () => {
    await t.db.query(
      `INSERT INTO exception_record (customer_id, sensor_id, type, category, status, ongoing, start_ts, end_ts, duration_s)
       SELECT $1, $2, 'data', 'temp_high', 2, false, to_timestamp(1e9 + g * 60), to_timestamp(1e9 + g * 60 + 30), 30 FROM generate_series(1, 1050) g`,
      [t.tenants.b.customerId, b.sensorId],
    );
    const first = (await get('/service/exception/page?iDisplayStart=0&iDisplayLength=20', beta)).result;
    expect(first).toMatchObject({ total: 1_020, more: true });
    expect(first.rows).toHaveLength(20);
    const last = (await get('/service/exception/page?iDisplayStart=1040&iDisplayLength=20', beta)).result;
    expect(last.total).toBe(1_051);
    expect(last.more).toBeUndefined();
    expect(last.rows).toHaveLength(11);
    // Another customer's count is exact and never crosses over.
    expect((await get('/service/exception/page?iDisplayStart=0&iDisplayLength=5', alpha)).result).toMatchObject({ total: 7 });
    expect((await get('/service/exception/page?iDisplayStart=0&iDisplayLength=5', alpha)).result.more).toBeUndefined();
  });
});
