import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carrierSeries, type SampleMode } from '@coldwatch/contract';
import { setup, type TestCtx } from '../../test/helper.js';
import type { ExceptionEvent } from '../platform/events.js';
import { startAlarm, type Alarm } from './index.js';
import { IDLE, rulesFor, segment } from './segments.js';
import { addSensor, exceptionsOf, ingest, site, type Site } from './testkit.js';

const T0 = Date.UTC(2024, 10, 23, 0, 0, 0);
const at = (min: number) => T0 + min * 60_000;

let t: TestCtx;
let alarm: Alarm;
const events: ExceptionEvent[] = [];

beforeAll(async () => {
  t = await setup();
  alarm = startAlarm({ db: t.db, bus: t.bus, config: t.config }, { pollMs: 60_000 });
  t.bus.on('exception', (e) => events.push(e));
}, 180_000);
afterAll(async () => {
  await alarm?.stop();
  await t?.close();
});

/** Alarm delay and temperature margin of a fridge; left out, the defaults (migration 0034). */
type Settings = { delayS?: number; tempMargin?: number };

/** A fridge (zone 2–8 °C) with `n` probes in `mode`. */
async function fridge(name: string, mode: SampleMode, n: number, emails: string[] = [], settings: Settings = {}): Promise<Site[]> {
  const first = await site(t.db, t.tenants.a.customerId, { name, emails, ...settings });
  const all = [first];
  for (let i = 1; i < n; i++) all.push(await addSensor(t.db, first));
  await t.db.query(`UPDATE carrier SET sample_mode = $2 WHERE id = $1`, [first.carrierId, mode]);
  return all;
}

const carrierEx = (s: Site) => exceptionsOf(t.db, { carrier: s.carrierId });
const sensorEx = async (sensors: Site[]) => (await Promise.all(sensors.map((s) => exceptionsOf(t.db, s.sensorId)))).flat();

