/** Behaviour every MQTT transport must show; run by the embedded and the external-broker test files. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { setup, type TestCtx } from '../../test/helper.js';
import { enrol, until, type Enrolled } from './test-fixtures.js';
import { startIngest, type RunningIngest, type StartIngestOptions } from './index.js';

export interface SuiteCtx {
  t: TestCtx;
  url: string;
  ingest: RunningIngest;
  gwA: Enrolled;
  gwB: Enrolled;
  /** The gateway's one session (a second client with the same id would take the session over). */
  connect(g: Enrolled, opts?: mqtt.IClientOptions): Promise<MqttClient>;
  /** Starts the transport again (after ingest.stop()), as a restarted console would. */
  restart(): Promise<void>;
}

export interface Transport {
  env(): Promise<Record<string, string>>;
  /** Where gateways connect, given the started ingest. */
  url(ingest: RunningIngest): string;
  options(): StartIngestOptions;
  close?(): Promise<void>;
}

export function mqttSuite(transport: Transport): SuiteCtx {
  const ctx = {} as SuiteCtx;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    ctx.t = await setup(await transport.env());
    ctx.gwA = await enrol(ctx.t.db, ctx.t.tenants.a.customerId, 3);
    ctx.gwB = await enrol(ctx.t.db, ctx.t.tenants.b.customerId, 1);
    ctx.ingest = await startIngest(ctx.t.deps, transport.options());
    ctx.url = transport.url(ctx.ingest);
    const sessions = new Map<string, MqttClient>();
    ctx.connect = async (g, opts = {}) => {
      const open = sessions.get(g.sn);
      if (open && !open.disconnecting && !open.disconnected) return open;
      const c = await mqtt.connectAsync(ctx.url, { clientId: g.sn, username: g.sn, password: g.secret, reconnectPeriod: 100, protocolVersion: 4, ...opts });
      clients.push(c);
      sessions.set(g.sn, c);
      return c;
    };
    ctx.restart = async () => {
      ctx.ingest = await startIngest(ctx.t.deps, { ...transport.options(), mqttPort: ctx.ingest.mqttPort ?? 0, mqttPortExplicit: true });
    };
    // A fresh PGlite database with hashed passwords takes long on a busy two-core machine.
  }, 180_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true)));
    await ctx.ingest?.stop();
    await ctx.t?.close();
    await transport.close?.();
  });

  const rows = (sensorId: number) =>
    ctx.t.db.query<{ t: number; temp: number }>(`SELECT (extract(epoch FROM ts) * 1000)::bigint AS t, temp FROM reading WHERE sensor_id = $1 ORDER BY ts`, [sensorId]);
  const count = async (sensorId: number) => (await rows(sensorId)).length;
  const data = (readings: object[]) => JSON.stringify({ readings });

  it('stores a published reading, once even when published twice, with its alarm hand-over row', async () => {
    const c = await ctx.connect(ctx.gwA);
    const s = ctx.gwA.sensors[0];
    const ts = Date.now() - 30_000;
    const before = { ...ctx.t.ingest.writer.stats };
    await c.publishAsync(`cc/${ctx.gwA.sn}/up/data`, data([{ dev: s.dev, ts, temp: 4.25, hum: 50 }]), { qos: 1 });
    await c.publishAsync(`cc/${ctx.gwA.sn}/up/data`, data([{ dev: s.dev, ts, temp: 4.25, hum: 50 }]), { qos: 1 });
    await until(async () => ctx.t.ingest.writer.stats.duplicates > before.duplicates, 'the duplicate to be counted');
    expect(await rows(s.id)).toEqual([{ t: ts, temp: 4.25 }]);
    expect(ctx.t.ingest.writer.stats.accepted - before.accepted).toBe(1);
    expect(await ctx.t.db.one(`SELECT customer_id FROM alarm_queue WHERE sensor_id = $1`, [s.id])).toEqual({ customer_id: ctx.gwA.customerId });
  });

  it('files back-filled readings in time order', async () => {
    const c = await ctx.connect(ctx.gwA);
    const s = ctx.gwA.sensors[1];
    const now = Date.now();
    await c.publishAsync(`cc/${ctx.gwA.sn}/up/data`, data([{ dev: s.dev, ts: now - 1000, temp: 9 }]), { qos: 1 });
    await c.publishAsync(`cc/${ctx.gwA.sn}/up/data`, data([3, 1, 2].map((d) => ({ dev: s.dev, ts: now - d * 86_400_000, temp: d }))), { qos: 1 });
    await until(async () => (await count(s.id)) === 4, 'the back-fill');
    expect((await rows(s.id)).map((r) => r.temp)).toEqual([3, 2, 1, 9]);
    const last = await ctx.t.db.one(`SELECT last_temp FROM sensor WHERE id = $1`, [s.id]);
    expect(last!.last_temp).toBe(9);
  });

  it('rejects malformed messages with a reason and goes on with the next good one', async () => {
    const c = await ctx.connect(ctx.gwA);
    const s = ctx.gwA.sensors[2];
    const topic = `cc/${ctx.gwA.sn}/up/data`;
    for (const bad of ['{"readings":', data([{ ts: Date.now() }]), '{"readings":[{"dev":"X","ts":1,"temp":NaN}]}', data([{ dev: s.dev, ts: Date.now(), hum: 'high' }])])
      await c.publishAsync(topic, bad, { qos: 1 });
    await c.publishAsync(topic, data([{ dev: s.dev, ts: Date.now(), temp: 3 }]), { qos: 1 });
    await until(async () => (await count(s.id)) === 1, 'the good message');
    const rejects = await ctx.t.db.query<{ detail: string }>(`SELECT detail FROM ingest_reject WHERE gateway_sn = $1 AND reason = 'malformed' ORDER BY id`, [ctx.gwA.sn]);
    // Several consumers share the subscription, so the rejects may be written in any order.
    expect(rejects.map((r) => r.detail).sort()).toEqual(['data: bad JSON', 'data: bad JSON', 'data: readings[0].dev is missing', 'data: readings[0].hum is not a finite number']);
  });

  it('rejects a device of another customer and never stores it', async () => {
    const c = await ctx.connect(ctx.gwA);
    const foreign = ctx.gwB.sensors[0];
    await c.publishAsync(`cc/${ctx.gwA.sn}/up/data`, data([{ dev: foreign.dev, ts: Date.now(), temp: 1 }]), { qos: 1 });
    await until(async () => !!(await ctx.t.db.one(`SELECT 1 FROM ingest_reject WHERE gateway_sn = $1 AND reason = 'foreign_device'`, [ctx.gwA.sn])), 'the reject');
    expect(await count(foreign.id)).toBe(0);
  });

  it('refuses back-filled readings older than the retention window or far ahead one by one, with the reason, and stores the rest', async () => {
    const g = await enrol(ctx.t.db, ctx.t.tenants.a.customerId, 1);
    const c = await ctx.connect(g);
    const [s] = g.sensors;
    const now = Date.now();
    // Under GxP the window is 5 years (1,827 days by default): 2,000 days back is outside, 3 days back inside.
    const sent = [now - 2000 * 86_400_000, now - 3 * 86_400_000, now + 2 * 3_600_000, 1e20, now - 1000];
    await c.publishAsync(`cc/${g.sn}/up/data`, data(sent.map((ts, i) => ({ dev: s.dev, ts, temp: i }))), { qos: 1 });
    await until(async () => (await count(s.id)) === 2, 'the readings inside the window');
    expect(await rows(s.id)).toEqual([
      { t: sent[1], temp: 1 },
      { t: sent[4], temp: 4 },
    ]);
    const rejects = await ctx.t.db.query<{ dev_no: string; reason: string; detail: string }>(`SELECT dev_no, reason, detail FROM ingest_reject WHERE gateway_sn = $1 ORDER BY id`, [g.sn]);
    expect(rejects.map((r) => [r.dev_no, r.reason])).toEqual([
      [s.dev, 'too_old'],
      [s.dev, 'in_future'],
      [s.dev, 'in_future'],
    ]);
    expect(rejects[0].detail).toMatch(new RegExp(`^ts=${sent[0]} \\(${new Date(sent[0]).toISOString()}\\) is before the retention window of 1827 days \\(oldest accepted 20`));
    expect(rejects[1].detail).toMatch(/is more than 10 min ahead of the console's clock \(latest accepted 20/);
    // A clock so wrong that no date holds it is named by its number.
    expect(rejects[2].detail).toMatch(/^ts=100000000000000000000 \(100000000000000000000\) is more than 10 min ahead/);
  });

  it('updates the gateway on a heartbeat', async () => {
    const c = await ctx.connect(ctx.gwB);
    await c.publishAsync(`cc/${ctx.gwB.sn}/up/heartbeat`, JSON.stringify({ ts: Date.now(), power: 'battery', tcp: false, lte: true, wanIp: '198.51.100.4', gps: { lat: 1.5, lng: 2.5 } }), { qos: 1 });
    await until(async () => (await ctx.t.db.one(`SELECT power FROM gateway WHERE id = $1`, [ctx.gwB.gatewayId]))!.power === 'battery', 'the heartbeat');
    expect(await ctx.t.db.one(`SELECT status, lte, wan_ip, lat, lng FROM gateway WHERE id = $1`, [ctx.gwB.gatewayId])).toEqual({ status: 1, lte: true, wan_ip: '198.51.100.4', lat: 1.5, lng: 2.5 });
  });

  it('loses and duplicates nothing when ingest restarts while a gateway keeps publishing', async () => {
    const g = await enrol(ctx.t.db, ctx.t.tenants.a.customerId, 1);
    const c = await ctx.connect(g);
    const dev = g.sensors[0].dev;
    const base = Date.now() - 600_000;
    const n = 200;
    const sends: Promise<unknown>[] = [];
    let restarted: Promise<void> | null = null;
    for (let i = 0; i < n; i++) {
      sends.push(c.publishAsync(`cc/${g.sn}/up/data`, data([{ dev, ts: base + i * 1000, temp: i }]), { qos: 1 }));
      if (i === 70) restarted = ctx.ingest.stop().then(() => ctx.restart());
      await new Promise((r) => setTimeout(r, 2));
    }
    await restarted;
    await Promise.all(sends);
    await until(async () => (await count(g.sensors[0].id)) === n, `all ${n} readings`, 20_000);
    const got = await rows(g.sensors[0].id);
    expect(got.map((r) => r.temp)).toEqual(Array.from({ length: n }, (_, i) => i));
  });
  return ctx;
}
