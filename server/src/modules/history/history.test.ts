import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../../test/helper.js';
import { call, seedRecords, type Records } from '../shared/records.fixture.js';

/** Building the app and seeding two customers through the API can be slow on a busy two-core machine. */
const SETUP_MS = 180_000;
let t: TestCtx;
let a: Records;
let b: Records;
const T0 = Date.UTC(2025, 5, 1);
const MIN = 60_000;
const SPIKE = T0 + 4321 * MIN;
const DIP = T0 + 777 * MIN;
const HUM_PEAK = T0 + 5000 * MIN;

beforeAll(async () => {
  t = await setup();
  a = await seedRecords(t, 'alpha', 'Alpha', 'A1');
  b = await seedRecords(t, 'beta', 'Beta', 'B1');
  // 6000 readings a minute apart, a gentle wave; one brief spike, one dip, one humidity peak.
  await t.db.query(
    `INSERT INTO reading(sensor_id, ts, customer_id, temp, hum, volt)
     SELECT $1, to_timestamp(($2::bigint + g * 60000) / 1000.0), $3,
            CASE WHEN g = 4321 THEN 19.5 WHEN g = 777 THEN -3.25 ELSE 5 + sin(g / 50.0) END,
            CASE WHEN g = 5000 THEN 97 ELSE 50 END, 3.01
       FROM generate_series(0, 5999) g`,
    [a.sensorId, T0, a.customerId],
  );
}, SETUP_MS);
afterAll(() => t.close());

const req = (cookie: string, url: string) =>
  t.app.inject({ method: 'GET', url, headers: { cookie, 'accept-language': 'en-US' } }).then((r) => ({ status: r.statusCode, ...r.json() }));
const url = (q: Record<string, unknown>) => `/service/share/history?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`;

describe('history', () => {
  it('returns every reading when there are no more than maxPoints, with the zone', async () => {
    const r = await call(t, a.cookie, 'GET', url({ deviceNo: a.devNo, start: T0, end: T0 + 99 * MIN, maxPoints: 100 }));
    expect(r.downsampled).toBe(false);
    expect(r.points).toHaveLength(100);
    expect(r.points[0]).toEqual({ ts: T0, temp: 5, hum: 50, volt: 3.01, rssi: null, lqi: null, gas: null, door: null });
    expect(r.zone).toEqual({ tempMin: 2, tempMax: 8, humMin: 30, humMax: 70 });
    expect(r.deviceNo).toBe(a.devNo);
  });

  it('downsamples into time buckets keeping each extreme at its real time', async () => {
    const r = await call(t, a.cookie, 'GET', url({ deviceNo: a.devNo, start: T0, end: T0 + 5999 * MIN, maxPoints: 200 }));
    expect(r.downsampled).toBe(true);
    expect(r.total).toBe(6000);
    expect(r.points.length).toBeLessThanOrEqual(200);
    expect(r.points.length).toBeGreaterThan(100);
    const at = (ts: number) => r.points.find((p: any) => p.ts === ts);
    expect(at(SPIKE)).toMatchObject({ temp: 19.5 });
    expect(at(DIP)).toMatchObject({ temp: -3.25 });
    expect(at(HUM_PEAK)).toMatchObject({ hum: 97 });
    const ts = r.points.map((p: any) => p.ts);
    expect(ts).toEqual([...ts].sort((x, y) => x - y));
    expect(ts.every((x: number) => (x - T0) % MIN === 0)).toBe(true);
  });

  it('validates the query (spec §5 start not after end; span capped at 400 days)', async () => {
    const bad = await req(a.cookie, url({ deviceNo: a.devNo, start: T0 + 1, end: T0 }));
    expect(bad.status).toBe(400);
    expect(bad.result.errors.start).toBe('The start cannot be later than the end');
    const equal = await req(a.cookie, url({ deviceNo: a.devNo, start: T0, end: T0 }));
    expect(equal.state.code).toBe(200000);
    const long = await req(a.cookie, url({ deviceNo: a.devNo, start: T0, end: T0 + 401 * 86_400_000 }));
    expect(long.status).toBe(400);
    expect(long.result.errors.end).toBe('A history query spans at most 400 days');
    expect((await req(a.cookie, url({ deviceNo: a.devNo, start: T0, end: T0 + 400 * 86_400_000 }))).state.code).toBe(200000);
  });

  it("answers another customer's device, and an unknown one, as missing", async () => {
    expect((await req(b.cookie, url({ deviceNo: a.devNo, start: T0, end: T0 + MIN }))).status).toBe(404);
    expect((await req(a.cookie, url({ deviceNo: 'NOSUCH1', start: T0, end: T0 + MIN }))).status).toBe(404);
  });
});