describe('alarms on the carrier value (spec §3 sample modes)', () => {
  it('average: one probe out while the average stays in raises nothing; the average out raises one carrier exception, mailed once', async () => {
    const [a, b] = await fridge('Avg fridge', 'avg', 2, ['duty@alpha.test']);
    await ingest(t.db, a, [[at(0), 5]]);
    await ingest(t.db, b, [[at(1), 9]]); // avg 7: in range, although b alone is out
    await alarm.drain();
    expect(await carrierEx(a)).toEqual([]);
    expect(await sensorEx([a, b])).toEqual([]);

    await ingest(t.db, b, [[at(2), 12]]); // avg 8.5
    await alarm.drain();
    let ex = await carrierEx(a);
    expect(ex).toHaveLength(1);
    expect(ex[0]).toMatchObject({ category: 'temp_high', ongoing: true, start: at(2), first: 8.5, peak: 8.5, limitMin: 2, limitMax: 8 });
    expect(events.some((e) => e.exceptionId === ex[0].id && e.sensorId === null && e.carrierId === a.carrierId && e.ongoing)).toBe(true);
    const mails = await t.db.query(`SELECT recipient, content FROM notice_log WHERE exception_id = $1`, [ex[0].id]);
    expect(mails).toHaveLength(1);
    expect(mails[0].content).toContain('8.5');
    // The mail names the carrier's probes.
    expect(mails[0].content).toContain(`${a.devNo}, ${b.devNo}`);

    // The in-range probe brings the average back (3 and 12 average 7.5): the exception ends there,
    // though that reading's own window looked quiet.
    await ingest(t.db, a, [[at(3), 3]]);
    await alarm.drain();
    ex = await carrierEx(a);
    expect(ex).toHaveLength(1);
    expect(ex[0]).toMatchObject({ ongoing: false, start: at(2), end: at(3), last: at(2), duration: 60 });
    expect(await sensorEx([a, b])).toEqual([]);
  });

  it('max: any probe out puts the carrier out; min and balanced judge their own value', async () => {
    const [a, b] = await fridge('Max fridge', 'max', 2);
    await ingest(t.db, a, [[at(0), 5]]);
    await ingest(t.db, b, [[at(0), 8.5]]);
    await alarm.drain();
    expect(await carrierEx(a)).toMatchObject([{ category: 'temp_high', ongoing: true, first: 8.5 }]);

    const [c, d] = await fridge('Min fridge', 'min', 2);
    await ingest(t.db, c, [[at(0), 5]]);
    await ingest(t.db, d, [[at(0), 8.5]]);
    await alarm.drain();
    expect(await carrierEx(c)).toEqual([]);

    // Balanced over three drops the highest and the lowest: one probe at 30 °C changes nothing.
    const three = await fridge('Balanced fridge', 'balanced', 3);
    await ingest(t.db, three[0], [[at(0), 30]]);
    await ingest(t.db, three[1], [[at(0), 4]]);
    await ingest(t.db, three[2], [[at(0), 5]]);
    await alarm.drain();
    expect(await carrierEx(three[0])).toEqual([]);
    expect(await sensorEx(three)).toEqual([]);
  });

  it('falls back to judging each probe when a mode lacks its sensors, and a stale probe stops counting', async () => {
    const [lone] = await fridge('Lone probe', 'max', 1);
    await ingest(t.db, lone, [[at(0), 9]]);
    await alarm.drain();
    expect(await exceptionsOf(t.db, lone.sensorId)).toMatchObject([{ category: 'temp_high', ongoing: true }]);
    expect(await carrierEx(lone)).toEqual([]);

    const [a, b] = await fridge('Stale probe', 'max', 2);
    await ingest(t.db, b, [[at(0), 20]]);
    await ingest(t.db, a, [[at(0), 5]]);
    await ingest(t.db, a, [[at(11), 5]]); // b's 20 is 11 minutes old: stale (the ZBP monitor task's default, 10 min, alarm/offline.ts)
    await alarm.drain();
    expect(await carrierEx(a)).toMatchObject([{ ongoing: false, start: at(0), end: at(11), peak: 20 }]);
  });

  it('changing the mode ends the other judgement\'s ongoing exceptions', async () => {
    const [a, b] = await fridge('Switching fridge', 'latest', 2);
    await ingest(t.db, a, [[at(0), 9]]);
    await alarm.drain();
    expect(await exceptionsOf(t.db, a.sensorId)).toMatchObject([{ ongoing: true }]);
    await t.db.query(`UPDATE carrier SET sample_mode = 'max' WHERE id = $1`, [a.carrierId]);
    await ingest(t.db, b, [[at(1), 9.5]]);
    await ingest(t.db, a, [[at(2), 9.2]]);
    await alarm.drain();
    expect(await exceptionsOf(t.db, a.sensorId)).toMatchObject([{ ongoing: false, end: at(2) }]);
    // The carrier value was out since a's 9 °C at minute 0 (alone then, so the latest value).
    expect(await carrierEx(a)).toMatchObject([{ ongoing: true, start: at(0), peak: 9.5 }]);
    await t.db.query(`UPDATE carrier SET sample_mode = 'latest' WHERE id = $1`, [a.carrierId]);
    await ingest(t.db, a, [[at(3), 9.1]]);
    await alarm.drain();
    expect(await carrierEx(a)).toMatchObject([{ ongoing: false, end: at(3) }]);
    expect((await exceptionsOf(t.db, a.sensorId)).filter((e) => e.ongoing)).toHaveLength(1);
  });

  /** Three probes of an avg fridge and their readings for 30 rounds (probes 1 a minute after 0 and 2). */
  async function wavy(name: string, rnd: () => number, settings: Required<Settings>) {
    const probes = await fridge(name, 'avg', 3, [], settings);
    const readings = probes.flatMap((s, k) => Array.from({ length: 30 }, (_, i) => ({ s, k, ts: at(i * 2 + (k % 2)), v: Math.round((5 + 6 * Math.sin(i / 3 + k) + rnd() * 2) * 10) / 10 })));
    const series = carrierSeries(
      'avg',
      probes.map((_, k) => ({ staleMs: 240_000, samples: readings.filter((r) => r.k === k).sort((x, y) => x.ts - y.ts).map((r) => ({ ts: r.ts, value: r.v })) })),
    );
    const zone = { temp_min: 2, temp_max: 8, hum_min: null, hum_max: null, temp_margin: settings.tempMargin, alarm_delay_s: settings.delayS };
    const want = rulesFor(zone).flatMap((rule) =>
      segment(rule, IDLE, series.map((p) => ({ ts: p.ts, v: p.value }))).map((r) => ({ category: rule.category, start: r.start, end: r.end, peak: Math.round(r.peak * 100) / 100 })),
    );
    expect(want.length).toBeGreaterThan(2);
    return { probes, readings, want };
  }
  const lcg = (seed: number) => () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const order = (x: { category: string; start: number }, y: { category: string; start: number }) => x.category.localeCompare(y.category) || x.start - y.start;
  const recorded = async (s: Site) => (await carrierEx(s)).map((e) => ({ category: e.category, start: e.start, end: e.end, peak: Math.round(e.peak * 100) / 100, ongoing: e.ongoing })).sort(order);

  // Points a minute apart: a delay of two minutes merges crossings.
  it.each([
    [0, 0],
    [120, 0.3],
  ])('arrives at the exceptions of the whole series whatever the batches and evaluation times, readings coming in time order (delay %i s, margin %f)', async (delayS, tempMargin) => {
    const rnd = lcg(7);
    for (let round = 0; round < 3; round++) {
      const { probes, readings, want } = await wavy(`In order ${delayS} ${round}`, rnd, { delayS, tempMargin });
      const inOrder = [...readings].sort((x, y) => x.ts - y.ts || x.k - y.k);
      for (let i = 0; i < inOrder.length; ) {
        const size = 1 + Math.floor(rnd() * 6);
        for (const r of inOrder.slice(i, i + size)) await ingest(t.db, r.s, [[r.ts, r.v]]);
        i += size;
        if (rnd() < 0.5) await alarm.drain();
      }
      await alarm.drain();
      expect((await recorded(probes[0])).map(({ ongoing: _, ...e }) => e)).toEqual(want.sort(order));
    }
  });

  it.each([
    [0, 0.3],
    [120, 0.3],
  ])('misses no excursion and leaves none open when one probe\'s readings come late (back-fill; delay %i s, margin %f)', async (delayS, tempMargin) => {
    // A late probe changes the value of moments already judged: what was recorded then stays on
    // record (it may have been handled and mailed), but every excursion of the whole series is
    // covered and nothing stays ongoing that the whole series has ended.
    const rnd = lcg(11);
    for (let round = 0; round < 3; round++) {
      const { probes, readings, want } = await wavy(`Back-filled ${delayS} ${round}`, rnd, { delayS, tempMargin });
      const late = readings.filter((r) => r.k === 1);
      const rest = readings.filter((r) => r.k !== 1).sort((x, y) => x.ts - y.ts);
      for (const r of rest) await ingest(t.db, r.s, [[r.ts, r.v]]);
      await alarm.drain();
      const shuffled = [...late].sort(() => rnd() - 0.5);
      for (let i = 0; i < shuffled.length; i += 5) {
        for (const r of shuffled.slice(i, i + 5)) await ingest(t.db, r.s, [[r.ts, r.v]]);
        await alarm.drain();
      }
      const got = await recorded(probes[0]);
      for (const w of want) expect(got.some((g) => g.category === w.category && g.start <= (w.end ?? Infinity) && (g.end ?? Infinity) >= w.start)).toBe(true);
      const openWanted = want.filter((w) => w.end === null).map((w) => w.category);
      expect(got.filter((g) => g.ongoing).map((g) => g.category).sort()).toEqual(openWanted.sort());
    }
  });
});
