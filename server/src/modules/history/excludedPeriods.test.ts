import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../../test/helper.js';
import { site, type Site } from '../../alarm/testkit.js';

/*
 * History shows the periods a carrier's readings were excluded by its invalid rules (issue 27):
 * beside the series of a sensor and of a carrier's value, with the rule's name; none for a
 * carrier without rules.
 */

let t: TestCtx;
let alpha: string;
let ruled: Site;
let plain: Site;
const T0 = Date.UTC(2025, 5, 2);
const MIN = 60_000;

beforeAll(async () => {
  t = await setup();
  alpha = await t.login('alpha');
  ruled = await site(t.db, t.tenants.a.customerId, { name: 'History ruled' });
  plain = await site(t.db, t.tenants.a.customerId, { name: 'History plain' });
  const [rule] = await t.db.query<{ id: number }>(
    `INSERT INTO invalid_rule (customer_id, name, kind, start_ts, end_ts, carrier_ids) VALUES ($1, 'Loading dock', 'period', $2, $3, $4) RETURNING id`,
    [t.tenants.a.customerId, new Date(T0 + 10 * MIN), new Date(T0 + 20 * MIN), [ruled.carrierId]],
  );
  await t.db.query(
    `INSERT INTO invalid_rule_version (customer_id, rule_id, kind, start_ts, end_ts, tz, carrier_ids, valid_from) VALUES ($1, $2, 'period', $3, $4, '+08:00', $5, $6)`,
    [t.tenants.a.customerId, rule.id, new Date(T0 + 10 * MIN), new Date(T0 + 20 * MIN), [ruled.carrierId], new Date(T0 - 86_400_000)],
  );
  for (const s of [ruled, plain]) {
    await t.db.query(
      `INSERT INTO reading (sensor_id, ts, customer_id, temp) SELECT $1, to_timestamp(($2::bigint + g * 60000) / 1000.0), $3, 5 FROM generate_series(0, 59) g`,
      [s.sensorId, T0, s.customerId],
    );
  }
}, 180_000);
afterAll(() => t?.close());

const get = async (url: string) => (await t.app.inject({ method: 'GET', url, headers: { cookie: alpha } })).json().result;

describe('history marks excluded periods', () => {
  it('names the excluded period of a sensor\'s carrier beside its readings, clipped to the span', async () => {
    const r = await get(`/service/share/history?deviceNo=${ruled.devNo}&start=${T0}&end=${T0 + 15 * MIN}&maxPoints=500`);
    expect(r.points).toHaveLength(16);
    expect(r.excluded).toEqual([{ start: T0 + 10 * MIN, end: T0 + 15 * MIN + 1, ruleId: expect.any(Number), name: 'Loading dock' }]);
    const whole = await get(`/service/share/history?deviceNo=${ruled.devNo}&start=${T0}&end=${T0 + 59 * MIN}&maxPoints=500`);
    expect(whole.excluded).toEqual([expect.objectContaining({ start: T0 + 10 * MIN, end: T0 + 20 * MIN })]);
  });

  it('has none for a carrier without rules, and none outside the period', async () => {
    expect((await get(`/service/share/history?deviceNo=${plain.devNo}&start=${T0}&end=${T0 + 59 * MIN}&maxPoints=500`)).excluded).toEqual([]);
    expect((await get(`/service/share/history?deviceNo=${ruled.devNo}&start=${T0 + 30 * MIN}&end=${T0 + 59 * MIN}&maxPoints=500`)).excluded).toEqual([]);
  });

  it('marks them on a carrier\'s value too', async () => {
    const r = await get(`/service/share/history/carrier?carrierId=${ruled.carrierId}&start=${T0}&end=${T0 + 59 * MIN}&maxPoints=500`);
    expect(r.excluded).toEqual([expect.objectContaining({ start: T0 + 10 * MIN, end: T0 + 20 * MIN, name: 'Loading dock' })]);
  });
});
