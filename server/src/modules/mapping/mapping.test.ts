import { beforeAll, describe, expect, it } from 'vitest';
import type { TestCtx } from '../../../test/helper.js';
import { requester, withTwoCustomers, type Records } from '../shared/records.fixture.js';
import { EXPECTED, seedExample } from './mapping.fixture.js';

/** GET /service/count/mapping (issue 29): the worked example of docs/statistics.md, the centre, and the refusals. */

let t: TestCtx;
let a: Records;
let b: Records;
withTwoCustomers((c) => ({ t, a, b } = c));
const req = requester(() => t);
let ex: Awaited<ReturnType<typeof seedExample>>;
beforeAll(async () => {
  ex = await seedExample(t, a);
});

const url = (over: Record<string, string | number> = {}) =>
  `/service/count/mapping?${new URLSearchParams(Object.entries({ carrierId: a.carrierId, startTime: ex.start, endTime: ex.end, setpoint: 5, humSetpoint: 50, interval: 60, ...over }).map(([k, v]) => [k, String(v)]))}`;

const close = (got: Record<string, unknown>, want: Record<string, number>) => {
  for (const [k, v] of Object.entries(want)) expect(got[k], k).toBeCloseTo(v, 9);
};

describe('mapping figures', () => {
  it('answers the worked example: deviation, uniformity over the complete instants, fluctuation, centre, hottest and coldest', async () => {
    const r = await req(a.cookie, 'GET', url());
    expect(r.state.code).toBe(200000);
    const m = r.result;
    close(m, EXPECTED.temp);
    expect(m).toMatchObject({ hottest: ex.devNos.T2, coldest: ex.devNos.T3, centre: ex.devNos.T1, interval: 60, setpoint: 5 });
    expect(m.points.map((p: { deviceNo: string }) => p.deviceNo)).toEqual([ex.devNos.T1, ex.devNos.T2, ex.devNos.T3]);
    for (const [i, p] of (['T1', 'T2', 'T3'] as const).entries()) close(m.points[i], EXPECTED.points[p]);
    expect(m.points[2].readings).toBe(2);
    close(m.humidity, EXPECTED.hum);
  });

  it('measures the centre at the point asked for, and refuses a centre that is not a probe of the carrier', async () => {
    expect((await req(a.cookie, 'GET', url({ centre: ex.devNos.T2 }))).result.centreDeviation).toBeCloseTo(1.4, 9);
    const r = await req(a.cookie, 'GET', url({ centre: b.devNo }));
    expect(r.status).toBe(400);
    expect(r.state.msg).toBe("The centre point must be one of the carrier's probes");
  });

  it('groups by the sampling frequency: one instant of 180 s holds every point, its spread taken over the points\' means', async () => {
    const m = (await req(a.cookie, 'GET', url({ interval: 180 }))).result;
    // T1 5.2, T2 6.4, T3 4.1 over the one instant: spread 2.3, complete.
    expect(m).toMatchObject({ instants: 1, completeInstants: 1 });
    expect(m.uniformity).toBeCloseTo(2.3, 9);
  });

  it('a range without readings answers nulls, never a division by zero; without a humidity set point no humidity', async () => {
    const r = await req(a.cookie, 'GET', url({ startTime: ex.start - 3_600_000, endTime: ex.start - 1, humSetpoint: '' }));
    expect(r.result).toMatchObject({ deviationMax: null, deviationMin: null, uniformity: null, fluctuationMax: null, centreDeviation: null, hottest: null, coldest: null, instants: 0, completeInstants: 0, humidity: null });
  });

  it('takes the slowest sample interval of the probes when no frequency is given', async () => {
    await t.db.query('UPDATE sensor SET sample_interval = 120 WHERE id = $1', [ex.ids.T3]);
    expect((await req(a.cookie, 'GET', url({ interval: '' }))).result.interval).toBe(120);
    await t.db.query('UPDATE sensor SET sample_interval = 60 WHERE id = $1', [ex.ids.T3]);
  });

  it.each([
    ['a set point above the probes\' range (-40 to 85)', { setpoint: 85.01 }, 'The set point is outside the range the probes can measure (-40 to 85)'],
    ['a humidity set point over 100', { humSetpoint: 101 }, 'Humidity must be between 0 and 100'],
    ['a start after the end', { startTime: ex?.end ?? 2, endTime: 1 }, 'The start cannot be later than the end'],
    ['a span over 400 days', { startTime: 0, endTime: 401 * 86_400_000 }, 'A history query spans at most 400 days'],
    ['a frequency under 10 s', { interval: 5 }, 'The sampling frequency is a whole number of seconds from 10 to 86400'],
  ])('refuses %s with the spec message', async (_what, over, msg) => {
    const r = await req(a.cookie, 'GET', url(over));
    expect(r.status).toBe(400);
    expect(r.state.msg).toContain(msg);
  });

  it('the edge of the probes\' range is allowed', async () => {
    expect((await req(a.cookie, 'GET', url({ setpoint: 85 }))).state.code).toBe(200000);
  });

  it("another customer's carrier is answered as a missing one (404), and shows nothing", async () => {
    const r = await req(b.cookie, 'GET', url());
    expect(r.status).toBe(404);
    expect(JSON.stringify(r)).not.toContain('Alpha');
    expect((await req(a.cookie, 'GET', url({ carrierId: 999_999 }))).status).toBe(404);
  });
});
