import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../test/helper.js';
import type { ExceptionEvent } from '../platform/events.js';
import { startAlarm, type Alarm } from './index.js';
import { loading } from './evaluator.js';
import { NOT_CONFIGURED } from './notifier.js';
import { IDLE, rulesFor, segment, type Point } from './segments.js';
import { exceptionsOf, ingest, site, type R } from './testkit.js';

const T0 = Date.UTC(2024, 10, 22, 0, 0, 0);
const at = (min: number) => T0 + min * 60_000;
/** Readings one minute apart from minute `from`. */
const series = (from: number, temps: number[]): R[] => temps.map((v, i) => [at(from + i), v]);

let t: TestCtx;
let alarm: Alarm;
const events: ExceptionEvent[] = [];

beforeAll(async () => {
  t = await setup();
  // No SMTP_URL here: the notifier must leave every notice visibly failed.
  alarm = startAlarm({ db: t.db, bus: t.bus, config: t.config }, { pollMs: 60_000 });
  t.bus.on('exception', (e) => events.push(e));
}, 180_000); // building the app (migrations, three argon2 hashes) is slow on a busy machine
afterEach(() => {
  loading.first = 32;
});
afterAll(async () => {
  await alarm?.stop();
  await t?.close();
});

const notices = (sensorId: number) =>
  t.db.query(
    `SELECT n.* FROM notice_log n JOIN exception_record e ON e.id = n.exception_id WHERE e.sensor_id = $1 ORDER BY n.id`,
    [sensorId],
  );

