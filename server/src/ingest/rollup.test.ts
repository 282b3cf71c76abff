import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../test/helper.js';
import { call, seedRecords, type Records } from '../modules/shared/records.fixture.js';
import { rollupAll } from './rollup.js';

/*
 * Rollups: readings that arrive through ingest mark their 5-minute buckets, the rollup pass
 * computes 5-minute and hourly rows from them (late readings and back-fill included), and
 * history answers a span longer than a week from them.
 */

let t: TestCtx;
let a: Records;
const T0 = Date.UTC(2026, 9, 1); // a Thursday, 00:00 UTC
const MIN = 60_000;

beforeAll(async () => {
  t = await setup();
  a = await seedRecords(t, 'alpha', 'Alpha', 'A1');
  // This suite counts the buckets of its own readings: the fixture's few are taken away.
  await t.db.query('DELETE FROM reading WHERE sensor_id = $1', [a.sensorId]);
  await t.db.query('DELETE FROM rollup_pending WHERE sensor_id = $1', [a.sensorId]);
}, 180_000);
afterAll(() => t.close());

const gw = () => t.ingest.authenticate(a.gatewaySn, a.secret).then((g) => g!);
const send = async (readings: { ts: number; temp: number; hum?: number }[]) =>
  t.ingest.handle(await gw(), 'data', JSON.stringify({ readings: readings.map((r) => ({ dev: a.devNo, ...r })) }));

const five = (sensorId: number) =>
  t.db.query<{ bucket: Date; n: number; temp_min: number; temp_max: number; temp_sum: number; temp_n: number }>(
    'SELECT bucket, n, temp_min, temp_max, temp_sum, temp_n FROM reading_5m WHERE sensor_id = $1 ORDER BY bucket',
    [sensorId],
  );

describe('rollups', () => {
  it('readings through ingest are rolled up into 5-minute and hourly buckets', async () => {
    // 0:00–0:59, a reading a minute: 12 five-minute buckets in one hour.
    const r = await send(Array.from({ length: 60 }, (_, i) => ({ ts: T0 + i * MIN, temp: 4 + (i % 5), hum: 50 })));
    expect(r.accepted).toBe(60);
    expect(await rollupAll(t.db)).toBe(12);
    const rows = await five(a.sensorId);
    expect(rows).toHaveLength(12);
    expect(rows[0]).toMatchObject({ n: 5, temp_min: 4, temp_max: 8, temp_sum: 30, temp_n: 5 });
    const hour = await t.db.one<{ n: number; temp_min: number; temp_max: number; temp_sum: number; first_ts: Date; last_ts: Date }>(
      'SELECT n, temp_min, temp_max, temp_sum, first_ts, last_ts FROM reading_1h WHERE sensor_id = $1',
      [a.sensorId],
    );
    expect(hour).toMatchObject({ n: 60, temp_min: 4, temp_max: 8, temp_sum: 360 });
    expect(hour!.first_ts.getTime()).toBe(T0);
    expect(hour!.last_ts.getTime()).toBe(T0 + 59 * MIN);
    expect(await rollupAll(t.db)).toBe(0);
  });

  it('a late reading recomputes its bucket and hour; a redelivery changes nothing', async () => {
    await send([{ ts: T0 + 2 * MIN + 30_000, temp: -7 }]);
    await send([{ ts: T0 + 2 * MIN + 30_000, temp: -7 }]);
    expect(await rollupAll(t.db)).toBe(1);
    expect((await five(a.sensorId))[0]).toMatchObject({ n: 6, temp_min: -7, temp_max: 8, temp_n: 6 });
    expect(await t.db.one('SELECT n, temp_min FROM reading_1h WHERE sensor_id = $1', [a.sensorId])).toEqual({ n: 61, temp_min: -7 });
  });

  it('history over more than a week reads the rollups; a week or less reads the raw readings', async () => {
    // Ten more days, one reading an hour (back-filled in one message), a 31.5 °C spike on day 5.
    const readings = Array.from({ length: 240 }, (_, i) => ({ ts: T0 + 3_600_000 + i * 3_600_000, temp: i === 120 ? 31.5 : 5 }));
    await send(readings);
    await rollupAll(t.db);
    const q = (start: number, end: number, maxPoints = 200) =>
      call(t, a.cookie, 'GET', `/service/share/history?deviceNo=${a.devNo}&start=${start}&end=${end}&maxPoints=${maxPoints}`);
    const long = await q(T0, T0 + 10 * 86_400_000);
    expect(long.source).toBe('1h');
    expect(long.total).toBe(61 + 240);
    expect(long.points.length).toBeLessThanOrEqual(200);
    expect(Math.max(...long.points.map((p: { temp: number }) => p.temp))).toBe(31.5);
    expect(Math.min(...long.points.map((p: { temp: number }) => p.temp))).toBe(-7);
    const fine = await q(T0, T0 + 8 * 86_400_000, 10_000);
    expect(fine.source).toBe('5m');
    const short = await q(T0, T0 + 86_400_000);
    expect(short.source).toBe('raw');
  });
});
