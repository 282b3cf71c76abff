import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../test/helper.js';
import { enrol, type Enrolled } from './test-fixtures.js';
import type { DeviceReading } from './protocol.js';

/*
 * Ingest never stalls (issue 8): a reading outside the contract's ranges is refused on its own
 * and its message acknowledged; a message the database refuses anyway is found by retrying the
 * batch message by message, so the other gateways' readings commit; a failure of the database
 * itself acknowledges nothing (HTTP 503 with Retry-After; MQTT withholds the PUBACK).
 */

let t: TestCtx;
let a: Enrolled;
let b: Enrolled;
let c: Enrolled;

beforeAll(async () => {
  t = await setup();
  a = await enrol(t.db, t.tenants.a.customerId, 2);
  b = await enrol(t.db, t.tenants.b.customerId, 1);
  c = await enrol(t.db, t.tenants.b.customerId, 1);
}, 180_000);
afterAll(() => t?.close());

const post = (g: Enrolled, body: unknown) =>
  t.app.inject({ method: 'POST', url: `/ingest/v1/${g.sn}/data`, headers: { authorization: `Bearer ${g.secret}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
const stored = (sensorId: number) => t.db.query<{ temp: number | null; volt: number | null }>('SELECT temp, volt FROM reading WHERE sensor_id = $1 ORDER BY ts', [sensorId]);
const rejects = (sn: string) => t.db.query<{ reason: string; detail: string; dev: string | null }>('SELECT reason, detail, dev_no AS dev FROM ingest_reject WHERE gateway_sn = $1 ORDER BY id', [sn]);

describe('readings outside the contract', () => {
  it('are refused one by one with their reason; the good ones in the same message are stored and the message acknowledged', async () => {
    const [s] = a.sensors;
    const now = Date.now() - 60_000;
    const res = await post(a, {
      readings: [
        { dev: s.dev, ts: now, temp: 4.456, volt: 3.3 },
        { dev: s.dev, ts: now + 1, temp: 1e39 },
        { dev: s.dev, ts: now + 2, hum: 100.5 },
        { dev: 'T\u0000BAD', ts: now + 3, temp: 5 },
        { dev: 'X'.repeat(31), ts: now + 4, temp: 5 },
        { dev: s.dev, ts: Date.UTC(1999, 11, 31), temp: 5 },
        { dev: s.dev, ts: now + 5, rssi: -70, lqi: 300 },
        { dev: s.dev, ts: now + 6, temp: -327.67, hum: 0 },
        { dev: s.dev, ts: now + 7, temp: 1e-50 },
        { dev: s.dev, ts: now + 8, temp: 0.004 },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ accepted: 3, duplicates: 0, rejected: 7 });
    // Two decimals for temperature (0.004 °C is a real 0.00); 1e-50 is refused, not filed as 0 °C.
    expect(await stored(s.id)).toEqual([
      { temp: 4.46, volt: 3.3 },
      { temp: -327.67, volt: null },
      { temp: 0, volt: null },
    ]);
    expect((await rejects(a.sn)).map((r) => `${r.reason} ${r.detail}`)).toEqual([
      'out_of_range temp=1e+39',
      'out_of_range hum=100.5',
      'bad_device_number dev="T\\u0000BAD"',
      `bad_device_number dev="${'X'.repeat(31)}"`,
      `bad_time ts=${Date.UTC(1999, 11, 31)}`,
      'out_of_range lqi=300',
      'out_of_range temp=1e-50',
    ]);
  });

  it('a control character in an event or heartbeat is a malformed message, not a failed write', async () => {
    const r = await t.app.inject({
      method: 'POST',
      url: `/ingest/v1/${a.sn}/event`,
      headers: { authorization: `Bearer ${a.secret}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ ts: Date.now(), type: 'power_fail', dev: 'G\u0000' }),
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toMatch(/control characters/);
  });
});

