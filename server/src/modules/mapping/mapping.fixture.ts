import type { TestCtx } from '../../../test/helper.js';
import { call, type Records } from '../shared/records.fixture.js';

/*
 * The worked example of docs/statistics.md "Mapping figures (JJF 1101)", on customer A's fridge:
 * its probe <tag>T1 (the fixture's, the centre) and two more, <tag>T2 and <tag>T3, three sampling
 * instants of 60 s from `start`, T3 missing its third reading. Shared by the mapping and the
 * verification task tests, which must answer the same figures.
 */

/** °C and %RH of each probe at instants 0, 1, 2 (null: no reading). */
export const EXAMPLE = {
  T1: { temp: [5.0, 5.4, 5.2], hum: [50, 52, 54] },
  T2: { temp: [6.0, 6.8, 6.4], hum: [48, 50, 52] },
  T3: { temp: [3.9, 4.3, null], hum: [45, 47, null] },
} as const;

/** The figures worked out by hand in docs/statistics.md, set points 5.0 °C and 50 %RH. */
export const EXPECTED = {
  temp: { deviationMax: 1.8, deviationMin: -1.1, uniformity: 2.3, fluctuationMax: 0.4, centreDeviation: 0.2, instants: 3, completeInstants: 2 },
  hum: { deviationMax: 4, deviationMin: -5, uniformity: 5, fluctuationMax: 2, centreDeviation: 2, instants: 3, completeInstants: 2 },
  points: { T1: { min: 5.0, max: 5.4, mean: 5.2, fluctuation: 0.2 }, T2: { min: 6.0, max: 6.8, mean: 6.4, fluctuation: 0.4 }, T3: { min: 3.9, max: 4.3, mean: 4.1, fluctuation: 0.2 } },
};

/** Adds T2 and T3 to A's fridge and writes the example's readings two days ago; answers the sensors and the range. */
export async function seedExample(t: TestCtx, a: Records, tag = 'Alpha') {
  const ids: Record<'T1' | 'T2' | 'T3', number> = { T1: a.sensorId, T2: 0, T3: 0 };
  for (const p of ['T2', 'T3'] as const) {
    ids[p] = (await call(t, a.cookie, 'POST', '/service/sensor/add', { devNo: `${tag}${p}`, type: 'zigbee_th', gatewayId: a.gatewayId, carrierId: a.carrierId })).id;
  }
  // On a whole minute, two days back: clear of the fixture's own readings of the last minutes.
  const start = Math.floor((Date.now() - 2 * 86_400_000) / 60_000) * 60_000;
  for (const [p, v] of Object.entries(EXAMPLE) as [keyof typeof EXAMPLE, (typeof EXAMPLE)['T1']][]) {
    for (let i = 0; i < 3; i++) {
      if (v.temp[i] === null) continue;
      // T1 exactly on the instant (the range's start is included), the others 5 s into it.
      const ts = start + i * 60_000 + (p === 'T1' ? 0 : 5_000);
      await t.db.query('INSERT INTO reading (sensor_id, ts, customer_id, temp, hum) VALUES ($1, $2, $3, $4, $5)', [ids[p], new Date(ts), a.customerId, v.temp[i], v.hum[i]]);
    }
  }
  return { ids, start, end: start + 179_000, devNos: { T1: `${tag}T1`, T2: `${tag}T2`, T3: `${tag}T3` } };
}
