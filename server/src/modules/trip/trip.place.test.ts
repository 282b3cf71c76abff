import { beforeAll, describe, expect, it } from 'vitest';
import type { TestCtx } from '../../../test/helper.js';
import { call, requester, withTwoCustomers, type Records } from '../shared/records.fixture.js';

/** Places: their rules, and trips started by leaving one and ended by reaching one (docs/transport.md "Places"). */

let t: TestCtx;
let a: Records;
let b: Records;
withTwoCustomers((c) => ({ t, a, b } = c));
const ask = requester(() => t);
const MIN = 60_000;
const now = Date.now();
const beat = (ts: number, lat: number, lng = 121.4) =>
  t.app
    .inject({ method: 'POST', url: `/ingest/v1/${a.gatewaySn}/heartbeat`, headers: { authorization: `Bearer ${a.secret}` }, payload: { ts, gps: { lat, lng } } })
    .then((r) => expect(r.statusCode, r.body).toBe(200));
const trips = () =>
  t.db.query<{ origin: string; destination: string; start: number; end: number | null; auto: boolean; started_by: string; ended_by: string | null; positions: number }>(
    `SELECT t.origin, t.destination, (extract(epoch FROM t.start_ts) * 1000)::bigint::float8 AS start, (extract(epoch FROM t.end_ts) * 1000)::bigint::float8 AS "end",
            t.auto, t.started_by, t.ended_by, (SELECT count(*)::int FROM trip_position p WHERE p.trip_id = t.id) AS positions
       FROM trip t WHERE t.carrier_id = $1 ORDER BY t.start_ts`,
    [a.carrierId],
  );
let depot: number;

beforeAll(async () => {
  await t.db.query(`UPDATE carrier SET mode = 'transport' WHERE id = $1`, [a.carrierId]);
});

describe('places', () => {
  it('are made with a name, a position and a radius; a bad radius, position or a second name is refused', async () => {
    depot = (await call(t, a.cookie, 'POST', '/service/place/add', { name: 'Depot', lat: 31.0, lng: 121.4, radiusM: 300 })).id;
    await call(t, a.cookie, 'POST', '/service/place/add', { name: 'Clinic', lat: 31.1, lng: 121.4 });
    const small = await ask(a.cookie, 'POST', '/service/place/add', { name: 'Kiosk', lat: 31.2, lng: 121.4, radiusM: 10 });
    expect(small.state.msg).toContain('The radius of a place is a whole number of metres from 50 to 50,000');
    const off = await ask(a.cookie, 'POST', '/service/place/add', { name: 'Pole', lat: 95, lng: 121.4 });
    expect(off.state.msg).toMatch(/Latitude must be between -90 and 90/);
    const twice = await ask(a.cookie, 'POST', '/service/place/add', { name: 'Depot', lat: 31.3, lng: 121.4 });
    expect(twice.state).toEqual({ code: 418, msg: 'A place of this name exists already' });
    const page = await call(t, a.cookie, 'GET', '/service/place/page?iDisplayStart=0&iDisplayLength=10');
    expect(page.rows.map((r: { name: string; radiusM: number }) => [r.name, r.radiusM])).toEqual([['Clinic', 300], ['Depot', 300]]);
  });

  it("are another customer's 404: B neither lists, changes nor deletes A's", async () => {
    expect((await call(t, b.cookie, 'GET', '/service/place/page?iDisplayStart=0&iDisplayLength=10')).rows).toEqual([]);
    expect((await ask(b.cookie, 'PUT', '/service/place/update', { id: depot, name: 'Mine', lat: 1, lng: 1 })).status).toBe(404);
    expect((await ask(b.cookie, 'DELETE', `/service/place/del?ids=${depot}`)).status).toBe(404);
    expect((await call(t, a.cookie, 'GET', '/service/place/page?iDisplayStart=0&iDisplayLength=10')).total).toBe(2);
  });

  it('leaving a place starts a trip from it; reaching another ends it there; leaving that one starts the next', async () => {
    await beat(now - 60 * MIN, 31.0);
    await beat(now - 59 * MIN, 31.0005);
    expect(await trips()).toEqual([]);
    // Out of the depot's 300 m: a trip from the depot, from its last position there.
    await beat(now - 58 * MIN, 31.01);
    expect(await trips()).toEqual([expect.objectContaining({ origin: 'Depot', destination: '', start: now - 59 * MIN, end: null, auto: true, started_by: '' })]);
    for (let i = 1; i <= 8; i++) await beat(now - (58 - i) * MIN, 31.01 + i * 0.01);
    expect((await trips())[0].end).toBeNull();
    // Into the clinic's circle: the trip ends there, the clinic its destination.
    await beat(now - 49 * MIN, 31.099);
    expect(await trips()).toEqual([expect.objectContaining({ origin: 'Depot', destination: 'Clinic', end: now - 49 * MIN, ended_by: '', positions: 11 })]);
    // Standing at the clinic: nothing new; leaving it: the way back.
    await beat(now - 40 * MIN, 31.1);
    expect(await trips()).toHaveLength(1);
    await beat(now - 39 * MIN, 31.09);
    expect((await trips())[1]).toMatchObject({ origin: 'Clinic', start: now - 40 * MIN, end: null, auto: true });
  });

  it('a trip started by a user keeps its destination; positions back-filled before the newest judge nothing', async () => {
    await call(t, a.cookie, 'PUT', '/service/trip/end', { id: (await call(t, a.cookie, 'GET', `/service/trip/page?iDisplayStart=0&iDisplayLength=1&status=0`)).rows[0].id, endTime: now - 38 * MIN });
    await beat(now - 30 * MIN, 31.05);
    await call(t, a.cookie, 'POST', '/service/trip/start', { carrierId: a.carrierId, destination: 'Ward 3', startTime: now - 30 * MIN });
    await beat(now - 29 * MIN, 31.03);
    await beat(now - 28 * MIN, 31.0);
    expect((await trips()).at(-1)).toMatchObject({ destination: 'Ward 3', end: now - 28 * MIN, auto: false });
    const before = await trips();
    await beat(now - 33 * MIN, 31.1);
    expect(await trips()).toEqual(before);
  });
});
