import { describe, expect, it } from 'vitest';
import { translate } from '@coldwatch/contract';
import { call, requester, withTwoCustomers, type TwoCustomers } from '../shared/records.fixture.js';
import { markForRollup } from '../../ingest/rollup.js';

/*
 * GET /service/count/dataReport (spec §2 /count/dataReport; docs/statistics.md "The data
 * report"): an organisation's carriers over a span, added up, by type and worst first, with the
 * exceptions going on in it; another customer's carriers and scenes never in it; bad spans and
 * too many carriers refused with their messages.
 */

let c: TwoCustomers;
withTwoCustomers((x) => (c = x));
const ask = requester(() => c.t);

const T0 = Date.UTC(2026, 9, 1, 0, 0); // long past: the fixture's own readings (now) stay out
const MIN = 60_000;
const url = (q: Record<string, string | number>) => `/service/count/dataReport?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`;

async function readings(sensorId: number, customerId: number, rows: [number, number][]) {
  await c.t.db.query(
    `INSERT INTO reading (sensor_id, ts, customer_id, temp, hum) SELECT $1, to_timestamp(t / 1000.0), $2, v, 50 FROM unnest($3::bigint[], $4::real[]) AS x(t, v)`,
    [sensorId, customerId, rows.map((r) => r[0]), rows.map((r) => r[1])],
  );
  await markForRollup(c.t.db, sensorId, Math.min(...rows.map((r) => r[0])), Math.max(...rows.map((r) => r[0])));
}

describe('count/dataReport', () => {
  it("adds up the organisation's carriers over the span: means of their rates, all in zone, excursions, by type, worst first, exceptions of the span", async () => {
    const { t, a } = c;
    // A's fridge (2–8 °C, one reading every 10 minutes): in zone all the time.
    await t.db.query('UPDATE sensor SET sample_interval = 600 WHERE id = $1', [a.sensorId]);
    await readings(a.sensorId, a.customerId, [[T0, 5], [T0 + 10 * MIN, 6], [T0 + 20 * MIN, 4]]);
    // A second carrier, an incubator of the same ward, in zone a third of the time, with one excursion.
    const inc = await call(t, a.cookie, 'POST', '/service/carrier/add', { name: 'AlphaIncubator', type: 1, sceneId: a.sceneId, tempMin: 2, tempMax: 8, contactIds: [a.contactId] });
    const s = await call(t, a.cookie, 'POST', '/service/sensor/add', { devNo: 'ALPHADR1', type: 'zigbee_t', gatewayId: a.gatewayId, carrierId: inc.id, sampleInterval: 600 });
    await readings(s.id, a.customerId, [[T0, 5], [T0 + 10 * MIN, 12], [T0 + 20 * MIN, 13]]);
    await t.db.query(
      `INSERT INTO exception_record(customer_id, carrier_id, sensor_id, type, category, status, ongoing, start_ts, end_ts) VALUES ($1, $2, $3, 'data', 'temp_high', 1, false, $4, $5)`,
      [a.customerId, inc.id, s.id, new Date(T0 + 10 * MIN), new Date(T0 + 30 * MIN)],
    );
    // An exception long before the span is not the report's.
    await t.db.query(`INSERT INTO exception_record(customer_id, carrier_id, sensor_id, type, category, status, ongoing, start_ts, end_ts) VALUES ($1, $2, $3, 'data', 'temp_low', 2, false, $4, $5)`, [
      a.customerId, inc.id, s.id, new Date(T0 - 3 * 86_400_000), new Date(T0 - 2 * 86_400_000),
    ]);

    const r = await call(t, a.cookie, 'GET', url({ sceneId: a.sceneId, startTime: T0, endTime: T0 + 30 * MIN }));
    expect(r.carriers.map((x: { name: string }) => x.name)).toEqual(['AlphaIncubator', 'AlphaFridge']);
    const [worst, best] = r.carriers;
    expect(worst.passRate).toBeCloseTo(1 / 3, 9);
    expect(worst).toMatchObject({ type: 1, sceneLabel: 'AlphaWard', readings: 3, min: 5, max: 13, excursions: 1, excursionS: 1200 });
    expect(best).toMatchObject({ type: 2, passRate: 1, humPassRate: 1, readings: 3, excursions: 0 });
    expect(r.summary).toMatchObject({ carriers: 2, reporting: 2, allInZone: 1, readings: 6, excursions: 1, excursionS: 1200 });
    expect(r.summary.passRate).toBeCloseTo((1 + 1 / 3) / 2, 9);
    expect(r.summary.offlineRate).toBe(0);
    expect(r.byType.map((x: { type: number; carriers: number }) => [x.type, x.carriers])).toEqual([[1, 1], [2, 1]]);
    expect(r.exceptions).toMatchObject({ total: 1, processed: 1, pending: 0, byCategory: { temp_high: 1 } });

    // A carrier type narrows it.
    const fridges = await call(t, a.cookie, 'GET', url({ sceneId: a.sceneId, type: 2, startTime: T0, endTime: T0 + 30 * MIN }));
    expect(fridges.carriers.map((x: { name: string }) => x.name)).toEqual(['AlphaFridge']);
    expect(fridges.exceptions.total).toBe(0);
  });

  it("never holds another customer's carriers: B's report has only B's, and A's scene finds nothing for B", async () => {
    const { t, a, b } = c;
    const mine = await call(t, b.cookie, 'GET', url({ startTime: T0, endTime: T0 + 30 * MIN }));
    expect(mine.carriers.map((x: { carrierId: number }) => x.carrierId)).toEqual([b.carrierId]);
    const foreign = await call(t, b.cookie, 'GET', url({ sceneId: a.sceneId, startTime: T0, endTime: T0 + 30 * MIN }));
    expect(foreign).toMatchObject({ summary: { carriers: 0, passRate: null, readings: 0 }, carriers: [], byType: [], exceptions: { total: 0 } });
  });

  it('refuses a span that runs backwards or lasts over 366 days, an unknown type, and more carriers than one report covers', async () => {
    const { t, b } = c;
    const back = await ask(b.cookie, 'GET', url({ startTime: T0, endTime: T0 - MIN }));
    expect(back.status).toBe(400);
    expect(back.result.errors.startTime).toBe(translate('errors.rule.startAfterEnd', 'en-US'));
    const long = await ask(b.cookie, 'GET', url({ startTime: T0, endTime: T0 + 367 * 86_400_000 }));
    expect(long.result.errors.endTime).toBe(translate('errors.statistic.tooLong', 'en-US'));
    const type = await ask(b.cookie, 'GET', url({ type: 9, startTime: T0, endTime: T0 + MIN }));
    expect(type.result.errors.type).toBe(translate('errors.rule.carrierType', 'en-US'));

    await t.db.query(`INSERT INTO carrier(customer_id, scene_id, name, type) SELECT $1, $2, 'BetaBulk' || g, 5 FROM generate_series(1, 500) g`, [b.customerId, b.sceneId]);
    const many = await ask(b.cookie, 'GET', url({ startTime: T0, endTime: T0 + MIN }));
    expect(many.status).toBe(400);
    expect(many.state.msg).toBe(translate('errors.dataReport.tooMany', 'en-US', { count: 501, max: 500 }));
    // A part of it is reported.
    const part = await call(t, b.cookie, 'GET', url({ type: 2, startTime: T0, endTime: T0 + MIN }));
    expect(part.summary.carriers).toBe(1);
  });
});
