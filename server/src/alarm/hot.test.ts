import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../test/helper.js';
import { generateGatewaySecret, hashGatewaySecret } from '../ingest/secret.js';
import type { Queryable } from '../platform/db/client.js';
import { evaluateSensor } from './evaluator.js';
import { nextWindows } from './quiet.js';
import { site, type Site } from './testkit.js';

/*
 * Hot windows (migration 0027): the ingest writer marks a sensor's queued window hot when a
 * committed reading is outside its carrier's zone, and the evaluator takes hot windows first,
 * so an alarm does not wait behind a backlog of quiet windows.
 */

let t: TestCtx;
beforeAll(async () => {
  t = await setup();
}, 180_000);
afterAll(() => t?.close());

async function withSecret(s: Site) {
  const secret = generateGatewaySecret();
  const [gw] = await t.db.query<{ sn: string }>(`UPDATE gateway SET secret_hash = $2 WHERE id = $1 RETURNING sn`, [s.gatewayId, hashGatewaySecret(secret)]);
  return { ...s, sn: gw.sn, secret };
}

let clock = Date.now() - 3_600_000;
async function send(s: Awaited<ReturnType<typeof withSecret>>, temp: number | null, hum: number | null = null, ts = (clock += 60_000)) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/ingest/v1/${s.sn}/data`,
    headers: { authorization: `Bearer ${s.secret}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ readings: [{ dev: s.devNo, ts, temp, hum }] }),
  });
  expect(res.json()).toMatchObject({ accepted: 1 });
}

/** What the evaluator does once it has judged the window. */
const consume = (s: Site) => t.db.query('DELETE FROM alarm_queue WHERE sensor_id = $1', [s.sensorId]);

const queueRow = (s: Site) =>
  t.db.one<{ version: number; hot_version: number | null }>(`SELECT version::int, hot_version::int FROM alarm_queue WHERE sensor_id = $1`, [s.sensorId]);