describe('alarm evaluator', () => {
  it('opens one exception for an excursion, updates its peak, closes it back in range', async () => {
    const s = await site(t.db, t.tenants.a.customerId, { name: 'Fridge 1', emails: ['ops@alpha.test', 'qa@alpha.test', ''] });
    await ingest(t.db, s, series(0, [5, 6, 9.5]));
    await alarm.drain();
    let ex = await exceptionsOf(t.db, s.sensorId);
    expect(ex).toHaveLength(1);
    expect(ex[0]).toMatchObject({ category: 'temp_high', status: 0, ongoing: true, start: at(2), end: null, first: 9.5, peak: 9.5, limitMin: 2, limitMax: 8 });
    expect(events.some((e) => e.exceptionId === ex[0].id && e.ongoing && e.sensorId === s.sensorId && e.carrierId === s.carrierId)).toBe(true);
    expect(await t.db.query('SELECT 1 FROM alarm_queue WHERE sensor_id = $1', [s.sensorId])).toHaveLength(0);

    // One notice per contact with an address, in Chinese by default, failed without SMTP_URL.
    let n = await notices(s.sensorId);
    expect(n.map((r) => r.recipient).sort()).toEqual(['ops@alpha.test', 'qa@alpha.test']);
    expect(n[0]).toMatchObject({ type: 'alarm', channel: 'email', status: 2, result: NOT_CONFIGURED.email });
    expect(n[0].subject).toContain('Fridge 1');
    expect(n[0].content).toContain('9.5');
    expect(n[0].content).toContain('温度超过上限');

    await ingest(t.db, s, series(3, [10.5, 9]));
    await alarm.drain();
    ex = await exceptionsOf(t.db, s.sensorId);
    expect(ex).toHaveLength(1);
    expect(ex[0]).toMatchObject({ ongoing: true, start: at(2), first: 9.5, peak: 10.5, last: at(4) });
    expect(await notices(s.sensorId)).toHaveLength(2);

    await ingest(t.db, s, series(5, [7, 6]));
    await alarm.drain();
    ex = await exceptionsOf(t.db, s.sensorId);
    expect(ex).toHaveLength(1);
    expect(ex[0]).toMatchObject({ ongoing: false, start: at(2), end: at(5), duration: 180, peak: 10.5 });
    n = await notices(s.sensorId);
    expect(n).toHaveLength(2);
  });

  it('files a back-filled past excursion as a closed exception and leaves the current one alone', async () => {
    const s = await site(t.db, t.tenants.a.customerId, { name: 'Fridge 2', emails: ['ops@alpha.test'] });
    await ingest(t.db, s, series(60, [5, 9, 9.2]));
    await alarm.drain();
    const [current] = await exceptionsOf(t.db, s.sensorId);
    expect(current).toMatchObject({ category: 'temp_high', ongoing: true, start: at(61) });

    // The gateway was offline and sends its buffer: a cold spell an hour earlier.
    await ingest(t.db, s, series(0, [5, 1.5, 1.0, 1.8, 4, 5]));
    await alarm.drain();
    const low = await exceptionsOf(t.db, s.sensorId, 'temp_low');
    expect(low).toHaveLength(1);
    expect(low[0]).toMatchObject({ ongoing: false, start: at(1), end: at(4), duration: 180, first: 1.5, peak: 1.0 });
    const [still] = await exceptionsOf(t.db, s.sensorId, 'temp_high');
    expect(still).toMatchObject({ id: current.id, ongoing: true, start: at(61), peak: 9.2 });
    const n = await notices(s.sensorId);
    expect(n).toHaveLength(2);
    expect(n[1].subject).toContain('已结束');
  });

  it('does not close or reopen the current exception for back-filled readings before it', async () => {
    const s = await site(t.db, t.tenants.a.customerId, { name: 'Fridge 3' });
    await ingest(t.db, s, [[at(0), 5], [at(10), 9], [at(11), 9.5]]);
    await alarm.drain();
    const [cur] = await exceptionsOf(t.db, s.sensorId);
    // An in-range reading before the start: the excursion still began at minute 10.
    await ingest(t.db, s, [[at(5), 6]]);
    await alarm.drain();
    expect(await exceptionsOf(t.db, s.sensorId)).toEqual([expect.objectContaining({ id: cur.id, ongoing: true, start: at(10), peak: 9.5 })]);
    // An out-of-range reading right before it, with no in-range reading between: the same excursion started earlier.
    await ingest(t.db, s, [[at(8), 12]]);
    await alarm.drain();
    expect(await exceptionsOf(t.db, s.sensorId)).toEqual([expect.objectContaining({ id: cur.id, ongoing: true, start: at(8), first: 12, peak: 12 })]);
    // A later live reading still extends the same one.
    await ingest(t.db, s, [[at(12), 8.5]]);
    await alarm.drain();
    expect(await exceptionsOf(t.db, s.sensorId)).toEqual([expect.objectContaining({ id: cur.id, ongoing: true, start: at(8), last: at(12) })]);
  });

  it('splits an exception when a back-filled in-range reading lands inside it', async () => {
    const s = await site(t.db, t.tenants.a.customerId, { name: 'Fridge 4', emails: ['ops@alpha.test'] });
    await ingest(t.db, s, [[at(0), 5], [at(1), 9], [at(2), 11], [at(4), 10], [at(5), 9]]);
    await alarm.drain();
    const [cur] = await exceptionsOf(t.db, s.sensorId);
    await ingest(t.db, s, [[at(3), 7]]);
    await alarm.drain();
    const ex = await exceptionsOf(t.db, s.sensorId);
    expect(ex).toHaveLength(2);
    expect(ex[0]).toMatchObject({ id: cur.id, ongoing: false, start: at(1), end: at(3), peak: 11, duration: 120 });
    expect(ex[1]).toMatchObject({ ongoing: true, start: at(4), first: 10, peak: 10 });
    expect(await notices(s.sensorId)).toHaveLength(2);
  });

  it('makes no duplicates when a queue row is evaluated again', async () => {
    const s = await site(t.db, t.tenants.a.customerId, { name: 'Fridge 5', emails: ['ops@alpha.test'] });
    const rs = series(0, [5, 9, 9.5, 6, 1, 1.2]);
    await ingest(t.db, s, rs);
    await alarm.drain();
    const before = await exceptionsOf(t.db, s.sensorId);
    expect(before.map((e) => e.category)).toEqual(['temp_high', 'temp_low']);
    // The same window queued again (a redelivered batch, a crash after commit): nothing changes.
    await ingest(t.db, s, rs);
    await alarm.drain();
    await ingest(t.db, s, rs.slice(1, 3));
    await alarm.drain();
    expect(await exceptionsOf(t.db, s.sensorId)).toEqual(before);
    expect(await notices(s.sensorId)).toHaveLength(2);
  });

  it('keeps a queue row widened during its evaluation and evaluates it again', async () => {
    const s = await site(t.db, t.tenants.a.customerId, { name: 'Fridge 6' });
    await ingest(t.db, s, series(0, [5, 9]));
    const { evaluateSensor } = await import('./evaluator.js');
    const out = await t.db.tx((q) =>
      evaluateSensor(q, s.sensorId, {
        // An ingest batch commits between this evaluation's read and its dequeue.
        beforeDequeue: async (q) => {
          await q.query(`INSERT INTO reading (sensor_id, ts, customer_id, temp) VALUES ($1, $3, $2, 9.7), ($1, $4, $2, 5)`, [
            s.sensorId, s.customerId, new Date(at(2)), new Date(at(3)),
          ]);
          await q.query(`UPDATE alarm_queue SET max_ts = GREATEST(max_ts, $2), version = version + 1 WHERE sensor_id = $1`, [s.sensorId, new Date(at(3))]);
        },
      }),
    );
    expect(out?.dequeued).toBe(false);
    expect(await exceptionsOf(t.db, s.sensorId)).toEqual([expect.objectContaining({ ongoing: true, start: at(1), peak: 9 })]);
    await alarm.drain();
    expect(await t.db.query('SELECT 1 FROM alarm_queue WHERE sensor_id = $1', [s.sensorId])).toHaveLength(0);
    expect(await exceptionsOf(t.db, s.sensorId)).toEqual([expect.objectContaining({ ongoing: false, start: at(1), end: at(3), peak: 9.7 })]);
  });

  it('raises nothing when the alarm is off or the carrier has no zone, and consumes the window', async () => {
    const off = await site(t.db, t.tenants.a.customerId, { name: 'Fridge off', alarmOn: false, emails: ['ops@alpha.test'] });
    const noZone = await site(t.db, t.tenants.a.customerId, { name: 'No zone', temp: null });
    for (const s of [off, noZone]) await ingest(t.db, s, series(0, [5, 20, 30]));
    await alarm.drain();
    for (const s of [off, noZone]) {
      expect(await exceptionsOf(t.db, s.sensorId)).toEqual([]);
      expect(await t.db.query('SELECT 1 FROM alarm_queue WHERE sensor_id = $1', [s.sensorId])).toHaveLength(0);
    }
  });

  it('evaluates humidity against its own zone and treats a value on the limit as in range', async () => {
    // No margins: a value on the limit ends the run (the margins' band is tested below).
    const s = await site(t.db, t.tenants.a.customerId, { name: 'Store H', temp: [2.1, 8.1], hum: [35, 75], tempMargin: 0, humMargin: 0 });
    await ingest(t.db, s, [[at(0), 8.1, 50], [at(1), 2.1, 80], [at(2), 5, 75], [at(3), 5, 20]]);
    await alarm.drain();
    const ex = await exceptionsOf(t.db, s.sensorId);
    expect(ex.map((e) => [e.category, e.start, e.end])).toEqual([
      ['hum_high', at(1), at(2)],
      ['hum_low', at(3), null],
    ]);
  });

  it('keeps humidity in its band with its own margin', async () => {
    // hum_margin 2 (the default): 74 is in the band of a 75 %RH limit, 73 is clear.
    const s = await site(t.db, t.tenants.a.customerId, { name: 'Store H2', hum: [35, 75] });
    await ingest(t.db, s, [[at(0), 5, 50], [at(1), 5, 80], [at(2), 5, 74], [at(3), 5, 76], [at(4), 5, 73]]);
    await alarm.drain();
    expect((await exceptionsOf(t.db, s.sensorId)).map((e) => [e.category, e.start, e.end, e.peak])).toEqual([['hum_high', at(1), at(4), 80]]);
  });

  it('files back-filled readings of an excursion already over as an ended exception, with the delay and the margin', async () => {
    const s = await site(t.db, t.tenants.a.customerId, { name: 'Fridge late', emails: ['ops@alpha.test'], delayS: 120 });
    await ingest(t.db, s, series(60, [5, 5]));
    await alarm.drain();
    // An hour earlier: out at 1, 2, back in the band at 3 (still the excursion), out at 4, clear from 5.
    await ingest(t.db, s, series(0, [5, 9, 9.5, 7.9, 8.5, 6, 6, 6, 6]));
    // And one too short to count: out at 20 only, clear at 21.
    await ingest(t.db, s, series(19, [5, 9, 5, 5, 5]));
    await alarm.drain();
    expect(await exceptionsOf(t.db, s.sensorId)).toEqual([
      expect.objectContaining({ category: 'temp_high', ongoing: false, start: at(1), last: at(4), end: at(5), duration: 240, first: 9, peak: 9.5 }),
    ]);
    const n = await notices(s.sensorId);
    expect(n).toHaveLength(1);
    expect(n[0].subject).toContain('已结束');
  });

  // With one reading loaded first around a window, the state before it comes from the stored exceptions.
  it.each([32, 1])('opens an exception only once the delay has passed with the value still out (first load %i)', async (first) => {
    loading.first = first;
    const s = await site(t.db, t.tenants.a.customerId, { name: `Fridge delay ${first}`, emails: ['ops@alpha.test'], delayS: 120 });
    await ingest(t.db, s, series(0, [5, 9]));
    await alarm.drain();
    expect(await exceptionsOf(t.db, s.sensorId)).toEqual([]);
    await ingest(t.db, s, series(2, [9.2]));
    await alarm.drain();
    expect(await exceptionsOf(t.db, s.sensorId)).toEqual([]);
    await ingest(t.db, s, series(3, [9.1]));
    await alarm.drain();
    expect(await exceptionsOf(t.db, s.sensorId)).toEqual([expect.objectContaining({ ongoing: true, start: at(1), last: at(3), peak: 9.2 })]);
    // Back in range: the end waits for the delay; out again within it, the same exception goes on.
    await ingest(t.db, s, series(4, [6]));
    await alarm.drain();
    await ingest(t.db, s, series(5, [9.6]));
    await alarm.drain();
    await ingest(t.db, s, series(6, [6, 6]));
    await alarm.drain();
    expect(await exceptionsOf(t.db, s.sensorId)).toEqual([expect.objectContaining({ ongoing: true, start: at(1), last: at(5), peak: 9.6, end: null })]);
    await ingest(t.db, s, series(8, [6]));
    await alarm.drain();
    expect(await exceptionsOf(t.db, s.sensorId)).toEqual([expect.objectContaining({ ongoing: false, start: at(1), last: at(5), end: at(6), duration: 300 })]);
    expect(await notices(s.sensorId)).toHaveLength(1);
  });

  it.each([32, 1])('judges readings that came while the alarm was off from their first out reading (first load %i)', async (first) => {
    loading.first = first;
    const s = await site(t.db, t.tenants.a.customerId, { name: `Fridge was off ${first}`, delayS: 120 });
    await t.db.query('UPDATE carrier SET alarm_on = false WHERE id = $1', [s.carrierId]);
    await ingest(t.db, s, series(0, [5, 9, 9, 9, 9, 9, 9, 9, 9, 9]));
    await alarm.drain();
    expect(await exceptionsOf(t.db, s.sensorId)).toEqual([]);
    await t.db.query('UPDATE carrier SET alarm_on = true WHERE id = $1', [s.carrierId]);
    await ingest(t.db, s, series(10, [9.5]));
    await alarm.drain();
    expect(await exceptionsOf(t.db, s.sensorId)).toEqual([expect.objectContaining({ ongoing: true, start: at(1), last: at(10), peak: 9.5 })]);
  });

  /**
   * Random readings near both limits (so that the margins' bands are hit), on a one-minute grid,
   * in random batches and random order, drained at random moments.
   */
  async function shuffled(name: string, opts: { delayS: number; tempMargin: number }, rnd: () => number) {
    const s = await site(t.db, t.tenants.a.customerId, { name, ...opts });
    const bases = [8, 2, 5, 8, 2];
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
    const rules = rulesFor({ temp_min: 2, temp_max: 8, hum_min: null, hum_max: null, temp_margin: opts.tempMargin, alarm_delay_s: opts.delayS });
    const view = (x: { start: number; end: number | null; first: number; peak: number }) => ({ start: x.start, end: x.end, first: Math.fround(x.first), peak: Math.fround(x.peak) });
    return Promise.all(rules.map(async (r) => ({ category: r.category, want: segment(r, IDLE, pts).map(view), got: await exceptionsOf(t.db, s.sensorId, r.category) })));
  }
  const lcg = (seed: number) => () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);

  // With a delay no longer than the readings' spacing, every run of a subset of the readings is
  // part of a run of the whole series that lasts the delay: the table is exactly the whole series'.
  it.each([
    [0, 0],
    [60, 0.3],
    [0, 1],
  ])('arrives at the same exceptions whatever order and batches the readings come in (delay %i s, margin %f)', async (delayS, tempMargin) => {
    const rnd = lcg(7 + delayS);
    for (let round = 0; round < 4; round++) {
      // Half the rounds load one reading around a window at first: the state then comes from the stored exceptions.
      loading.first = round % 2 ? 1 : 32;
      for (const { category, want, got } of await shuffled(`Shuffle ${delayS} ${tempMargin} ${round}`, { delayS, tempMargin }, rnd)) {
        expect(got.map((e) => ({ start: e.start, end: e.end, first: Math.fround(e.first), peak: Math.fround(e.peak) })), `round ${round} ${category}`).toEqual(want);
      }
    }
  }, 180_000);

  // With a longer delay, crossings merge, and a back-filled clear reading can show that an
  // excursion already recorded lasted less than the delay. That record stays (it may have been
  // mailed and handled), ended; every exception of the whole series is there all the same.
  it('arrives at the exceptions of the whole series, and leaves nothing open that it ended, with a delay longer than the spacing', async () => {
    const rnd = lcg(29);
    for (let round = 0; round < 4; round++) {
      loading.first = round % 2 ? 1 : 32;
      for (const { category, want, got } of await shuffled(`Shuffle long ${round}`, { delayS: 150, tempMargin: 0.3 }, rnd)) {
        const rows = got.map((e) => ({ start: e.start, end: e.end, first: Math.fround(e.first), peak: Math.fround(e.peak), ongoing: e.ongoing }));
        for (const w of want) expect(rows, `round ${round} ${category}`).toContainEqual({ ...w, ongoing: w.end === null });
        const extra = rows.filter((r) => !want.some((w) => w.start === r.start && w.end === r.end));
        expect(extra.filter((r) => r.ongoing), `round ${round} ${category}`).toEqual([]);
      }
    }
  }, 180_000);
});
