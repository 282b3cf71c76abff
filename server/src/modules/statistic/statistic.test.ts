import { describe, expect, it } from 'vitest';
import { Code } from '@coldwatch/contract';
import { call, requester, withTwoCustomers, type TwoCustomers } from '../shared/records.fixture.js';
import { markForRollup } from '../../ingest/rollup.js';

/*
 * GET /service/count/statistic (docs/statistics.md): a worked example computed by hand, the
 * periods of a zone with minutes, excluded time, several probes on their sample mode, excursions,
 * and the refusals of bad input.
 */

let c: TwoCustomers;
withTwoCustomers((x) => (c = x));
const ask = requester(() => c.t);

const T0 = Date.UTC(2026, 9, 1, 0, 0); // long past: the fixture's own readings (now) stay out
const MIN = 60_000;
const url = (q: Record<string, string | number>) => `/service/count/statistic?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`;
const stat = (q: Record<string, string | number>) => call(c.t, c.a.cookie, 'GET', url({ carrierId: c.a.carrierId, ...q }));

async function readings(sensorId: number, rows: [number, number, number?][]) {
  await c.t.db.query(
    `INSERT INTO reading (sensor_id, ts, customer_id, temp, hum) SELECT $1, to_timestamp(t / 1000.0), $2, v, h FROM unnest($3::bigint[], $4::real[], $5::real[]) AS x(t, v, h)`,
    [sensorId, c.a.customerId, rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2] ?? 50)],
  );
  // As the ingest writer does: their buckets are pending until the rollup job has been.
  await markForRollup(c.t.db, sensorId, Math.min(...rows.map((r) => r[0])), Math.max(...rows.map((r) => r[0])));
}