describe('hot alarm windows', () => {
  it('marks a window hot from the batch that brings a reading outside the zone, and only then', async () => {
    const s = await withSecret(await site(t.db, t.tenants.a.customerId, { name: 'Hot 1', hum: [30, 70] }));
    await send(s, 5, 50);
    expect(await queueRow(s)).toEqual({ version: 1, hot_version: null });
    await send(s, 9.5, 50);
    expect(await queueRow(s)).toEqual({ version: 2, hot_version: 2 });
    await send(s, 5, 50);
    expect(await queueRow(s)).toEqual({ version: 3, hot_version: 2 });
    // Humidity counts as well; a reading without temperature is judged on what it has.
    const h = await withSecret(await site(t.db, t.tenants.a.customerId, { name: 'Hot 2', hum: [30, 70] }));
    await send(h, null, 80);
    expect(await queueRow(h)).toEqual({ version: 1, hot_version: 1 });
  });

  it('never marks a window hot when the carrier does not watch it: alarm off, no zone', async () => {
    const off = await withSecret(await site(t.db, t.tenants.a.customerId, { name: 'Off', alarmOn: false }));
    const none = await withSecret(await site(t.db, t.tenants.a.customerId, { name: 'No zone', temp: null }));
    await send(off, 30);
    await send(none, 30);
    expect(await queueRow(off)).toMatchObject({ hot_version: null });
    expect(await queueRow(none)).toMatchObject({ hot_version: null });
  });

  it('is taken before older quiet windows, beyond a whole pass of them', async () => {
    await t.db.query('DELETE FROM alarm_queue');
    const calm = await site(t.db, t.tenants.a.customerId, { name: 'Calm' });
    // 250 older windows (more than a pass takes), then the hot one.
    await t.db.query(
      `INSERT INTO alarm_queue (sensor_id, customer_id, min_ts, max_ts, queued_at)
       SELECT -g, $1, now(), now(), now() - interval '1 hour' + g * interval '1 second' FROM generate_series(1, 250) g`,
      [calm.customerId],
    );
    const s = await withSecret(await site(t.db, t.tenants.a.customerId, { name: 'Hot 3' }));
    await send(s, 9.5);
    const next = await nextWindows(t.db, 0);
    expect(next).toHaveLength(200);
    expect(next[0]).toMatchObject({ sensor_id: s.sensorId, hot: true });
    expect(next.slice(1).every((w) => !w.hot && w.sensor_id < 0)).toBe(true);
    await t.db.query('DELETE FROM alarm_queue WHERE sensor_id < 0');
  });

  it('stops being hot once its out-of-range readings are evaluated, though later in-range ones widened it meanwhile', async () => {
    const s = await withSecret(await site(t.db, t.tenants.a.customerId, { name: 'Hot 4' }));
    await send(s, 9.5);
    // Right before the dequeue, a batch of in-range readings widens the window (a new version).
    const widen = async (q: Queryable) => {
      await q.query(`UPDATE alarm_queue SET version = version + 1 WHERE sensor_id = $1`, [s.sensorId]);
    };
    const out = await t.db.tx((q) => evaluateSensor(q, s.sensorId, { beforeDequeue: widen }));
    expect(out).toMatchObject({ dequeued: false, opened: 1 });
    expect(await queueRow(s)).toEqual({ version: 2, hot_version: null });
    // A later out-of-range reading makes it hot again.
    await send(s, 9.7);
    expect(await queueRow(s)).toEqual({ version: 3, hot_version: 3 });
  });

  describe('calm windows are not queued', () => {
    it('skips in-range readings after an in-range latest one, and queues again when it matters', async () => {
      const s = await withSecret(await site(t.db, t.tenants.a.customerId, { name: 'Calm 1', hum: [30, 70] }));
      await send(s, 5, 50);
      await consume(s);
      await send(s, 5.5, 52);
      expect(await queueRow(s)).toBeUndefined();
      // A back-filled reading (before the latest one) is queued.
      await send(s, 5, 50, clock - 30_000);
      expect(await queueRow(s)).toMatchObject({ hot_version: null });
      await consume(s);
      // After an out-of-range reading, the first in-range one is queued (it ends the run).
      await send(s, 9, 50);
      await consume(s);
      await send(s, 5, 50);
      expect(await queueRow(s)).toMatchObject({ hot_version: null });
      await consume(s);
      await send(s, 5, 50);
      expect(await queueRow(s)).toBeUndefined();
      // The latest reading had no humidity though the carrier watches it: not known calm.
      await send(s, 5, null);
      await consume(s);
      await send(s, 5, 50);
      expect(await queueRow(s)).toMatchObject({ hot_version: null });
    });

    it('takes a reading in the margin\'s band as calm only after a clear one, and queues the one after it', async () => {
      // 2–8 °C, margin 0.3: 7.9 is in range but in the band, where a run would go on.
      const s = await withSecret(await site(t.db, t.tenants.a.customerId, { name: 'Calm band' }));
      await send(s, 5);
      await consume(s);
      await send(s, 7.9);
      expect(await queueRow(s)).toBeUndefined();
      await send(s, 5);
      expect(await queueRow(s)).toMatchObject({ hot_version: null });
    });

    it('with a delay, marks hot every window that may open an exception: a reading not clear, or one after it', async () => {
      const s = await withSecret(await site(t.db, t.tenants.a.customerId, { name: 'Delay hot', delayS: 60 }));
      await send(s, 5);
      await consume(s);
      await send(s, 5.5);
      expect(await queueRow(s)).toBeUndefined();
      await send(s, 7.9);
      expect(await queueRow(s)).toMatchObject({ hot_version: 1 });
      await consume(s);
      // A clear reading after a band one may end a run that lasted the delay: it opens then.
      await send(s, 5);
      expect(await queueRow(s)).toMatchObject({ hot_version: 1 });
      await consume(s);
      await send(s, 5);
      expect(await queueRow(s)).toBeUndefined();
      // A field without a value is no run: readings without humidity on a carrier that watches it
      // are queued (not known calm), but not hot.
      const h = await withSecret(await site(t.db, t.tenants.a.customerId, { name: 'Delay no hum', delayS: 60, hum: [30, 70] }));
      await send(h, 5, null);
      await consume(h);
      await send(h, 5.5, null);
      expect(await queueRow(h)).toMatchObject({ hot_version: null });
    });

    it('queues while a data exception of the sensor or of its carrier is ongoing', async () => {
      const s = await withSecret(await site(t.db, t.tenants.a.customerId, { name: 'Calm 2' }));
      await send(s, 5);
      await consume(s);
      const [e] = await t.db.query<{ id: number }>(
        `INSERT INTO exception_record (customer_id, carrier_id, sensor_id, gateway_id, type, category, status, ongoing, start_ts, last_ts, first_value, peak_value, limit_min, limit_max)
         VALUES ($1, $2, $3, $4, 'data', 'temp_high', 0, true, now() - interval '2 hours', now() - interval '2 hours', 9, 9, 2, 8) RETURNING id`,
        [s.customerId, s.carrierId, s.sensorId, s.gatewayId],
      );
      await send(s, 5);
      expect(await queueRow(s)).toBeDefined();
      await consume(s);
      await t.db.query(`UPDATE exception_record SET sensor_id = NULL WHERE id = $1`, [e.id]);
      await send(s, 5);
      expect(await queueRow(s)).toBeDefined();
      await consume(s);
      await t.db.query(`UPDATE exception_record SET ongoing = false, end_ts = now() WHERE id = $1`, [e.id]);
      await send(s, 5);
      expect(await queueRow(s)).toBeUndefined();
    });

    it('queues every window of a carrier judged on an aggregate of its sensors', async () => {
      const s = await withSecret(await site(t.db, t.tenants.a.customerId, { name: 'Calm 3' }));
      await t.db.query(`UPDATE carrier SET sample_mode = 'avg' WHERE id = $1`, [s.carrierId]);
      await send(s, 5);
      await consume(s);
      await send(s, 5);
      expect(await queueRow(s)).toBeDefined();
    });

    it('queues when the zone moved so that the latest reading is now outside it', async () => {
      const s = await withSecret(await site(t.db, t.tenants.a.customerId, { name: 'Calm 4' }));
      await send(s, 7.5);
      await consume(s);
      await t.db.query(`UPDATE carrier SET temp_max = 7 WHERE id = $1`, [s.carrierId]);
      await send(s, 6);
      expect(await queueRow(s)).toBeDefined();
    });
  });
});
