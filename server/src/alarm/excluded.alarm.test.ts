import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../test/helper.js';
import { startAlarm, type Alarm } from './index.js';
import { loading } from './evaluator.js';
import { isExcluded, type ExcludedSpan } from './excluded.js';
import { IDLE, rulesFor, segment, type Point } from './segments.js';
import { addSensor, exceptionsOf, ingest, site, type R, type Site } from './testkit.js';

/*
 * The alarm honours invalid rules (docs/alarms.md "Invalid rules"): a reading inside an excluded
 * span neither opens, extends nor ends an exception, whatever order and batches the readings
 * come in; an exception already going on when a span starts is not hidden by it.
 */

const T0 = Date.UTC(2024, 10, 22, 0, 0, 0);
const at = (min: number) => T0 + min * 60_000;
const series = (from: number, temps: number[]): R[] => temps.map((v, i) => [at(from + i), v]);

let t: TestCtx;
let alarm: Alarm;

beforeAll(async () => {
  t = await setup();
  alarm = startAlarm({ db: t.db, bus: t.bus, config: t.config }, { pollMs: 60_000 });
}, 180_000);
afterEach(() => {
  loading.first = 32;
});
afterAll(async () => {
  await alarm?.stop();
  await t?.close();
});

/** A one-off period rule on the carrier, in force from long before the readings (as if created then). */
async function period(s: Site, fromMin: number, toMin: number): Promise<number> {
  const [r] = await t.db.query<{ id: number }>(
    `INSERT INTO invalid_rule (customer_id, name, kind, start_ts, end_ts, carrier_ids) VALUES ($1, $2, 'period', $3, $4, $5) RETURNING id`,
    [s.customerId, `Loading ${Math.random()}`, new Date(at(fromMin)), new Date(at(toMin)), [s.carrierId]],
  );
  await t.db.query(
    `INSERT INTO invalid_rule_version (customer_id, rule_id, kind, start_ts, end_ts, tz, carrier_ids, valid_from)
     VALUES ($1, $2, 'period', $3, $4, '+08:00', $5, $6)`,
    [s.customerId, r.id, new Date(at(fromMin)), new Date(at(toMin)), [s.carrierId], new Date(T0 - 86_400_000)],
  );
  return r.id;
}

describe('invalid rules in the alarm', () => {
  it('opens no exception for out readings inside an excluded span, and one for the same readings outside it', async () => {
    const s = await site(t.db, t.tenants.a.customerId, { name: 'Excl fridge' });
    await period(s, 10, 20);
    await ingest(t.db, s, series(9, [5, 12, 12, 12, 5]).slice(1, 4));
    await ingest(t.db, s, [[at(9), 5]]);
    await alarm.drain();
    expect(await exceptionsOf(t.db, s.sensorId)).toEqual([]);
    // The same excursion after the span opens one.
    await ingest(t.db, s, series(20, [12, 12, 5]));
    await alarm.drain();
    expect(await exceptionsOf(t.db, s.sensorId)).toEqual([expect.objectContaining({ category: 'temp_high', start: at(20), end: at(22), peak: 12 })]);
  });

  it('keeps an exception going when a span starts during it: excluded readings move neither its peak nor its end', async () => {
    const s = await site(t.db, t.tenants.a.customerId, { name: 'Excl ongoing' });
    await period(s, 3, 6);
    await ingest(t.db, s, series(0, [5, 9, 9.5]));
    await alarm.drain();
    expect(await exceptionsOf(t.db, s.sensorId)).toEqual([expect.objectContaining({ ongoing: true, start: at(1), peak: 9.5 })]);
    // Inside the span: a worse value and a clear one, both invisible.
    await ingest(t.db, s, series(3, [14, 5, 5]));
    await alarm.drain();
    expect(await exceptionsOf(t.db, s.sensorId)).toEqual([expect.objectContaining({ ongoing: true, start: at(1), last: at(2), peak: 9.5 })]);
    // The first clear reading after the span ends it.
    await ingest(t.db, s, series(6, [5]));
    await alarm.drain();
    expect(await exceptionsOf(t.db, s.sensorId)).toEqual([expect.objectContaining({ ongoing: false, start: at(1), end: at(6), peak: 9.5 })]);
  });

  it('judges a carrier value (sample mode max) without its excluded points', async () => {
    const s = await site(t.db, t.tenants.a.customerId, { name: 'Excl max' });
    const s2 = await addSensor(t.db, s);
    await t.db.query(`UPDATE carrier SET sample_mode = 'max' WHERE id = $1`, [s.carrierId]);
    await period(s, 2, 4);
    await ingest(t.db, s, series(0, [5, 5, 12, 12, 5]));
    await ingest(t.db, s2, series(0, [5, 5, 5, 5, 5]));
    await alarm.drain();
    expect(await exceptionsOf(t.db, { carrier: s.carrierId })).toEqual([]);
  });

  const lcg = (seed: number) => () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);

  // The property of evaluator.test.ts, with excluded spans: the table is the exceptions of the
  // whole series without its excluded readings, whatever the order and batches.
  it.each([
    [0, 0.3],
    [60, 0.3],
  ])('arrives at the same exceptions whatever order and batches, with excluded spans (delay %i s, margin %f)', async (delayS, tempMargin) => {
    const rnd = lcg(11 + delayS);
    for (let round = 0; round < 3; round++) {
      loading.first = round % 2 ? 1 : 32;
      const s = await site(t.db, t.tenants.a.customerId, { name: `Excl shuffle ${delayS} ${round}`, delayS, tempMargin });
      const spans: ExcludedSpan[] = [];
      for (let m = 0; m < 40; m += 8 + Math.floor(rnd() * 6)) {
        const len = 1 + Math.floor(rnd() * 5);
        spans.push({ start: at(m), end: at(m + len), ruleId: await period(s, m, m + len) });
      }
      const bases = [8, 2, 5, 9, 1];
      let base = 5;
      const pts: Point[] = Array.from({ length: 40 }, (_, i) => {
        if (rnd() < 0.25) base = bases[Math.floor(rnd() * bases.length)];
        return { ts: at(i), v: Math.round((base + (rnd() - 0.5) * 1.6) * 10) / 10 + 0 };
      });
      const order = [...pts].sort(() => rnd() - 0.5);
      for (let i = 0; i < order.length; ) {
        const size = 1 + Math.floor(rnd() * 6);
        await ingest(t.db, s, order.slice(i, i + size).map((p) => [p.ts, p.v] as R));
        i += size;
        if (rnd() < 0.7) await alarm.drain();
      }
      await alarm.drain();
      const valid = pts.filter((p) => !isExcluded(spans, p.ts));
      for (const rule of rulesFor({ temp_min: 2, temp_max: 8, hum_min: null, hum_max: null, temp_margin: tempMargin, alarm_delay_s: delayS })) {
        const want = segment(rule, IDLE, valid).map((x) => ({ start: x.start, end: x.end, peak: Math.fround(x.peak) }));
        const got = (await exceptionsOf(t.db, s.sensorId, rule.category)).map((e) => ({ start: e.start, end: e.end, peak: Math.fround(e.peak) }));
        expect(got, `round ${round} ${rule.category}`).toEqual(want);
      }
    }
  }, 180_000);
});
