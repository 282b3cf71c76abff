import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DETAIL_MAX_SUBJECTS } from '@coldwatch/contract';
import { setup, type TestCtx } from '../../../test/helper.js';
import { call, seedRecords, type Records } from '../shared/records.fixture.js';

let t: TestCtx;
let a: Records;
let b: Records;
let second: number;
let rule: number;
const T0 = Date.UTC(2025, 6, 1);
const MIN = 60_000;
const N = 3000;

beforeAll(async () => {
  t = await setup();
  a = await seedRecords(t, 'alpha', 'Alpha', 'A1');
  b = await seedRecords(t, 'beta', 'Beta', 'B1');
  // A second probe in alpha's fridge (2-8 °C), half a minute behind the first; the fridge averages them.
  [{ id: second }] = await t.db.query<{ id: number }>(
    `INSERT INTO sensor (customer_id, dev_no, type, gateway_id, carrier_id, status) VALUES ($1, 'A1PROBE2', 'zigbee_th', $2, $3, 1) RETURNING id`,
    [a.customerId, a.gatewayId, a.carrierId],
  );
  await t.db.query(`UPDATE carrier SET sample_mode = 'avg', temp_min = 2, temp_max = 8 WHERE id = $1`, [a.carrierId]);
  // Probe 1 every minute at 4 °C (10 °C at minute 100), probe 2 every minute at +30 s at 6 °C.
  await t.db.query(
    `INSERT INTO reading(sensor_id, ts, customer_id, temp, hum)
     SELECT $1, to_timestamp(($2::bigint + g * 60000) / 1000.0), $3, CASE WHEN g = 100 THEN 10 ELSE 4 END, 50 FROM generate_series(0, $4 - 1) g`,
    [a.sensorId, T0, a.customerId, N],
  );
  await t.db.query(
    `INSERT INTO reading(sensor_id, ts, customer_id, temp, hum)
     SELECT $1, to_timestamp(($2::bigint + 30000 + g * 60000) / 1000.0), $3, 6, 50 FROM generate_series(0, $4 - 1) g`,
    [second, T0, a.customerId, N],
  );
  // Loading: minutes 200 to 210 of the fridge are invalid (an invalid rule, issue 27).
  [{ id: rule }] = await t.db.query<{ id: number }>(
    `INSERT INTO invalid_rule (customer_id, name, kind, start_ts, end_ts, carrier_ids) VALUES ($1, 'Loading', 'period', $2, $3, $4) RETURNING id`,
    [a.customerId, new Date(T0 + 200 * MIN), new Date(T0 + 210 * MIN), [a.carrierId]],
  );
  await t.db.query(
    `INSERT INTO invalid_rule_version (customer_id, rule_id, kind, start_ts, end_ts, tz, carrier_ids, valid_from) VALUES ($1, $2, 'period', $3, $4, '+08:00', $5, $6)`,
    [a.customerId, rule, new Date(T0 + 200 * MIN), new Date(T0 + 210 * MIN), [a.carrierId], new Date(T0 - 86_400_000)],
  );
}, 180_000);
afterAll(() => t.close());

const url = (q: Record<string, unknown>) => `/service/detailData/page?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`;
const END = T0 + N * MIN;

