import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../test/helper.js';
import { generateGatewaySecret, hashGatewaySecret } from '../ingest/secret.js';
import { startAlarm, type Alarm } from './index.js';
import { IDLE, rulesFor, segment, type Point } from './segments.js';
import { exceptionsOf, site, type Site } from './testkit.js';

/*
 * Issue 27's check, from outside: readings of 7.9, 8.1, 7.9, 8.1 … four seconds apart for two
 * minutes around an 8 °C limit, sent through HTTP ingest one message each and evaluated live
 * (the writer's calm and hot marks, the quiet fast path and the full evaluation together).
 */

let t: TestCtx;
let alarm: Alarm;
beforeAll(async () => {
  t = await setup();
  alarm = startAlarm({ db: t.db, bus: t.bus, config: t.config }, { pollMs: 60_000 });
}, 180_000);
afterAll(async () => {
  await alarm?.stop();
  await t?.close();
});

type Fridge = Site & { sn: string; secret: string };

async function fridge(name: string, settings: { delayS?: number; tempMargin?: number }): Promise<Fridge> {
  const s = await site(t.db, t.tenants.a.customerId, { name, emails: ['ops@alpha.test', 'qa@alpha.test'], ...settings });
  const secret = generateGatewaySecret();
  const [gw] = await t.db.query<{ sn: string }>(`UPDATE gateway SET secret_hash = $2 WHERE id = $1 RETURNING sn`, [s.gatewayId, hashGatewaySecret(secret)]);
  return { ...s, sn: gw.sn, secret };
}

/**
 * Sends each reading as its own message and lets the alarm evaluate it before the next, as live;
 * `check` runs after each one with the readings sent so far.
 */
async function live(f: Fridge, points: Point[], check?: (sent: Point[]) => Promise<void>) {
  for (const [i, p] of points.entries()) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/ingest/v1/${f.sn}/data`,
      headers: { authorization: `Bearer ${f.secret}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ readings: [{ dev: f.devNo, ts: p.ts, temp: p.v, hum: null }] }),
    });
    expect(res.json()).toMatchObject({ accepted: 1 });
    await alarm.drain();
    await check?.(points.slice(0, i + 1));
  }
}

const notices = (f: Fridge) =>
  t.db.query<{ recipient: string }>(`SELECT n.recipient FROM notice_log n JOIN exception_record e ON e.id = n.exception_id WHERE e.sensor_id = $1`, [f.sensorId]);

/** Two minutes of 7.9, 8.1, 7.9 … four seconds apart, then `calm` readings of 5 °C. */
function flapping(t0: number, calm = 0): Point[] {
  const flap = Array.from({ length: 30 }, (_, i) => ({ ts: t0 + i * 4000, v: i % 2 ? 8.1 : 7.9 }));
  return [...flap, ...Array.from({ length: calm }, (_, i) => ({ ts: t0 + (30 + i) * 4000, v: 5 }))];
}

describe('a value hovering on the limit (issue 27)', () => {
  const t0 = Date.now() - 30 * 60_000;

  it('opens one exception and mails each contact once with the defaults (margin 0.3 °C, no delay), ended when clear', async () => {
    const f = await fridge('Flapping defaults', {});
    await live(f, flapping(t0, 3));
    const ex = await exceptionsOf(t.db, f.sensorId);
    expect(ex).toHaveLength(1);
    // From the first 8.1 to the first clear reading; the 7.9 readings in between are in the band.
    expect(ex[0]).toMatchObject({ category: 'temp_high', start: t0 + 4000, last: t0 + 29 * 4000, end: t0 + 30 * 4000, first: 8.1, ongoing: false });
    expect((await notices(f)).map((n) => n.recipient).sort()).toEqual(['ops@alpha.test', 'qa@alpha.test']);
  });

  it('opens one exception with a delay of 60 s and no margin: the crossings merge within the delay', async () => {
    const f = await fridge('Flapping delay', { delayS: 60, tempMargin: 0 });
    await live(f, flapping(t0));
    const ex = await exceptionsOf(t.db, f.sensorId);
    expect(ex).toHaveLength(1);
    expect(ex[0]).toMatchObject({ start: t0 + 4000, last: t0 + 29 * 4000, ongoing: true });
    expect(await notices(f)).toHaveLength(2);
  });

  it('opens one exception per crossing without margin or delay: why the defaults have a margin', async () => {
    const f = await fridge('Flapping bare', { delayS: 0, tempMargin: 0 });
    await live(f, flapping(t0));
    expect(await exceptionsOf(t.db, f.sensorId)).toHaveLength(15);
    expect(await notices(f)).toHaveLength(30);
  });

  it('opens with the reading that shows the run has lasted the delay, though it is in range', async () => {
    const f = await fridge('Delay band', { delayS: 20 });
    const at = (s: number, v: number) => ({ ts: t0 + s * 1000, v });
    await live(f, [at(0, 5), at(10, 8.2), at(20, 7.9)]);
    expect(await exceptionsOf(t.db, f.sensorId)).toEqual([]);
    // 7.9 is in the band: the run goes on, and at 30 s it has lasted 20 s.
    await live(f, [at(30, 7.9)]);
    expect(await exceptionsOf(t.db, f.sensorId)).toEqual([expect.objectContaining({ start: t0 + 10_000, last: t0 + 30_000, ongoing: true })]);
    // A clear reading then starts its end, confirmed 20 s later.
    await live(f, [at(40, 7), at(50, 7)]);
    expect(await exceptionsOf(t.db, f.sensorId)).toEqual([expect.objectContaining({ ongoing: true, end: null })]);
    await live(f, [at(60, 7)]);
    expect(await exceptionsOf(t.db, f.sensorId)).toEqual([expect.objectContaining({ ongoing: false, end: t0 + 40_000 })]);
  });

  it.each([
    [0, 0.3],
    [20, 0.3],
    [60, 0],
  ])('records live what the whole series gives at once (delay %i s, margin %f)', async (delayS, tempMargin) => {
    let seed = 17 + delayS;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const f = await fridge(`Live ${delayS} ${tempMargin}`, { delayS, tempMargin });
    // A random walk around the upper limit, readings 5 to 15 seconds apart.
    let v = 7;
    let ts = t0;
    const points = Array.from({ length: 60 }, () => {
      v = Math.min(9.5, Math.max(5, v + (rnd() - 0.5) * 0.8));
      ts += 5000 + Math.floor(rnd() * 10) * 1000;
      return { ts, v: Math.round(v * 10) / 10 };
    });
    const [high] = rulesFor({ temp_min: 2, temp_max: 8, hum_min: null, hum_max: null, temp_margin: tempMargin, alarm_delay_s: delayS });
    const want = (sent: Point[]) => segment(high, IDLE, sent).map((r) => ({ start: r.start, last: r.last, end: r.end, peak: Math.fround(r.peak) }));
    expect(want(points).length).toBeGreaterThan(0);
    // After every reading the exceptions are those of the readings so far: an exception opens
    // with the reading that makes it one, never later.
    await live(f, points, async (sent) => {
      const got = (await exceptionsOf(t.db, f.sensorId, 'temp_high')).map((e) => ({ start: e.start, last: e.last, end: e.end, peak: Math.fround(e.peak) }));
      expect(got, `after ${sent.length} readings`).toEqual(want(sent));
    });
  }, 120_000);
});
