import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../test/helper.js';
import { evaluateSensor } from './evaluator.js';
import { clearOfZone, dequeueQuiet } from './quiet.js';
import { isClear, rulesFor } from './segments.js';
import { exceptionsOf, ingest, site, type Site } from './testkit.js';

const T0 = Date.UTC(2024, 10, 22, 0, 0, 0);
const at = (min: number) => T0 + min * 60_000;

let t: TestCtx;
beforeAll(async () => {
  t = await setup();
}, 180_000);
afterAll(() => t?.close());

const queued = async (s: Site) => (await t.db.query('SELECT 1 FROM alarm_queue WHERE sensor_id = $1', [s.sensorId])).length === 1;
const newSite = (name: string, opts: Parameters<typeof site>[2] extends infer O ? Partial<O> : never = {}) => site(t.db, t.tenants.a.customerId, { name, ...opts });

describe('quiet windows (the evaluator fast path)', () => {
  it('dequeues a window with every reading in range, and keeps one with a reading out of range', async () => {
    const calm = await newSite('Calm');
    const hot = await newSite('Hot');
    await ingest(t.db, calm, [[at(0), 4], [at(1), 5.5]]);
    await ingest(t.db, hot, [[at(0), 4], [at(1), 8.5]]);
    expect(await dequeueQuiet(t.db, [calm.sensorId, hot.sensorId])).toEqual({ quiet: new Set([calm.sensorId]), loud: new Set([hot.sensorId]) });
    expect([await queued(calm), await queued(hot)]).toEqual([false, true]);
  });

  it('keeps an in-range window while an exception is ongoing (it must close it) or overlaps the window', async () => {
    const s = await newSite('Ongoing');
    await ingest(t.db, s, [[at(10), 5]]);
    await t.db.query(
      `INSERT INTO exception_record (customer_id, carrier_id, sensor_id, gateway_id, type, category, status, ongoing, start_ts, last_ts, first_value, peak_value, limit_min, limit_max)
       VALUES ($1, $2, $3, $4, 'data', 'temp_high', 0, true, $5, $5, 9, 9, 2, 8)`,
      [s.customerId, s.carrierId, s.sensorId, s.gatewayId, new Date(at(5))],
    );
    expect(await dequeueQuiet(t.db, [s.sensorId])).toEqual({ quiet: new Set(), loud: new Set([s.sensorId]) });
    expect(await queued(s)).toBe(true);
  });

  it('keeps an in-range window next to out-of-range readings that no exception holds yet', async () => {
    // Readings out of range came while the alarm was off; the window that follows ends their run.
    const s = await newSite('Switched on');
    await ingest(t.db, s, [[at(0), 9.5]]);
    await t.db.query('DELETE FROM alarm_queue WHERE sensor_id = $1', [s.sensorId]);
    await ingest(t.db, s, [[at(1), 5]]);
    expect(await dequeueQuiet(t.db, [s.sensorId])).toEqual({ quiet: new Set(), loud: new Set([s.sensorId]) });
    // And on the other side: a back-filled in-range reading before an unrecorded run.
    const u = await newSite('Back-filled');
    await ingest(t.db, u, [[at(5), 1.5]]);
    await t.db.query('DELETE FROM alarm_queue WHERE sensor_id = $1', [u.sensorId]);
    await ingest(t.db, u, [[at(4), 3]]);
    expect(await dequeueQuiet(t.db, [u.sensorId])).toEqual({ quiet: new Set(), loud: new Set([u.sensorId]) });
  });

  it('keeps a window next to a reading in the margin\'s band, before or after it, and dequeues one between clear readings', async () => {
    // A 2–8 °C zone with the default 0.3 °C margin: 7.9 is in range but in the band, where a run goes on.
    const band = async (name: string, readings: [number, number][], window: [number, number][]) => {
      const s = await newSite(name);
      await ingest(t.db, s, readings);
      await t.db.query('DELETE FROM alarm_queue WHERE sensor_id = $1', [s.sensorId]);
      await ingest(t.db, s, window);
      return s;
    };
    const before = await band('Band before', [[at(0), 7.9]], [[at(1), 5]]);
    const after = await band('Band after', [[at(2), 7.9]], [[at(1), 5]]);
    const clear = await band('Clear around', [[at(0), 7.6], [at(2), 2.4]], [[at(1), 5]]);
    // Readings in the band inside the window, between clear ones, change nothing.
    const inside = await band('Band inside', [[at(0), 7.6], [at(3), 7.6]], [[at(1), 7.9], [at(2), 2.1]]);
    expect(await dequeueQuiet(t.db, [before.sensorId, after.sensorId, clear.sensorId, inside.sensorId])).toEqual({
      quiet: new Set([clear.sensorId, inside.sensorId]),
      loud: new Set([before.sensorId, after.sensorId]),
    });
  });

  it('with a delay, keeps a window that follows an out reading within twice the delay, and every window of a carrier value', async () => {
    const s = await newSite('Delay', { delayS: 60 });
    await ingest(t.db, s, [[at(0), 9], [at(1), 5]]);
    await t.db.query('DELETE FROM alarm_queue WHERE sensor_id = $1', [s.sensorId]);
    // The out reading at 0 is two minutes before the window: a run too short to store may still be pending.
    await ingest(t.db, s, [[at(2), 5]]);
    const far = await newSite('Delay far', { delayS: 60 });
    await ingest(t.db, far, [[at(0), 9], [at(1), 5]]);
    await t.db.query('DELETE FROM alarm_queue WHERE sensor_id = $1', [far.sensorId]);
    await ingest(t.db, far, [[at(3), 5]]);
    const agg = await newSite('Delay avg', { delayS: 60 });
    await t.db.query(`UPDATE carrier SET sample_mode = 'avg' WHERE id = $1`, [agg.carrierId]);
    await ingest(t.db, agg, [[at(0), 5]]);
    expect(await dequeueQuiet(t.db, [s.sensorId, far.sensorId, agg.sensorId])).toEqual({ quiet: new Set([far.sensorId]), loud: new Set([s.sensorId, agg.sensorId]) });
  });

  it('dequeues only windows whose full evaluation would change nothing, whatever the order of the readings', async () => {
    let seed = 3;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const seen = { quiet: 0, loud: 0 };
    for (let round = 0; round < 6; round++) {
      const [delayS, tempMargin] = ([[0, 0.3], [60, 0.3], [150, 0.5]] as const)[round % 3];
      const s = await newSite(`Agree ${round}`, { delayS, tempMargin });
      // Mostly well inside the zone, now and then near or over a limit.
      const pts = Array.from({ length: 40 }, (_, i) => [at(i), Math.round((rnd() < 0.7 ? 5 + (rnd() - 0.5) * 3 : 7.5 + rnd() * 1.2) * 10) / 10] as [number, number]);
      const order = [...pts].sort(() => rnd() - 0.5);
      for (let i = 0; i < order.length; ) {
        const size = 1 + Math.floor(rnd() * 4);
        await ingest(t.db, s, order.slice(i, i + size));
        i += size;
        const before = await exceptionsOf(t.db, s.sensorId);
        const [w] = await t.db.query<{ min_ts: Date; max_ts: Date }>('SELECT min_ts, max_ts FROM alarm_queue WHERE sensor_id = $1', [s.sensorId]);
        const judged = await dequeueQuiet(t.db, [s.sensorId]);
        if (judged.quiet.has(s.sensorId)) {
          seen.quiet++;
          // The same window evaluated in full leaves every exception as it was.
          await t.db.query('INSERT INTO alarm_queue (sensor_id, customer_id, min_ts, max_ts) VALUES ($1, $2, $3, $4)', [s.sensorId, s.customerId, w.min_ts, w.max_ts]);
          await t.db.tx((q) => evaluateSensor(q, s.sensorId));
          expect(await exceptionsOf(t.db, s.sensorId), `round ${round}, after ${i} readings`).toEqual(before);
        } else {
          seen.loud++;
          await t.db.tx((q) => evaluateSensor(q, s.sensorId));
        }
      }
    }
    expect(seen.quiet).toBeGreaterThan(10);
    expect(seen.loud).toBeGreaterThan(10);
  }, 120_000);

  it('judges "clear" in SQL as segments.ts does, the margin capped at half the zone in both', async () => {
    const cases: [number, number, number, number][] = [];
    for (const [lo, hi] of [[2, 8], [2.1, 8.1], [4, 5], [-25, -15], [5, 5], [0, 0.5], [35, 75]])
      for (const m of [0, 0.3, 2, 10])
        for (const v of [lo, hi, lo + m, hi - m, (lo + hi) / 2, lo + m + 0.01, hi - m - 0.01, lo + m - 0.01, hi - m + 0.01]) cases.push([lo, hi, m, Math.round(v * 100) / 100]);
    const rows = await t.db.query<{ c: boolean }>(
      `SELECT ${clearOfZone('temp', 'x')} AS c
         FROM unnest($1::numeric[], $2::numeric[], $3::numeric[], $4::real[]) WITH ORDINALITY AS k(temp_min, temp_max, temp_margin, x, i) ORDER BY i`,
      [cases.map((c) => c[0]), cases.map((c) => c[1]), cases.map((c) => c[2]), cases.map((c) => c[3])],
    );
    const ts = cases.map(([lo, hi, m, v]) => rulesFor({ temp_min: lo, temp_max: hi, hum_min: null, hum_max: null, temp_margin: m }).every((r) => isClear(r, v)));
    expect(rows.map((r) => r.c)).toEqual(ts);
    expect(ts.filter(Boolean).length).toBeGreaterThan(cases.length / 4);
  });

  it('dequeues the windows of sensors nobody watches: alarm off, no zone', async () => {
    const off = await newSite('Off', { alarmOn: false });
    const noZone = await newSite('No zone', { temp: null });
    await ingest(t.db, off, [[at(0), 30]]);
    await ingest(t.db, noZone, [[at(0), 30]]);
    expect(await dequeueQuiet(t.db, [off.sensorId, noZone.sensorId])).toEqual({ quiet: new Set([off.sensorId, noZone.sensorId]), loud: new Set() });
  });

  it.skipIf(!process.env.DATABASE_URL)('leaves a row an ingest batch holds to a later pass: neither quiet nor loud', async () => {
    const held = await newSite('Held');
    const free = await newSite('Free');
    await ingest(t.db, held, [[at(0), 9.5]]);
    await ingest(t.db, free, [[at(0), 9.5]]);
    let release!: () => void;
    let holding!: () => void;
    const locked = new Promise<void>((ok) => (holding = ok));
    const batch = t.db.tx(async (q) => {
      await q.query('SELECT 1 FROM alarm_queue WHERE sensor_id = $1 FOR UPDATE', [held.sensorId]);
      holding();
      await new Promise<void>((r) => (release = r));
    });
    await locked;
    try {
      expect(await dequeueQuiet(t.db, [held.sensorId, free.sensorId])).toEqual({ quiet: new Set(), loud: new Set([free.sensorId]) });
    } finally {
      release();
      await batch;
    }
    expect(await dequeueQuiet(t.db, [held.sensorId])).toEqual({ quiet: new Set(), loud: new Set([held.sensorId]) });
  });
});
