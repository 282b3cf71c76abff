import { beforeAll, describe, expect, it } from 'vitest';
import { TRIP_STATUS } from '@coldwatch/contract';
import type { TestCtx } from '../../../test/helper.js';
import { call, requester, withTwoCustomers, type Records } from '../shared/records.fixture.js';
import { enforceRetention } from '../../jobs/retention.js';
import { thin } from './trip.repository.js';
import { signTrip } from './trip.link.js';

/** Trips of carriers in transport mode and their positions (docs/transport.md). */

let t: TestCtx;
let a: Records;
let b: Records;
withTwoCustomers((c) => ({ t, a, b } = c));
const req = requester(() => t);
const beat = (body: object) =>
  t.app.inject({ method: 'POST', url: `/ingest/v1/${a.gatewaySn}/heartbeat`, headers: { authorization: `Bearer ${a.secret}` }, payload: body });
const positions = async () => Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM trip_position WHERE carrier_id = $1', [a.carrierId]))[0].n);

beforeAll(async () => {
  // Before transport mode, no trip and no position.
  const r = await req(a.cookie, 'POST', '/service/trip/start', { carrierId: a.carrierId });
  expect(r.state.msg).toBe("Trips are for carriers in transport mode: set the carrier's mode to transport first");
  expect((await beat({ ts: Date.now() - 20 * 60_000, gps: { lat: 31.2, lng: 121.4 } })).statusCode).toBe(200);
  expect(await positions()).toBe(0);
  await t.db.query(`UPDATE carrier SET mode = 'transport' WHERE id = $1`, [a.carrierId]);
});

