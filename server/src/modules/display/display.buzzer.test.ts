import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb } from '../../../test/db.js';
import type { Db } from '../../platform/db/client.js';
import { crossTenant } from '../../platform/db/kysely.js';
import { site, type Site } from '../../alarm/testkit.js';
import { tickBuzzers } from './display.buzzer.js';

/** A display sounds its buzzer for its point's unhandled alarms: duration, interval, silenced by handling. */

let db: Db;
let drop: () => Promise<void>;
let s: Site;
let displayId: number;
let exceptionId: number;

beforeAll(async () => {
  ({ db, drop } = await freshDb());
  const [c] = await db.query<{ id: number }>(`INSERT INTO customer (name, code) VALUES ('Echo Clinic', 'ECHO') RETURNING id`);
  s = await site(db, c.id, { name: 'Ward Fridge' });
  [{ id: displayId }] = await db.query<{ id: number }>(
    `INSERT INTO display (customer_id, dev_no, name, gateway_id, carrier_id, alarm_duration_s, alarm_interval_s) VALUES ($1, 'D0000042', 'Ward screen', $2, $3, 60, 300) RETURNING id`,
    [c.id, s.gatewayId, s.carrierId],
  );
}, 120_000);
afterAll(async () => drop?.());

const tick = () => db.tx((q) => tickBuzzers(crossTenant(q, 'test')));
/** Moves the buzzer's last sounding back instead of waiting. */
const ago = (seconds: number) => db.query(`UPDATE display SET buzzer_on_at = now() - make_interval(secs => $2) WHERE id = $1`, [displayId, seconds]);

describe('display buzzer', () => {
  it('stays quiet without an alarm of its point', async () => {
    expect(await tick()).toMatchObject({ on: 0, off: 0 });
    // A connection exception is not the point's climate.
    await db.query(`INSERT INTO exception_record (customer_id, carrier_id, sensor_id, type, category, start_ts) VALUES ($1, $2, $3, 'offline', 'sensor_connect', now())`, [s.customerId, s.carrierId, s.sensorId]);
    expect(await tick()).toMatchObject({ on: 0 });
  });

  it('sounds for the duration, rests until the interval, sounds again, and stops when the alarm is handled', async () => {
    [{ id: exceptionId }] = await db.query<{ id: number }>(
      `INSERT INTO exception_record (customer_id, carrier_id, sensor_id, type, category, start_ts) VALUES ($1, $2, $3, 'data', 'temp_high', now()) RETURNING id`,
      [s.customerId, s.carrierId, s.sensorId],
    );
    const first = await tick();
    expect(first.on).toBe(1);
    expect(first.commands[0]).toMatchObject({ sn: expect.stringMatching(/^A4C1/), payload: { dev: 'D0000042', on: true } });
    const [cmd] = await db.query(`SELECT kind, display_id, order_type, status FROM device_command WHERE id = $1`, [first.commands[0].id]);
    expect(cmd).toMatchObject({ kind: 'output', display_id: displayId, order_type: 'buzzer', status: 'prepare' });
    // Within its duration: nothing new.
    expect(await tick()).toMatchObject({ on: 0, off: 0 });
    await ago(61);
    expect((await tick()).commands.map((c) => c.payload.on)).toEqual([false]);
    // Quiet until the interval has passed since it began.
    await ago(200);
    expect(await tick()).toMatchObject({ on: 0, off: 0 });
    await ago(301);
    expect(await tick()).toMatchObject({ on: 1 });
    // Handling the exception (the acknowledgement) silences it at once.
    await db.query(`UPDATE exception_record SET status = 1 WHERE id = $1`, [exceptionId]);
    expect(await tick()).toMatchObject({ off: 1 });
    await ago(1000);
    expect(await tick()).toMatchObject({ on: 0, off: 0 });
  });

  it('does not sound with its alarm switched off', async () => {
    await db.query(`UPDATE exception_record SET status = 0 WHERE id = $1`, [exceptionId]);
    await db.query(`UPDATE display SET alarm_on = false WHERE id = $1`, [displayId]);
    expect(await tick()).toMatchObject({ on: 0 });
    await db.query(`UPDATE display SET alarm_on = true WHERE id = $1`, [displayId]);
    expect(await tick()).toMatchObject({ on: 1 });
  });
});
