import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MeasureFigures, StatisticResult } from '@coldwatch/contract';
import { setup, type TestCtx } from '../../../test/helper.js';
import { call, seedRecords, type Records } from '../shared/records.fixture.js';
import { markForRollup, rollupAll } from '../../ingest/rollup.js';
import type { Scope } from '../../platform/auth/scope.js';
import { statistics } from './statistic.repository.js';

/*
 * The rollup path gives the raw path's figures, every one of them, on the same readings
 * (docs/statistics.md "Rollups"): three days of one-minute readings that wander across the
 * zone's limits, with gaps, an invalid rule's period, buckets still pending after a late
 * reading, and days of a +05:45 zone (whose midnight falls at :15 past a UTC hour).
 */

let t: TestCtx;
let a: Records;
let scope: Scope;
const D0 = Date.UTC(2026, 8, 10, 0, 0);
const MIN = 60_000;
const DAY = 86_400_000;

beforeAll(async () => {
  t = await setup();
  a = await seedRecords(t, 'alpha', 'Alpha', 'A1');
  await t.db.query(`UPDATE customer SET time_zone = '+05:45' WHERE id = $1`, [a.customerId]);
  // 3 days a minute apart, a slow wave from 1 °C to 9 °C over a 2–8 °C zone, humidity 25–75 over 30–70,
  // two hours of silence on day 2, a late-night spike.
  const ts: number[] = [];
  const temp: number[] = [];
  const hum: number[] = [];
  for (let i = 0; i < 3 * 1440; i++) {
    if (i >= 1440 + 600 && i < 1440 + 720) continue;
    ts.push(D0 + i * MIN + (i % 7) * 1000);
    temp.push(5 + 4 * Math.sin(i / 180) + (i === 2000 ? 20 : 0));
    hum.push(50 + 25 * Math.cos(i / 300));
  }
  await t.db.query(
    `INSERT INTO reading (sensor_id, ts, customer_id, temp, hum) SELECT $1, to_timestamp(x / 1000.0), $2, v, h FROM unnest($3::bigint[], $4::real[], $5::real[]) AS r(x, v, h)`,
    [a.sensorId, a.customerId, ts, temp, hum],
  );
  await markForRollup(t.db, a.sensorId, D0, D0 + 3 * DAY);
  await rollupAll(t.db);
  // A late reading after the rollup ran: its bucket is pending, the statistics read it raw.
  await t.db.query(`INSERT INTO reading (sensor_id, ts, customer_id, temp, hum) VALUES ($1, $2, $3, 11.5, 50)`, [a.sensorId, new Date(D0 + DAY + 30_500), a.customerId]);
  await markForRollup(t.db, a.sensorId, D0 + DAY, D0 + DAY + MIN);
  // An invalid rule's period of 95 minutes on day 3.
  const [s, e] = [D0 + 2 * DAY + 7 * 3_600_000 + 20 * MIN, D0 + 2 * DAY + 8 * 3_600_000 + 55 * MIN];
  const rule = await t.db.one<{ id: number }>(
    `INSERT INTO invalid_rule (customer_id, name, kind, carrier_ids, start_ts, end_ts) VALUES ($1, 'Door open', 'period', $2, $3, $4) RETURNING id`,
    [a.customerId, [a.carrierId], new Date(s), new Date(e)],
  );
  await t.db.query(
    `INSERT INTO invalid_rule_version (customer_id, rule_id, kind, start_ts, end_ts, tz, carrier_ids, valid_from) VALUES ($1, $2, 'period', $3, $4, '+05:45', $5, $6)`,
    [a.customerId, rule!.id, new Date(s), new Date(e), [a.carrierId], new Date(D0 - DAY)],
  );
  const me = await call(t, a.cookie, 'GET', '/service/mine/info');
  scope = { customerIds: [a.customerId], sceneIds: null, userType: me.user.userType, userId: me.user.id } as Scope;
}, 180_000);
afterAll(() => t.close());

const FIGURES: (keyof MeasureFigures)[] = ['min', 'max', 'avg', 'stdDev', 'mkt', 'passRate', 'timeInZoneS', 'offlineRate', 'excursions', 'excursionS', 'readings', 'excludedS'];