describe('trips', () => {
  let tripId: number;
  const now = Date.now();

  it('starts a trip (back-dated) that takes the positions reported since, and refuses a bad position whole', async () => {
    expect((await beat({ ts: now - 14 * 60_000, gps: { lat: 31.23, lng: 121.47 } })).statusCode).toBe(200);
    // A position outside −90..90 / −180..180: the heartbeat is refused with its reason, nothing is stored.
    const bad = await beat({ ts: now - 13 * 60_000, gps: { lat: 91, lng: 121.47 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('gps.lat is out of range');
    expect((await beat({ ts: now - 13 * 60_000, gps: { lat: 31.2, lng: 181 } })).body).toContain('gps.lng is out of range');
    const started = await call(t, a.cookie, 'POST', '/service/trip/start', { carrierId: a.carrierId, origin: 'Shanghai CDC', destination: 'Pudong clinic', cargo: '200 doses', startTime: now - 15 * 60_000 });
    tripId = started.id;
    for (let i = 12; i >= 1; i--) expect((await beat({ ts: now - i * 60_000, gps: { lat: 31.23 + (12 - i) * 0.01, lng: 121.47 } })).statusCode).toBe(200);
    // A redelivered heartbeat is the same position.
    await beat({ ts: now - 60_000, gps: { lat: 31.34, lng: 121.47 } });
    expect(await positions()).toBe(13);
    // One trip under way per carrier.
    const again = await req(a.cookie, 'POST', '/service/trip/start', { carrierId: a.carrierId });
    expect(again.state.msg).toBe('This carrier already has a trip under way: end it before starting another');
  });

  it('lists the trip and shows its route, readings, min/max/MKT and excursions', async () => {
    const page = await call(t, a.cookie, 'GET', `/service/trip/page?iDisplayStart=0&iDisplayLength=10&carrierId=${a.carrierId}`);
    expect(page.total).toBe(1);
    expect(page.rows[0]).toMatchObject({ id: tripId, carrierName: 'AlphaFridge', origin: 'Shanghai CDC', destination: 'Pudong clinic', cargo: '200 doses', status: TRIP_STATUS.underWay, endTime: null, positions: 13 });
    await t.db.query(
      `INSERT INTO exception_record(customer_id, carrier_id, sensor_id, type, category, start_ts, end_ts, peak_value, status, reason) VALUES ($1, $2, $3, 'data', 'temp_high', $4, $5, 9.1, 1, 'Door left open')`,
      [a.customerId, a.carrierId, a.sensorId, new Date(now - 5 * 60_000), new Date(now - 4 * 60_000)],
    );
    const d = await call(t, a.cookie, 'GET', `/service/trip/detail?id=${tripId}`);
    expect(d.trip).toMatchObject({ id: tripId, cargo: '200 doses', status: 0 });
    expect(d.route).toHaveLength(13);
    expect(d.route[0]).toEqual({ ts: now - 14 * 60_000, lat: 31.23, lng: 121.47 });
    // The fixture's readings of the last 10 minutes, all 5 °C.
    expect(d.readings).toHaveLength(1);
    expect(d.readings[0]).toMatchObject({ deviceNo: a.devNo, total: 10 });
    expect(d.statistic.summary.temp).toMatchObject({ min: 5, max: 5 });
    expect(d.statistic.summary.temp.mkt).toBeCloseTo(5, 6);
    expect(d.excursions).toEqual([{ category: 'temp_high', start: now - 5 * 60_000, end: now - 4 * 60_000, peakValue: 9.1, status: 1, reason: 'Door left open', measures: '' }]);
  });

  it("is another customer's 404: B neither sees, reads, ends nor starts A's trips", async () => {
    expect((await call(t, b.cookie, 'GET', '/service/trip/page?iDisplayStart=0&iDisplayLength=10')).rows).toEqual([]);
    expect((await req(b.cookie, 'GET', `/service/trip/detail?id=${tripId}`)).status).toBe(404);
    expect((await req(b.cookie, 'PUT', '/service/trip/end', { id: tripId })).status).toBe(404);
    expect((await req(b.cookie, 'POST', '/service/trip/start', { carrierId: a.carrierId })).status).toBe(404);
    expect((await call(t, a.cookie, 'GET', `/service/trip/detail?id=${tripId}`)).trip.endTime).toBeNull();
  });

  it('hands a transport code that opens the trip without a login; altered or expired: 401 with its reason, nothing else', async () => {
    const made = await call(t, a.cookie, 'POST', '/service/trip/code', { id: tripId });
    expect(made.url).toContain(`/traceDetail?code=${encodeURIComponent(made.code)}`);
    expect(made.expiresAt).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    const open = (code: string, lang = 'en-US') =>
      t.app.inject({ method: 'GET', url: `/service/trace/detail?code=${encodeURIComponent(code)}`, headers: { 'accept-language': lang } }).then((r) => ({ status: r.statusCode, ...r.json() }));
    const seen = await open(made.code);
    expect(seen.state.code).toBe(200000);
    expect(seen.result).toMatchObject({ customerName: 'Alpha Hospital', expiresAt: made.expiresAt, trip: { cargo: '200 doses', origin: 'Shanghai CDC', carrierName: 'AlphaFridge' } });
    expect(seen.result.route).toHaveLength(13);
    expect(seen.result.statistic.summary.temp.max).toBe(5);
    expect(seen.result.excursions).toHaveLength(1);
    // Nothing of B, no identifiers another call could take, no user names.
    expect(JSON.stringify(seen.result)).not.toMatch(/Beta|"id"|"carrierId"|"customerId"|startedBy/);
    const [id, customer, exp, mac] = made.code.split('.');
    for (const altered of [`${id}.${b.customerId}.${exp}.${mac}`, `${id}.${customer}.${Number(exp) + 1}.${mac}`, `${Number(id) + 1}.${customer}.${exp}.${mac}`, 'nonsense']) {
      const r = await open(altered);
      expect(r.status, altered).toBe(401);
      expect(r.state.msg).toBe('This transport code is not valid: it was changed, cut short or made by another console');
      expect(JSON.stringify(r)).not.toContain('doses');
    }
    const expired = await open(await signTrip(t.db, { id: tripId, customerId: a.customerId, exp: Date.now() - 1000 }), 'zh-CN');
    expect(expired.status).toBe(401);
    expect(expired.state.msg).toBe('运输码已过期，请向发货方索取新的运输码');
    // B makes no code for A's trip.
    expect((await req(b.cookie, 'POST', '/service/trip/code', { id: tripId })).status).toBe(404);
  });

  it('ends a trip, never before its start nor twice; positions after its end leave it', async () => {
    const early = await req(a.cookie, 'PUT', '/service/trip/end', { id: tripId, endTime: now - 16 * 60_000 });
    expect(early.state.msg).toBe('A trip cannot end before it started');
    expect(await call(t, a.cookie, 'PUT', '/service/trip/end', { id: tripId, endTime: now - 90_000 })).toEqual({ id: tripId });
    expect((await req(a.cookie, 'PUT', '/service/trip/end', { id: tripId })).state.msg).toBe('This trip has already ended');
    const d = await call(t, a.cookie, 'GET', `/service/trip/detail?id=${tripId}`);
    expect(d.trip).toMatchObject({ status: TRIP_STATUS.ended, endTime: now - 90_000 });
    expect(d.route).toHaveLength(12);
    // Between trips the positions are kept without a trip.
    await beat({ ts: now - 30_000, gps: { lat: 31.4, lng: 121.5 } });
    expect((await t.db.query<{ trip_id: number | null }>('SELECT trip_id FROM trip_position WHERE carrier_id = $1 ORDER BY ts DESC LIMIT 1', [a.carrierId]))[0].trip_id).toBeNull();
    expect((await req(a.cookie, 'POST', '/service/trip/start', { carrierId: a.carrierId, cargo: 'x'.repeat(201) })).result.errors).toEqual({ cargo: 'The cargo note can be at most 200 characters' });
  });

  it('keeps positions for the GPS history retention days, a trip under way its whole route', async () => {
    const open = await call(t, a.cookie, 'POST', '/service/trip/start', { carrierId: a.carrierId });
    await t.db.query(`INSERT INTO trip_position(customer_id, carrier_id, trip_id, ts, lat, lng, source) VALUES ($1, $2, $3, now() - interval '400 days', 1, 1, 'x'), ($1, $2, NULL, now() - interval '401 days', 1, 1, 'x')`, [
      a.customerId,
      a.carrierId,
      open.id,
    ]);
    expect((await enforceRetention(t.db)).positions).toBe(1);
    expect(await positions()).toBe(15);
  });

  it('thins a long route evenly, keeping its ends', () => {
    const pts = Array.from({ length: 10 }, (_, i) => i);
    expect(thin(pts, 4)).toEqual([0, 3, 6, 9]);
    expect(thin(pts, 20)).toBe(pts);
  });
});
