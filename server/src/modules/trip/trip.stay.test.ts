import { beforeAll, describe, expect, it } from 'vitest';
import type { TestCtx } from '../../../test/helper.js';
import { call, withTwoCustomers, type Records } from '../shared/records.fixture.js';

/** The "retention" exception of a vehicle on a trip (docs/alarms.md "Retention"). */

let t: TestCtx;
let a: Records;
withTwoCustomers((c) => ({ t, a } = c));
const beat = (ts: number, lat: number, lng: number) =>
  t.app
    .inject({ method: 'POST', url: `/ingest/v1/${a.gatewaySn}/heartbeat`, headers: { authorization: `Bearer ${a.secret}` }, payload: { ts, gps: { lat, lng } } })
    .then((r) => expect(r.statusCode, r.body).toBe(200));
const stays = () =>
  t.db.query<{ start: number; end: number | null; ongoing: boolean; type: string; first_value: number; limit_min: number; limit_max: number }>(
    `SELECT (extract(epoch FROM start_ts) * 1000)::bigint AS start, (extract(epoch FROM end_ts) * 1000)::bigint AS "end", ongoing, type, first_value, limit_min, limit_max
       FROM exception_record WHERE carrier_id = $1 AND category = 'retention' ORDER BY start_ts`,
    [a.carrierId],
  );

const MIN = 60_000;
const now = Date.now();
let tripId: number;

beforeAll(async () => {
  const root = await t.login('admin');
  // A stop of more than 10 minutes within 150 m.
  await call(t, root, 'PUT', '/service/param/update', { key: 'trip_stay_radius_m', value: '150' });
  await call(t, root, 'PUT', '/service/param/update', { key: 'trip_stay_minutes', value: '10' });
  await t.db.query(`UPDATE carrier SET mode = 'transport' WHERE id = $1`, [a.carrierId]);
  // The vehicle's contact reads mail, so a retention has someone to tell.
  await t.db.query(`UPDATE contact SET email = 'driver@a.test' WHERE id = $1`, [a.contactId]);
  tripId = (await call(t, a.cookie, 'POST', '/service/trip/start', { carrierId: a.carrierId, startTime: now - 60 * MIN })).id;
});

describe('retention', () => {
  it('opens when the vehicle stays within the radius longer than the set time, at the start of the stay', async () => {
    // Driving north, about 1.1 km a minute.
    for (let i = 0; i < 5; i++) await beat(now - (50 - i) * MIN, 31.0 + i * 0.01, 121.4);
    // Stopped at 31.05 from minute 45 on, the fix wandering some 50 m (0.0005° of latitude).
    for (let i = 0; i <= 9; i++) await beat(now - (45 - i) * MIN, 31.05 + (i % 2) * 0.0005, 121.4);
    expect(await stays()).toEqual([]);
    await beat(now - 35 * MIN, 31.0505, 121.4);
    const [opened] = await stays();
    expect(opened).toMatchObject({ start: now - 45 * MIN, end: null, ongoing: true, type: 'transport', first_value: 10, limit_min: 150, limit_max: 10 });
    // Its mail went to the vehicle's contact in the transaction that opened it, with the limits.
    const told = await t.db.query<{ recipient: string; subject: string; content: string }>(
      `SELECT n.recipient, n.subject, n.content FROM notice_log n JOIN exception_record e ON e.id = n.exception_id WHERE e.category = 'retention' AND e.carrier_id = $1`,
      [a.carrierId],
    );
    expect(told).toHaveLength(1);
    expect(told[0].recipient).toBe('driver@a.test');
    expect(told[0].subject).toMatch(/Retention|滞留/);
    expect(told[0].content).toMatch(/10 (min|分钟)/);
    expect(told[0].content).toMatch(/150 (m|米)/);
    // Still there: the same one, no second, and nothing told again.
    await beat(now - 34 * MIN, 31.05, 121.4);
    expect(await stays()).toHaveLength(1);
    expect(await t.db.query(`SELECT 1 FROM notice_log n JOIN exception_record e ON e.id = n.exception_id WHERE e.category = 'retention'`)).toHaveLength(1);
    // It shows among the trip's excursions.
    const d = await call(t, a.cookie, 'GET', `/service/trip/detail?id=${tripId}`);
    expect(d.excursions).toEqual([expect.objectContaining({ category: 'retention', start: now - 45 * MIN, end: null })]);
  });

  it('ends when the vehicle moves out of the radius, at that position', async () => {
    await beat(now - 33 * MIN, 31.06, 121.4);
    expect(await stays()).toEqual([expect.objectContaining({ start: now - 45 * MIN, end: now - 33 * MIN, ongoing: false })]);
    // Driving on and a short stop (5 minutes): nothing new.
    for (let i = 0; i < 5; i++) await beat(now - (32 - i) * MIN, 31.07, 121.4);
    expect(await stays()).toHaveLength(1);
  });

  it("ends with the trip, and positions between trips open nothing", async () => {
    for (let i = 0; i <= 11; i++) await beat(now - (27 - i) * MIN, 31.07, 121.4);
    expect((await stays()).at(-1)).toMatchObject({ ongoing: true });
    await call(t, a.cookie, 'PUT', '/service/trip/end', { id: tripId, endTime: now - 10 * MIN });
    expect((await stays()).at(-1)).toMatchObject({ ongoing: false, end: now - 10 * MIN });
    for (let i = 9; i >= 0; i--) await beat(now - i * MIN, 31.07, 121.4);
    expect(await stays()).toHaveLength(2);
  });
});
