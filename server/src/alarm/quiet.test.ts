import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../test/helper.js';
import { dequeueQuiet } from './quiet.js';
import { ingest, site, type Site } from './testkit.js';

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