describe('detail data', () => {
  it('pages every reading of a sensor on the server, newest first, with the zone and the excluded ones marked', async () => {
    const first = await call(t, a.cookie, 'GET', url({ devNos: a.devNo, start: T0, end: END, iDisplayStart: 0, iDisplayLength: 15 }));
    expect(first.total).toBe(N);
    expect(first.rows).toHaveLength(15);
    expect(first.rows[0]).toMatchObject({ ts: T0 + (N - 1) * MIN, deviceNo: a.devNo, temp: 4, hum: 50, excludedBy: null, tempState: null });
    // Page 99 of 15 rows (from the far end, since it is past the middle) ends at minute 100, the excursion.
    const deep = await call(t, a.cookie, 'GET', url({ devNos: a.devNo, start: T0, end: END, iDisplayStart: N - 101, iDisplayLength: 15 }));
    expect(deep.rows.map((r: { ts: number }) => r.ts)).toEqual(Array.from({ length: 15 }, (_, i) => T0 + (100 - i) * MIN));
    expect(deep.rows[0]).toMatchObject({ temp: 10, tempState: 'high' });
    const excluded = await call(t, a.cookie, 'GET', url({ devNos: a.devNo, start: T0 + 195 * MIN, end: T0 + 215 * MIN, iDisplayLength: 100 }));
    const marked = excluded.rows.filter((r: { excludedBy: number | null }) => r.excludedBy === rule).map((r: { ts: number }) => (r.ts - T0) / MIN);
    expect(marked.sort((x: number, y: number) => x - y)).toEqual([200, 201, 202, 203, 204, 205, 206, 207, 208, 209]);
    expect(excluded.subjects[0].excluded).toEqual([{ start: T0 + 200 * MIN, end: T0 + 210 * MIN, ruleId: rule }]);
  });

  it('pages every page exactly once: offsets from both ends meet without a gap or a repeat', async () => {
    const seen: number[] = [];
    for (let s = 0; s < 200; s += 40) {
      const p = await call(t, a.cookie, 'GET', url({ devNos: a.devNo, start: T0, end: T0 + 199 * MIN, iDisplayStart: s, iDisplayLength: 40 }));
      seen.push(...p.rows.map((r: { ts: number }) => r.ts));
    }
    expect(seen).toEqual(Array.from({ length: 200 }, (_, i) => T0 + (199 - i) * MIN));
  });

  it("applies the carrier's sample mode: a row at every report of either probe, the average of both", async () => {
    const r = await call(t, a.cookie, 'GET', url({ carrierIds: a.carrierId, start: T0, end: END, iDisplayStart: 0, iDisplayLength: 4 }));
    expect(r.total).toBe(2 * N);
    expect(r.subjects[0]).toMatchObject({ carrierId: a.carrierId, mode: 'avg', devNos: [a.devNo, 'A1PROBE2'] });
    expect(r.rows.map((x: { ts: number; temp: number }) => [x.ts - T0, x.temp])).toEqual([
      [(N - 1) * MIN + 30_000, 5],
      [(N - 1) * MIN, 5],
      [(N - 2) * MIN + 30_000, 5],
      [(N - 2) * MIN, 5],
    ]);
    // The excursion: probe 1 at 10 °C and probe 2 still at 6 °C, averaged to 8 °C (inside 2-8), for one minute.
    const around = await call(t, a.cookie, 'GET', url({ carrierIds: a.carrierId, start: T0 + 99 * MIN, end: T0 + 101 * MIN, iDisplayLength: 10 }));
    expect(around.rows.map((x: { ts: number; temp: number }) => [(x.ts - T0) / 1000, x.temp])).toEqual([
      [6060, 5],
      [6030, 8],
      [6000, 8],
      [5970, 5],
      [5940, 5],
    ]);
  });

  it('answers a span without readings with no rows, never an error', async () => {
    const r = await call(t, a.cookie, 'GET', url({ carrierIds: a.carrierId, start: END + 86_400_000, end: END + 2 * 86_400_000 }));
    expect(r).toMatchObject({ total: 0, rows: [] });
  });

  it("refuses a start after the end, a span over the limit, too many subjects and both kinds at once; another customer's carrier is 404", async () => {
    const ask = (q: Record<string, unknown>, cookie = a.cookie) => t.app.inject({ method: 'GET', url: url(q), headers: { cookie, 'accept-language': 'en-US' } });
    const reversed = await ask({ carrierIds: a.carrierId, start: END, end: T0 });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().state.msg).toContain('The start cannot be later than the end');
    const long = await ask({ carrierIds: a.carrierId, start: T0, end: T0 + 401 * 86_400_000 });
    expect(long.json().state.msg).toContain('at most 400 days');
    const many = Array.from({ length: DETAIL_MAX_SUBJECTS + 1 }, (_, i) => i + 1).join(',');
    expect((await ask({ carrierIds: many, start: T0, end: END })).json().state.msg).toContain('at most 10 carriers or sensors');
    expect((await ask({ carrierIds: a.carrierId, devNos: a.devNo, start: T0, end: END })).json().state.msg).toContain('not both');
    expect((await ask({ start: T0, end: END })).json().state.msg).toContain('Select at least one carrier or sensor');
    expect((await ask({ carrierIds: a.carrierId, start: T0, end: END }, b.cookie)).statusCode).toBe(404);
    // One foreign among the caller's own: the whole query is 404.
    expect((await ask({ carrierIds: `${b.carrierId},${a.carrierId}`, start: T0, end: END })).statusCode).toBe(404);
    expect((await ask({ devNos: b.devNo, start: T0, end: END })).statusCode).toBe(404);
    // The passing examples: at the limits.
    expect((await ask({ carrierIds: a.carrierId, start: T0, end: T0 + 400 * 86_400_000 })).statusCode).toBe(200);
    expect((await ask({ carrierIds: a.carrierId, start: T0, end: T0 })).statusCode).toBe(200);
  });
});

