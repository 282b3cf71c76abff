import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../test/helper.js';
import { enrol, until, type Enrolled } from '../ingest/test-fixtures.js';
import type { DeviceReading } from '../ingest/protocol.js';
import { startAlarm, type Alarm } from './index.js';
import { exceptionsOf } from './testkit.js';

/*
 * A gateway back from an outage sends its buffer a minute at a time (migration 0062, quiet.ts
 * READY). Its excursions must be told as already over, not as live alarms: the evaluator holds a
 * back-filled window until calm readings follow it or nothing more came for the hold. Live
 * readings, and a gateway whose clock is behind but that reports at the clock's pace, are judged
 * at once.
 */

const HOLD_S = 5;
const MIN = 60_000;
let t: TestCtx;
let alarm: Alarm;

beforeAll(async () => {
  t = await setup({ ALARM_BACKFILL_HOLD_S: String(HOLD_S) });
  alarm = startAlarm({ db: t.db, bus: t.bus, config: t.config }, { pollMs: 200 });
}, 180_000);
afterAll(async () => {
  await alarm?.stop();
  await t?.close();
});

/** A gateway with one sensor on a 2–8 °C carrier with one e-mail contact. */
async function fridge(): Promise<Enrolled> {
  const g = await enrol(t.db, t.tenants.a.customerId, 1);
  const { carrier_id } = (await t.db.one<{ carrier_id: number }>('SELECT carrier_id FROM gateway WHERE id = $1', [g.gatewayId]))!;
  await t.db.query('UPDATE carrier SET temp_min = 2, temp_max = 8, alarm_on = true WHERE id = $1', [carrier_id]);
  const k = await t.db.one<{ id: number }>(`INSERT INTO contact (customer_id, name, email) VALUES ($1, $2, 'duty@alpha.test') RETURNING id`, [g.customerId, `Duty ${g.sn}`]);
  await t.db.query('INSERT INTO carrier_contact (carrier_id, contact_id, customer_id) VALUES ($1, $2, $3)', [carrier_id, k!.id, g.customerId]);
  return g;
}

const reading = (g: Enrolled, ts: number, temp: number): DeviceReading => ({ dev: g.sensors[0].dev, ts, temp, hum: null, volt: null, rssi: null, lqi: null, gas: null, door: null });

/** Submits readings through the ingest writer, as a gateway's message would be. */
async function send(g: Enrolled, readings: DeviceReading[]) {
  const gw = (await t.ingest.authenticate(g.sn, g.secret))!;
  await t.ingest.writer.submit(gw, readings);
}

const queued = (g: Enrolled) => t.db.query<{ backfill: boolean }>('SELECT backfill FROM alarm_queue WHERE sensor_id = $1', [g.sensors[0].id]);
const subjects = async (g: Enrolled) =>
  (await t.db.query<{ subject: string }>('SELECT n.subject FROM notice_log n JOIN exception_record e ON e.id = n.exception_id WHERE e.sensor_id = $1', [g.sensors[0].id])).map((n) => n.subject);