function expectSame(rolled: StatisticResult, raw: StatisticResult) {
  const spans = [rolled.summary, ...(rolled.periods ?? [])];
  const rawSpans = [raw.summary, ...(raw.periods ?? [])];
  expect(spans.map((s) => [s.start, s.end])).toEqual(rawSpans.map((s) => [s.start, s.end]));
  spans.forEach((span, i) => {
    for (const m of ['temp', 'hum'] as const) {
      for (const f of FIGURES) {
        const x = span[m]![f];
        const y = rawSpans[i][m]![f];
        const where = `${m}.${f} of span ${i}`;
        if (y === null) expect(x, where).toBeNull();
        // Sums in another order: equal to 1e-9 relative.
        else expect(Math.abs((x as number) - y) <= 1e-9 * Math.max(1, Math.abs(y)), `${where}: ${x} vs ${y}`).toBe(true);
      }
    }
  });
}

describe('statistics from the rollups', () => {
  for (const [name, start, end, period] of [
    ['three whole days by day (+05:45)', D0, D0 + 3 * DAY, 'day'],
    ['from 07:13:20 to 15:46:40 two days later, by week', D0 + 7 * 3_600_000 + 13 * MIN + 20_000, D0 + 2 * DAY + 15 * 3_600_000 + 46 * MIN + 40_000, 'week'],
    ['a month around them, by month (empty days at both ends)', D0 - 9 * DAY, D0 + 21 * DAY, 'month'],
    ['the summary alone over the invalid rule', D0 + 2 * DAY, D0 + 2 * DAY + 12 * 3_600_000, undefined],
  ] as const) {
    it(`equal the raw readings' for every figure: ${name}`, async () => {
      const [rolled] = await statistics(t.db, scope, [a.carrierId], start, end, { period, now: D0 + 40 * DAY });
      const [raw] = await statistics(t.db, scope, [a.carrierId], start, end, { period, rollups: false, now: D0 + 40 * DAY });
      // The rollups did answer (else this would compare the raw path with itself).
      expect(rolled.fromRollups).toBe(true);
      expect(raw.fromRollups).toBe(false);
      expect(rolled.summary.temp.readings).toBeGreaterThan(100);
      expectSame(rolled, raw);
    });
  }

  it('the late reading and the spike are in both (the pending bucket read raw)', async () => {
    const [r] = await statistics(t.db, scope, [a.carrierId], D0 + DAY, D0 + DAY + 3_600_000, { now: D0 + 40 * DAY });
    expect(r.summary.temp.max).toBe(11.5);
    const [all] = await statistics(t.db, scope, [a.carrierId], D0, D0 + 3 * DAY, { now: D0 + 40 * DAY });
    expect(all.summary.temp.max).toBeGreaterThan(20);
    expect(all.summary.temp.excludedS).toBe(95 * 60);
  });

  it('a carrier with its own ΔH/R reads the raw readings, and its MKT moves with it', async () => {
    const [before] = await statistics(t.db, scope, [a.carrierId], D0, D0 + DAY, { now: D0 + 40 * DAY });
    await t.db.query('UPDATE carrier SET mkt_dh = 15000 WHERE id = $1', [a.carrierId]);
    const [after] = await statistics(t.db, scope, [a.carrierId], D0, D0 + DAY, { now: D0 + 40 * DAY });
    await t.db.query('UPDATE carrier SET mkt_dh = 10000 WHERE id = $1', [a.carrierId]);
    expect(after.fromRollups).toBe(false);
    expect(after.mktDh).toBe(15000);
    // A higher ΔH/R weighs the warm readings more: a higher MKT over the same readings.
    expect(after.summary.temp.mkt!).toBeGreaterThan(before.summary.temp.mkt!);
    expect(after.summary.temp.avg).toBeCloseTo(before.summary.temp.avg!, 9);
  });

  it('the column refuses a ΔH/R out of its bounds', async () => {
    await expect(t.db.query('UPDATE carrier SET mkt_dh = 3999 WHERE id = $1', [a.carrierId])).rejects.toThrow(/check/);
    await expect(t.db.query('UPDATE carrier SET mkt_dh = 20001 WHERE id = $1', [a.carrierId])).rejects.toThrow(/check/);
  });
});
