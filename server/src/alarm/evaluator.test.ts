import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../test/helper.js';
import type { ExceptionEvent } from '../platform/events.js';
import { startAlarm, type Alarm } from './index.js';
import { NOT_CONFIGURED } from './notifier.js';
import { rulesFor, segment, type Point } from './segments.js';
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
    expect(n[0]).toMatchObject({ type: 'alarm', channel: 'email', status: 2, result: NOT_CONFIGURED });
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
    const s = await site(t.db, t.tenants.a.customerId, { name: 'Store H', temp: [2.1, 8.1], hum: [35, 75] });
    await ingest(t.db, s, [[at(0), 8.1, 50], [at(1), 2.1, 80], [at(2), 5, 75], [at(3), 5, 20]]);
    await alarm.drain();
    const ex = await exceptionsOf(t.db, s.sensorId);
    expect(ex.map((e) => [e.category, e.start, e.end])).toEqual([
      ['hum_high', at(1), at(2)],
      ['hum_low', at(3), null],
    ]);
  });

  it('arrives at the same exceptions whatever order and batches the readings come in', async () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const rule = rulesFor({ temp_min: 2, temp_max: 8, hum_min: null, hum_max: null });
    for (let round = 0; round < 6; round++) {
      const s = await site(t.db, t.tenants.a.customerId, { name: `Shuffle ${round}` });
      const pts: Point[] = Array.from({ length: 40 }, (_, i) => ({ ts: at(i), v: Math.round((rnd() * 12 - 1) * 10) / 10 + 0 }));
      // Random batches, delivered in random order, drained after each (as if the gateway flushed its buffer late).
      const shuffled = [...pts].sort(() => rnd() - 0.5);
      for (let i = 0; i < shuffled.length; ) {
        const size = 1 + Math.floor(rnd() * 6);
        await ingest(t.db, s, shuffled.slice(i, i + size).map((p) => [p.ts, p.v] as R));
        i += size;
        if (rnd() < 0.7) await alarm.drain();
      }
      await alarm.drain();
      for (const r of rule) {
        const want = segment(r, null, pts, { kind: 'none' }).map((x) => ({ start: x.start, end: x.end, first: Math.fround(x.first), peak: Math.fround(x.peak) }));
        const got = (await exceptionsOf(t.db, s.sensorId, r.category)).map((e) => ({ start: e.start, end: e.end, first: Math.fround(e.first), peak: Math.fround(e.peak) }));
        expect(got, `round ${round} ${r.category}`).toEqual(want);
      }
    }
  }, 180_000);
});