describe('back-filled readings', () => {
  it("holds a gateway's buffer until its excursion is followed by calm readings, then tells it as already over", async () => {
    const g = await fridge();
    const from = Date.now() - 60 * MIN;
    // An hour's buffer, one message a minute: clear, ten minutes at 9.5 °C, clear again.
    const temps = [...Array(10).fill(5), ...Array(10).fill(9.5), ...Array(10).fill(5)];
    for (let i = 0; i < 15; i++) await send(g, [reading(g, from + i * MIN, temps[i])]);
    await alarm.drain();
    // Half-way through the excursion, as far as the console knows it is still going on: not judged yet.
    expect(await exceptionsOf(t.db, g.sensors[0].id)).toEqual([]);
    expect(await queued(g)).toEqual([{ backfill: true }]);
    // The first clear reading widens the window (it follows an out one) and keeps it held ...
    await send(g, [reading(g, from + 15 * MIN, 9.5)]);
    for (let i = 16; i <= 20; i++) await send(g, [reading(g, from + i * MIN, temps[i])]);
    await alarm.drain();
    expect(await exceptionsOf(t.db, g.sensors[0].id)).toEqual([]);
    // ... the calm one after it releases it, long before the hold: one exception, already ended.
    await send(g, [reading(g, from + 21 * MIN, temps[21])]);
    await alarm.drain();
    expect(await exceptionsOf(t.db, g.sensors[0].id)).toEqual([
      expect.objectContaining({ category: 'temp_high', ongoing: false, start: from + 10 * MIN, end: from + 20 * MIN, peak: 9.5 }),
    ]);
    expect(await subjects(g)).toEqual([expect.stringContaining('已结束')]);
    for (let i = 22; i < temps.length; i++) await send(g, [reading(g, from + i * MIN, temps[i])]);
    await alarm.drain();
    expect(await subjects(g)).toHaveLength(1);
  }, 60_000);

  it('judges a buffer that ends out of the zone once nothing more came for the hold: still going on, a live alarm', async () => {
    const g = await fridge();
    const from = Date.now() - 30 * MIN;
    for (let i = 0; i < 5; i++) await send(g, [reading(g, from + i * MIN, 9.5)]);
    await alarm.drain();
    expect(await exceptionsOf(t.db, g.sensors[0].id)).toEqual([]);
    await until(async () => (await exceptionsOf(t.db, g.sensors[0].id)).length > 0, 'the held window judged', 30_000);
    expect(await exceptionsOf(t.db, g.sensors[0].id)).toEqual([expect.objectContaining({ ongoing: true, start: from, peak: 9.5 })]);
    await alarm.drain();
    expect(await subjects(g)).toEqual([expect.not.stringContaining('已结束')]);
  }, 60_000);

  it('judges live readings at once, hold or not', async () => {
    const g = await fridge();
    await send(g, [reading(g, Date.now() - 1000, 9.6)]);
    expect(await queued(g)).toEqual([{ backfill: false }]);
    await alarm.drain();
    expect(await exceptionsOf(t.db, g.sensors[0].id)).toEqual([expect.objectContaining({ category: 'temp_high', ongoing: true })]);
    expect(await subjects(g)).toEqual([expect.not.stringContaining('已结束')]);
  });

  it('does not hold a gateway whose clock is behind once its readings come at the clock’s pace', async () => {
    const g = await fridge();
    const behind = Date.now() - 5 * MIN;
    await send(g, [reading(g, behind, 9.6)]);
    // Its first window looks like a buffer (behind the clock) ...
    expect(await queued(g)).toEqual([{ backfill: true }]);
    await new Promise((r) => setTimeout(r, 1100));
    // ... its next reading advances the data less than the wall clock did: not a buffer.
    await send(g, [reading(g, behind + 500, 9.7)]);
    expect(await queued(g)).toEqual([{ backfill: false }]);
    await alarm.drain();
    expect(await exceptionsOf(t.db, g.sensors[0].id)).toEqual([expect.objectContaining({ ongoing: true, peak: 9.7 })]);
    expect(await subjects(g)).toEqual([expect.not.stringContaining('已结束')]);
  });

  it('holds no window more than ten minutes after it was queued, however long its buffer keeps coming', async () => {
    const g = await fridge();
    const from = Date.now() - 60 * MIN;
    await send(g, [reading(g, from, 9.5)]);
    await send(g, [reading(g, from + MIN, 9.5)]);
    await alarm.drain();
    expect(await exceptionsOf(t.db, g.sensors[0].id)).toEqual([]);
    await t.db.query(`UPDATE alarm_queue SET queued_at = now() - interval '10 minutes 1 second' WHERE sensor_id = $1`, [g.sensors[0].id]);
    await alarm.drain();
    expect(await exceptionsOf(t.db, g.sensors[0].id)).toEqual([expect.objectContaining({ ongoing: true, start: from })]);
  });
});