describe('detail data export (CSV)', () => {
  const csvUrl = (q: Record<string, unknown>) => url(q).replace('/page?', '/export?');
  const get = (q: Record<string, unknown>, cookie = a.cookie, lang = 'en-US') => t.app.inject({ method: 'GET', url: csvUrl(q), headers: { cookie, 'accept-language': lang } });
  const lines = (body: string) => body.replace(/^\ufeff/, '').split('\r\n').filter(Boolean);

  it("streams one carrier's rows oldest first, as the page has them: times in the customer's zone, the excluding rule named", async () => {
    const res = await get({ carrierIds: a.carrierId, start: T0, end: END });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="detail-data-${a.carrierId}-20250701-20250703.csv"`);
    expect(res.body.startsWith('\ufeff')).toBe(true);
    const [header, ...rows] = lines(res.body);
    expect(header).toBe('Time (UTC+08:00),Carrier,Temperature (°C),Humidity (%RH),Excluded by invalid rule');
    // Every row of the page's total, none twice, over the three days the export steps through.
    const page = await call(t, a.cookie, 'GET', url({ carrierIds: a.carrierId, start: T0, end: END, iDisplayLength: 1 }));
    expect(rows).toHaveLength(page.total);
    expect(rows[0]).toBe('2025-07-01 08:00:00,AlphaFridge,4.00,50.00,--');
    // The excursion averaged with the other probe (8 °C), at 09:40 in +08:00; the loading period excluded by its rule.
    expect(rows).toContain('2025-07-01 09:40:00,AlphaFridge,8.00,50.00,--');
    expect(rows).toContain('2025-07-01 11:20:00,AlphaFridge,5.00,50.00,Loading');
    expect(rows.filter((r) => r.endsWith(',Loading'))).toHaveLength(20);
    expect(rows.at(-1)).toBe(`2025-07-03 09:59:30,AlphaFridge,5.00,50.00,--`);
  });

  it('writes "--" for a missing value and headers in the caller\'s language', async () => {
    await t.db.query(`INSERT INTO reading(sensor_id, ts, customer_id, temp, hum) VALUES ($1, $2, $3, -18.5, NULL)`, [b.sensorId, new Date(T0), b.customerId]);
    const res = await get({ carrierIds: b.carrierId, start: T0 - MIN, end: T0 + MIN }, b.cookie, 'zh-CN');
    expect(lines(res.body)).toEqual(['时间（UTC+08:00）,载体,温度（°C）,湿度（%RH）,无效规则排除', '2025-07-01 08:00:00,BetaFridge,-18.50,--,--']);
  });

  it('refuses a second carrier with the spec\'s message in the caller\'s language, and another customer\'s carrier is 404', async () => {
    const two = await get({ carrierIds: `${a.carrierId},${a.carrierId + 1000}`, start: T0, end: END });
    expect(two.statusCode).toBe(400);
    expect(two.json().state.msg).toContain('Only one carrier for query or export');
    expect((await get({ carrierIds: `${a.carrierId},${b.carrierId}`, start: T0, end: END }, a.cookie, 'zh-CN')).json().state.msg).toContain('查询或导出只能选择一个载体');
    expect((await get({ start: T0, end: END })).json().state.msg).toContain('Select at least one carrier or sensor');
    expect((await get({ carrierIds: a.carrierId, start: END, end: T0 })).json().state.msg).toContain('The start cannot be later than the end');
    expect((await get({ carrierIds: a.carrierId, start: T0, end: T0 + 401 * 86_400_000 })).json().state.msg).toContain('at most 400 days');
    const foreign = await get({ carrierIds: a.carrierId, start: T0, end: END }, b.cookie);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain('AlphaFridge');
  });
});