describe('a message the database refuses', () => {
  it('fails only itself: the batch is retried message by message and the other gateways commit', async () => {
    const writer = t.ingest.writer;
    const gws = await Promise.all([a, b, c].map((g) => t.ingest.authenticate(g.sn, g.secret)));
    const ts = Date.now() - 30_000;
    const reading = (dev: string, over: Partial<DeviceReading> = {}): DeviceReading => ({ dev, ts, temp: 5, hum: null, volt: null, rssi: null, lqi: null, gas: null, door: null, ...over });
    const split = writer.stats.splitBatches;
    // The three must share one batch for it to be split: a longer linger for this test, so that
    // three concurrent submits (each after its own directory lookup) cannot be cut apart by timing.
    const w = writer as unknown as { lingerMs: number };
    const linger = w.lingerMs;
    w.lingerMs = 200;
    // Past the protocol's checks on purpose (as a value the database refuses would be): 1e39 does not fit a real column.
    const [good1, guilty, good2] = await Promise.all([
      writer.submit(gws[1]!, [reading(b.sensors[0].dev)]),
      writer.submit(gws[0]!, [reading(a.sensors[1].dev, { temp: 1e39 })]),
      writer.submit(gws[2]!, [reading(c.sensors[0].dev)]),
    ]).finally(() => (w.lingerMs = linger));
    expect(writer.stats.splitBatches).toBe(split + 1);
    expect(good1).toEqual({ accepted: 1, duplicates: 0, rejected: 0 });
    expect(good2).toEqual({ accepted: 1, duplicates: 0, rejected: 0 });
    // Acknowledged and logged, so the sender does not resend it forever.
    expect(guilty).toEqual({ accepted: 0, duplicates: 0, rejected: 1 });
    expect((await stored(b.sensors[0].id)).length).toBe(1);
    expect((await stored(c.sensors[0].id)).length).toBe(1);
    expect(await stored(a.sensors[1].id)).toEqual([]);
    expect((await rejects(a.sn)).at(-1)).toMatchObject({ reason: 'db_refused', dev: a.sensors[1].dev });
  });

  it('a batch the database aborts as a deadlock victim is written again: its readings commit, nothing is refused', async (ctx) => {
    if (t.db.kind !== 'postgres') return ctx.skip(); // one connection on PGlite: nothing to deadlock with
    const writer = t.ingest.writer;
    const gw = (await t.ingest.authenticate(a.sn, a.secret))!;
    const [lo, hi] = [...a.sensors].sort((x, y) => x.id - y.id);
    const retried = writer.stats.retriedBatches;
    const ts = Date.now() - 20_000;
    let written: Promise<unknown> | undefined;
    // Another writer of the sensor rows (as the presence scan was) takes them in the other order:
    // it holds `hi`, the batch takes `lo` and waits for `hi`, then it asks for `lo`. It waits
    // longer before looking for deadlocks, so the database aborts the batch.
    await t.db.tx(async (q) => {
      await q.exec(`SET LOCAL deadlock_timeout = '10s'`);
      await q.query('SELECT 1 FROM sensor WHERE id = $1 FOR UPDATE', [hi.id]);
      written = writer.submit(gw, [lo, hi].map((s) => ({ dev: s.dev, ts, temp: 5, hum: null, volt: null, rssi: null, lqi: null, gas: null, door: null })));
      // Until the batch waits for `hi`: a lock not granted to a session of this test's own database
      // (the suite's other files run beside it on the same server, each in a database of its own;
      // a row lock's wait is on a transaction id, which names no database, hence the session).
      for (let i = 0; i < 500; i++) {
        const [w] = await q.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE NOT l.granted AND a.datname = current_database()`,
        );
        if (w.n) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      await q.query('SELECT 1 FROM sensor WHERE id = $1 FOR UPDATE', [lo.id]);
    });
    expect(await written).toEqual({ accepted: 2, duplicates: 0, rejected: 0 });
    expect(writer.stats.retriedBatches).toBeGreaterThan(retried);
    expect(await t.db.query(`SELECT 1 FROM reading WHERE sensor_id = ANY($1) AND ts = $2`, [[lo.id, hi.id], new Date(ts)])).toHaveLength(2);
  });

  it('a failure of the database itself acknowledges nothing: HTTP answers 503 with Retry-After', async () => {
    const handle = t.ingest.handle.bind(t.ingest);
    t.ingest.handle = async () => {
      throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    };
    try {
      const r = await post(b, { readings: [{ dev: b.sensors[0].dev, ts: Date.now(), temp: 5 }] });
      expect(r.statusCode).toBe(503);
      expect(r.headers['retry-after']).toBe('5');
    } finally {
      t.ingest.handle = handle;
    }
  });
});
