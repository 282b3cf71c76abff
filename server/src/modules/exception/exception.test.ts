import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, setup, type TestCtx } from '../../../test/helper.js';
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
const sign = { account: 'alpha', password: PASSWORD };
/** Alpha's first default reason ("Door left open"). */
const doorOpen = async () => (await get('/service/exReason/options', alpha)).result[0].id as number;
const handleBody = async (ids: number[]) => ({ ids, reasonId: await doorOpen(), measures: 'Closed the door, checked goods', judgement: 'confirmed', sign });

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

  it('says which exceptions were recorded during an alarm pause, in the page and the detail', async () => {
    const rows = (await get('/service/exception/page?iDisplayStart=0&iDisplayLength=10', alpha)).result.rows;
    expect(rows.every((x: { duringPause: boolean }) => x.duringPause === false)).toBe(true);
    await t.db.query('UPDATE exception_record SET during_pause = true WHERE id = $1', [rows[1].id]);
    try {
      const again = (await get('/service/exception/page?iDisplayStart=0&iDisplayLength=10', alpha)).result.rows;
      expect(again.filter((x: { duringPause: boolean }) => x.duringPause).map((x: { id: number }) => x.id)).toEqual([rows[1].id]);
      expect((await get(`/service/exception/detail?id=${rows[1].id}`, alpha)).result.duringPause).toBe(true);
      expect((await get(`/service/exception/detail?id=${rows[0].id}`, alpha)).result.duringPause).toBe(false);
    } finally {
      await t.db.query('UPDATE exception_record SET during_pause = false WHERE id = $1', [rows[1].id]);
    }
  });

  it("names a gateway's exception by the gateway's number and name (it has no sensor), a sensor's by its device number", async () => {
    const gw = (await t.db.one<{ sn: string; name: string }>('SELECT sn, name FROM gateway WHERE id = $1', [a.gatewayId]))!;
    const row = (await t.db.one<{ id: number }>(
      `INSERT INTO exception_record(customer_id, carrier_id, gateway_id, type, category, start_ts, ongoing) VALUES ($1, $2, $3, 'device', 'gateway_blackout', now(), true) RETURNING id`,
      [t.tenants.a.customerId, a.carrierId, a.gatewayId],
    ))!;
    try {
      const rows = (await get('/service/exception/page?iDisplayStart=0&iDisplayLength=20&category=gateway_blackout', alpha)).result.rows;
      expect(rows).toEqual([expect.objectContaining({ id: row.id, gatewayId: a.gatewayId, gatewaySn: gw.sn, gatewayName: gw.name, devNo: null, sensorId: null })]);
      const sensorRows = (await get('/service/exception/page?iDisplayStart=0&iDisplayLength=1&category=temp_high', alpha)).result.rows;
      expect(sensorRows[0]).toMatchObject({ devNo: a.devNo, sensorId: a.sensorId });
      expect((await get(`/service/exception/detail?id=${row.id}`, alpha)).result).toMatchObject({ gatewaySn: gw.sn, gatewayName: gw.name });
    } finally {
      await t.db.query('DELETE FROM exception_record WHERE id = $1', [row.id]);
    }
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
    const handle = await t.app.inject({ method: 'PUT', url: '/service/exception/handle', headers: { cookie: beta }, payload: { ...(await handleBody([alphaIds[0]])), sign: { account: 'beta', password: PASSWORD } } });
    expect(handle.statusCode).toBe(404);
    const close = await t.app.inject({ method: 'PUT', url: `/service/exception/close?ids=${alphaIds[0]}`, headers: { cookie: beta } });
    expect(close.statusCode).toBe(404);
    expect((await get('/service/exception/latest', beta)).result).toHaveLength(1);
    expect((await get('/service/exception/stats', beta)).result).toMatchObject({ total: 1, pending: 1, ongoing: 1 });
    // Beta's own exception reached nobody (its carrier has no contact): the one row says so; none of A's.
    const notices = (await get('/service/notice/page', beta)).result;
    expect(notices.rows.map((r: { status: number; customerId: number }) => [r.status, r.customerId])).toEqual([[3, t.tenants.b.customerId]]);
  });

  it('answers the detail with its notices', async () => {
    const [first] = await exceptionsOf(t.db, a.sensorId);
    const r = (await get(`/service/exception/detail?id=${first.id}`, alpha)).result;
    expect(r).toMatchObject({ id: first.id, carrierName: 'Alpha Fridge', startTs: at(1), endTs: at(2) });
    expect(r.notices).toEqual([expect.objectContaining({ channel: 'email', recipient: 'ops@alpha.test', type: 'alarm', status: 2 })]);
    expect((await t.app.inject({ method: 'GET', url: '/service/exception/detail?id=999999', headers: { cookie: alpha } })).statusCode).toBe(404);
  });

  it('handles an exception with a reason of the catalogue and measures, signed, and logs it', async () => {
    const [first] = await exceptionsOf(t.db, a.sensorId);
    const res = await t.app.inject({ method: 'PUT', url: '/service/exception/handle', headers: { cookie: alpha, 'accept-language': 'en' }, payload: await handleBody([first.id]) });
    expect(res.json()).toMatchObject({ state: { code: 200000 }, result: { handled: 1, status: 1 } });
    const r = (await get(`/service/exception/detail?id=${first.id}`, alpha)).result;
    expect(r).toMatchObject({ status: 1, reason: 'Door left open', measures: 'Closed the door, checked goods', judgement: 'confirmed', excluded: false });
    expect(r.steps).toEqual([expect.objectContaining({ action: 'handle', meaning: 'reviewed', userAccount: 'alpha', statusBefore: 0, statusAfter: 1 })]);
    // (Beta's refused attempt above is on the log too, with result 0.)
    const log = await t.db.query(`SELECT * FROM sys_log WHERE module = 'exception' AND method = 'handle' AND result = 1`);
    expect(log).toEqual([expect.objectContaining({ result: 1, operator: 'alpha' })]);
    expect(JSON.stringify(log)).not.toContain(PASSWORD);
    const tooLong = await t.app.inject({ method: 'PUT', url: '/service/exception/handle', headers: { cookie: alpha }, payload: { ...(await handleBody([first.id])), measures: 'x'.repeat(251) } });
    expect(tooLong.statusCode).toBe(400);
  });

  it('closes only processed exceptions that are over, all or nothing', async () => {
    const ex = await exceptionsOf(t.db, a.sensorId);
    const ongoing = ex.find((e) => e.ongoing)!;
    const over = ex.filter((e) => !e.ongoing).slice(0, 2);
    const close = (ids: number[]) => t.app.inject({ method: 'PUT', url: `/service/exception/close?ids=${ids.join(',')}`, headers: { cookie: alpha, 'accept-language': 'en' }, payload: { sign } });
    // over[1] is still pending: handle it first.
    const pending = await close([over[0].id, over[1].id]);
    expect(pending.json().state).toEqual({ code: 500000, msg: 'Only a processed exception can be closed or corrected: handle it first' });
    const handled = await t.app.inject({ method: 'PUT', url: '/service/exception/handle', headers: { cookie: alpha }, payload: await handleBody([over[1].id, ongoing.id]) });
    expect(handled.json().result).toEqual({ handled: 2, status: 1 });
    const refused = await close([over[0].id, ongoing.id]);
    expect(refused.json().state).toEqual({ code: 500000, msg: 'An ongoing exception cannot be closed until it has ended' });
    expect((await exceptionsOf(t.db, a.sensorId)).find((e) => e.id === over[0].id)!.status).toBe(1);

    const res = await close(over.map((e) => e.id));
    expect(res.json()).toMatchObject({ state: { code: 200000 }, result: { closed: 2 } });
    const after = await exceptionsOf(t.db, a.sensorId);
    expect(after.filter((e) => e.status === 2).map((e) => e.id)).toEqual(over.map((e) => e.id));
    // A closed record is final.
    const again = await t.app.inject({ method: 'PUT', url: '/service/exception/handle', headers: { cookie: alpha }, payload: await handleBody([over[0].id]) });
    expect(again.json().state.code).toBe(500000);
  });

  it('answers the latest five and the counts for the home page', async () => {
    const latest = (await get('/service/exception/latest', alpha)).result;
    expect(latest).toHaveLength(5);
    expect(latest[0]).toMatchObject({ startTs: at(20), ongoing: true, carrierName: 'Alpha Fridge' });
    const stats = (await get('/service/exception/stats', alpha)).result;
    // Two handled ones were closed afterwards; the ongoing one is processed.
    expect(stats).toEqual({ total: 7, pending: 4, processed: 1, closed: 2, ongoing: 1, byCategory: { temp_high: 4, temp_low: 3 } });
  });

  it('lets a normal user view but not handle or close', async () => {
    await t.addUser(t.tenants.a.customerId, 'alpha_viewer', 'Operator');
    const viewer = await t.login('alpha_viewer');
    expect((await get('/service/exception/page', viewer)).result.total).toBe(7);
    const [first] = await exceptionsOf(t.db, a.sensorId);
    const res = await t.app.inject({ method: 'PUT', url: '/service/exception/handle', headers: { cookie: viewer }, payload: { ...(await handleBody([first.id])), sign: { account: 'alpha_viewer', password: PASSWORD } } });
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
