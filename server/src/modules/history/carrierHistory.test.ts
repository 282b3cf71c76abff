import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../../test/helper.js';
import { call, seedRecords, type Records } from '../shared/records.fixture.js';
import { markForRollup, rollupAll } from '../../ingest/rollup.js';

let t: TestCtx;
let a: Records;
let b: Records;
let second: number;
const T0 = Date.UTC(2025, 6, 1);
const MIN = 60_000;

beforeAll(async () => {
  t = await setup();
  a = await seedRecords(t, 'alpha', 'Alpha', 'A1');
  b = await seedRecords(t, 'beta', 'Beta', 'B1');
  // A second probe in alpha's fridge; the fridge averages them.
  [{ id: second }] = await t.db.query<{ id: number }>(
    `INSERT INTO sensor (customer_id, dev_no, type, gateway_id, carrier_id, status) VALUES ($1, 'A1PROBE2', 'zigbee_th', $2, $3, 1) RETURNING id`,
    [a.customerId, a.gatewayId, a.carrierId],
  );
  await t.db.query(`UPDATE carrier SET sample_mode = 'avg' WHERE id = $1`, [a.carrierId]);
  // Ten days a minute apart: the first probe at 4 °C, the second at 6 °C, then 12 °C for minute 100 only.
  for (const [id, v] of [[a.sensorId, 4], [second, 6]] as const) {
    await t.db.query(
      `INSERT INTO reading(sensor_id, ts, customer_id, temp, hum)
       SELECT $1, to_timestamp(($2::bigint + g * 60000) / 1000.0), $3, CASE WHEN $1::int = $5::int AND g = 100 THEN 12 ELSE $4::real END, 50
         FROM generate_series(0, 14399) g`,
      [id, T0, a.customerId, v, second],
    );
  }
}, 180_000);
afterAll(() => t.close());

const url = (q: Record<string, unknown>) => `/service/share/history/carrier?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`;

describe('the carrier value\'s history', () => {
  it('charts the average of the probes, the excursion included', async () => {
    const r = await call(t, a.cookie, 'GET', url({ carrierId: a.carrierId, start: T0, end: T0 + 199 * MIN, maxPoints: 1000 }));
    expect(r).toMatchObject({ carrierId: a.carrierId, mode: 'avg', devNos: [a.devNo, 'A1PROBE2'], downsampled: false, source: 'raw' });
    expect(r.points).toHaveLength(200);
    expect(r.points[0]).toMatchObject({ ts: T0, temp: 5, hum: 50 });
    expect(r.points.find((p: { ts: number }) => p.ts === T0 + 100 * MIN).temp).toBe(8);
  });

  it('keeps every bucket\'s extremes when downsampled, and reads the rollups beyond a week', async () => {
    const r = await call(t, a.cookie, 'GET', url({ carrierId: a.carrierId, start: T0, end: T0 + 2 * 86_400_000, maxPoints: 100 }));
    expect(r.downsampled).toBe(true);
    expect(r.points.length).toBeLessThanOrEqual(100);
    expect(Math.max(...r.points.map((p: { temp: number }) => p.temp))).toBe(8);

    for (const id of [a.sensorId, second]) await markForRollup(t.db, id, T0, T0 + 10 * 86_400_000);
    await rollupAll(t.db);
    const long = await call(t, a.cookie, 'GET', url({ carrierId: a.carrierId, start: T0, end: T0 + 10 * 86_400_000 - 1, maxPoints: 1000 }));
    expect(long.source).toBe('1h');
    expect(Math.max(...long.points.map((p: { temp: number }) => p.temp))).toBe(8);
    expect(Math.min(...long.points.map((p: { temp: number }) => p.temp))).toBe(5);
  });

  it('answers 404 for another customer\'s carrier and refuses a reversed span', async () => {
    const other = await t.app.inject({ method: 'GET', url: url({ carrierId: a.carrierId, start: T0, end: T0 + MIN }), headers: { cookie: b.cookie } });
    expect(other.statusCode).toBe(404);
    const reversed = await t.app.inject({ method: 'GET', url: url({ carrierId: a.carrierId, start: T0 + MIN, end: T0 }), headers: { cookie: a.cookie, 'accept-language': 'en-US' } });
    expect(reversed.statusCode).toBe(400);
  });
});