describe('count/statistic', () => {
  it('a worked example: time-weighted avg, stdDev, MKT and pass rate of 5, 9, 3 °C ten minutes apart in a 2–8 °C zone', async () => {
    // One reading every 10 minutes is what the sensor promises: nothing missing.
    await c.t.db.query('UPDATE sensor SET sample_interval = 600 WHERE id = $1', [c.a.sensorId]);
    await readings(c.a.sensorId, [
      [T0, 5],
      [T0 + 10 * MIN, 9],
      [T0 + 20 * MIN, 3],
    ]);
    const r = await stat({ startTime: T0, endTime: T0 + 30 * MIN });
    const t = r.summary.temp;
    expect(t).toMatchObject({ min: 3, max: 9, readings: 3, excursions: 0, excursionS: 0, excludedS: 0, timeInZoneS: 1200, offlineRate: 0 });
    expect(t.avg).toBeCloseTo(17 / 3, 9);
    expect(t.stdDev).toBeCloseTo(2.494438257849294, 9);
    // MKT = 10000 / −ln(⅓·Σ exp(−10000 / (v + 273.15))) − 273.15, by hand: 6.0527 °C (above the 5.67 °C mean: the 9 °C weighs more).
    expect(t.mkt).toBeCloseTo(6.052740834122062, 9);
    expect(t.passRate).toBeCloseTo(2 / 3, 9);
    expect(r.summary.hum).toMatchObject({ min: 50, max: 50, avg: 50, stdDev: 0, mkt: null, passRate: 1 });
    // The last reading weighs until the end of the range: a longer range gives 3 °C more weight.
    const longer = (await stat({ startTime: T0, endTime: T0 + 40 * MIN })).summary.temp;
    expect(longer.avg).toBeCloseTo((5 + 9 + 3 * 2) / 4, 9);
    expect(longer.offlineRate).toBeCloseTo(1 - 3 / 4, 9);
  });

  it("periods follow the customer's zone, with its minutes; they add up to the summary", async () => {
    await c.t.db.query(`UPDATE customer SET time_zone = '+05:45' WHERE id = $1`, [c.a.customerId]);
    // Local midnight of 2 October in +05:45 is 1 October 18:15 UTC.
    const cut = Date.UTC(2026, 9, 1, 18, 15);
    await readings(c.a.sensorId, [
      [cut - 20 * MIN, 4],
      [cut + 10 * MIN, 6],
    ]);
    const r = await stat({ startTime: cut - 30 * MIN, endTime: cut + 30 * MIN, period: 'day' });
    expect(r.tz).toBe('+05:45');
    expect(r.periods.map((p: { start: number; end: number }) => [p.start, p.end])).toEqual([
      [cut - 30 * MIN, cut],
      [cut, cut + 30 * MIN],
    ]);
    // Day 1: 4 °C for 20 minutes. Day 2: 4 °C for 10 minutes (carried over midnight), then 6 °C for 20.
    expect(r.periods[0].temp.avg).toBeCloseTo(4, 9);
    expect(r.periods[1].temp.avg).toBeCloseTo((4 * 10 + 6 * 20) / 30, 9);
    expect(r.periods[1].temp).toMatchObject({ min: 6, max: 6, readings: 1 });
    expect(r.summary.temp.avg).toBeCloseTo((4 * 30 + 6 * 20) / 50, 9);
    expect(r.summary.temp.readings).toBe(2);
    const week = await stat({ startTime: cut - 30 * MIN, endTime: cut + 30 * MIN, period: 'week' });
    expect(week.periods).toHaveLength(1); // 1 and 2 October 2026 are a Thursday and a Friday
    await c.t.db.query(`UPDATE customer SET time_zone = '+08:00' WHERE id = $1`, [c.a.customerId]);
  });

  it('time under an invalid rule is left out of every figure and reported as excludedS; a range wholly excluded answers nulls', async () => {
    const d = Date.UTC(2026, 9, 5);
    await readings(c.a.sensorId, [
      [d, 4],
      [d + 10 * MIN, 30], // a defrost peak, inside the rule's period
      [d + 20 * MIN, 6],
    ]);
    const rule = await c.t.db.one<{ id: number }>(`INSERT INTO invalid_rule (customer_id, name, kind, carrier_ids, start_ts, end_ts) VALUES ($1, 'Defrost', 'period', $2, $3, $4) RETURNING id`,
      [c.a.customerId, [c.a.carrierId], new Date(d + 5 * MIN), new Date(d + 15 * MIN)],
    );
    await c.t.db.query(
      `INSERT INTO invalid_rule_version (customer_id, rule_id, kind, start_ts, end_ts, tz, carrier_ids, valid_from) VALUES ($1, $2, 'period', $3, $4, '+08:00', $5, $6)`,
      [c.a.customerId, rule!.id, new Date(d + 5 * MIN), new Date(d + 15 * MIN), [c.a.carrierId], new Date(d - 86_400_000)],
    );
    const t = (await stat({ startTime: d, endTime: d + 30 * MIN })).summary.temp;
    // 4 °C for 5 minutes, then [5, 15) excluded (the 30 °C with it), 4 °C again for 5 until 6 °C at 20.
    expect(t).toMatchObject({ min: 4, max: 6, readings: 2, excludedS: 600 });
    expect(t.avg).toBeCloseTo((4 * 10 + 6 * 10) / 20, 9);
    const none = (await stat({ startTime: d + 6 * MIN, endTime: d + 14 * MIN })).summary.temp;
    expect(none).toMatchObject({ min: null, max: null, avg: null, stdDev: null, mkt: null, passRate: null, timeInZoneS: null, offlineRate: null, readings: 0, excludedS: 480 });
  });

  it('a range without readings answers nulls and readings 0; the offline rate says all is missing', async () => {
    const d = Date.UTC(2026, 8, 1);
    const t = (await stat({ startTime: d, endTime: d + 3_600_000 })).summary.temp;
    expect(t).toMatchObject({ min: null, max: null, avg: null, stdDev: null, mkt: null, passRate: null, readings: 0, offlineRate: 1 });
    // A zero-length range: nothing expected either.
    expect((await stat({ startTime: d, endTime: d })).summary.temp).toMatchObject({ avg: null, readings: 0, offlineRate: null });
  });

  it("the carrier's excursions in the range: counted, and their time within it", async () => {
    const d = Date.UTC(2026, 9, 7);
    await c.t.db.query(
      `INSERT INTO exception_record (customer_id, carrier_id, sensor_id, type, category, status, ongoing, start_ts, end_ts) VALUES
         ($1, $2, $3, 'data', 'temp_high', 0, false, $4, $5), ($1, $2, $3, 'data', 'hum_low', 0, false, $4, $5), ($1, $2, $3, 'offline', 'offline', 0, false, $4, $5)`,
      [c.a.customerId, c.a.carrierId, c.a.sensorId, new Date(d - 10 * MIN), new Date(d + 20 * MIN)],
    );
    const r = await stat({ startTime: d, endTime: d + 60 * MIN });
    expect(r.summary.temp).toMatchObject({ excursions: 1, excursionS: 1200 });
    expect(r.summary.hum).toMatchObject({ excursions: 1, excursionS: 1200 });
    expect((await stat({ startTime: d + 30 * MIN, endTime: d + 60 * MIN })).summary.temp).toMatchObject({ excursions: 0, excursionS: 0 });
  });

  it('a carrier with several probes is judged on its sample mode’s series (avg of the two)', async () => {
    const d = Date.UTC(2026, 9, 9);
    const second = await call(c.t, c.a.cookie, 'POST', '/service/sensor/add', { devNo: 'AlphaT2', type: 'zigbee_th', gatewayId: c.a.gatewayId, carrierId: c.a.carrierId });
    await c.t.db.query(`UPDATE carrier SET sample_mode = 'avg' WHERE id = $1`, [c.a.carrierId]);
    await readings(c.a.sensorId, [
      [d, 9],
      [d + 10 * MIN, 9],
    ]);
    await readings(second.id, [
      [d + MIN, 5],
      [d + 11 * MIN, 5],
    ]);
    const t = (await stat({ startTime: d, endTime: d + 20 * MIN })).summary.temp;
    // 9 alone for a minute, then (9 + 5) / 2 = 7 for the 19 others: the zone is 2–8 °C.
    expect(t).toMatchObject({ min: 7, max: 9, readings: 4 });
    expect(t.avg).toBeCloseTo((9 * 1 + 7 * 19) / 20, 9);
    expect(t.passRate).toBeCloseTo(19 / 20, 9);
    await c.t.db.query(`UPDATE carrier SET sample_mode = 'latest' WHERE id = $1`, [c.a.carrierId]);
    await c.t.db.query('UPDATE sensor SET carrier_id = NULL, status = 2 WHERE id = $1', [second.id]);
  });

  it('the list answers the carriers the caller may see, in the order asked', async () => {
    const d = Date.UTC(2026, 9, 1);
    const rows = await call(c.t, c.a.cookie, 'GET', `/service/count/statistic/list?carrierIds=${c.b.carrierId},${c.a.carrierId}&startTime=${d}&endTime=${d + 30 * MIN}`);
    expect(rows.map((r: { carrierId: number }) => r.carrierId)).toEqual([c.a.carrierId]);
  });

  it("refuses bad input with the spec's answers; a carrier of another customer is a missing one", async () => {
    const d = Date.UTC(2026, 9, 1);
    const bad = async (q: Record<string, string | number>, key: string) => {
      const res = await ask(c.a.cookie, 'GET', url({ carrierId: c.a.carrierId, ...q }));
      expect(res.status).toBe(400);
      expect(res.state.code).toBe(Code.PARAM_ERROR);
      expect(JSON.stringify(res), key).toContain(key);
    };
    await bad({ startTime: d + 1, endTime: d }, 'The start cannot be later than the end');
    await bad({ startTime: d, endTime: d + 367 * 86_400_000 }, 'at most 366 days');
    await bad({ startTime: d, endTime: d + 1000, period: 'year' }, 'day, week or month');
    await bad({ endTime: d }, 'Choose a start and an end time');
    // Within the limits: answered.
    expect((await ask(c.a.cookie, 'GET', url({ carrierId: c.a.carrierId, startTime: d, endTime: d + 366 * 86_400_000, period: 'month' }))).state.code).toBe(200000);
    const foreign = await ask(c.b.cookie, 'GET', url({ carrierId: c.a.carrierId, startTime: d, endTime: d + 1000 }));
    const missing = await ask(c.b.cookie, 'GET', url({ carrierId: 2_000_000_000, startTime: d, endTime: d + 1000 }));
    expect(foreign.status).toBe(404);
    expect({ ...foreign, state: foreign.state }).toEqual(missing);
  });

  it('the carrier dialog sets the ΔH/R of its MKT within 4,000–20,000 K; the MKT follows it', async () => {
    const body = (mktDh: number) => ({
      id: c.a.carrierId, name: 'AlphaFridge', type: 2, sceneId: c.a.sceneId, tempMin: 2, tempMax: 8, humMin: 30, humMax: 70,
      contactIds: [c.a.contactId], sensorIds: [c.a.sensorId], mktDh,
    });
    const refused = await ask(c.a.cookie, 'PUT', '/service/carrier/update', body(3999));
    expect(refused.state.code).toBe(Code.PARAM_ERROR);
    expect(JSON.stringify(refused)).toContain('between 4,000 K and 20,000 K');
    expect((await ask(c.a.cookie, 'PUT', '/service/carrier/update', body(20_001))).state.code).toBe(Code.PARAM_ERROR);
    const before = (await stat({ startTime: T0, endTime: T0 + 30 * MIN })).summary.temp.mkt;
    await call(c.t, c.a.cookie, 'PUT', '/service/carrier/update', body(15_000));
    expect((await call(c.t, c.a.cookie, 'GET', `/service/carrier/detail?id=${c.a.carrierId}`)).mktDh).toBe(15_000);
    const after = await stat({ startTime: T0, endTime: T0 + 30 * MIN });
    expect(after.mktDh).toBe(15_000);
    // 5, 9 and 3 °C at ΔH/R 15,000 K, by hand: 6.2583 °C (a higher ΔH/R weighs the warm reading more).
    const k = [5, 9, 3].reduce((s, v) => s + Math.exp(-15_000 / (v + 273.15)), 0) / 3;
    expect(after.summary.temp.mkt).toBeCloseTo(15_000 / -Math.log(k) - 273.15, 9);
    expect(after.summary.temp.mkt).toBeGreaterThan(before);
  });
});
