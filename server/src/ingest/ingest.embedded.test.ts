import { describe, expect, it } from 'vitest';
import net from 'node:net';
import mqtt from 'mqtt';
import { mqttSuite } from './mqtt-suite.js';
import { startIngest } from './index.js';
import { enrol } from './test-fixtures.js';

describe('ingest over the embedded broker', () => {
  const ctx = mqttSuite({
    env: async () => ({}),
    url: (ingest) => `mqtt://127.0.0.1:${ingest.mqttPort}`,
    options: () => ({ mqttPort: 0, mqttPortExplicit: false, host: '127.0.0.1', presence: false }),
  });

  it('refuses a wrong secret, an unknown gateway, and a client id that is not the username', async () => {
    const tryConnect = (opts: mqtt.IClientOptions) =>
      mqtt.connectAsync(ctx.url, { reconnectPeriod: 0, ...opts }).then(
        (c) => (c.end(true), 'connected'),
        (err: Error & { code?: number }) => err.code,
      );
    const { sn, secret } = ctx.gwA;
    expect(await tryConnect({ clientId: sn, username: sn, password: 'wrong' })).toBe(4);
    expect(await tryConnect({ clientId: sn, username: sn, password: ctx.gwB.secret })).toBe(4);
    expect(await tryConnect({ clientId: 'AAAAAAAAAAAA', username: 'AAAAAAAAAAAA', password: secret })).toBe(4);
    expect(await tryConnect({ clientId: 'other', username: sn, password: secret })).toBe(5);
    expect(await tryConnect({ clientId: sn, username: sn, password: secret })).toBe('connected');
  });

  it("refuses publishing to another gateway's topic and subscribing to its commands", async () => {
    const g = await enrol(ctx.t.db, ctx.t.tenants.a.customerId, 0);
    const c = await ctx.connect(g, { reconnectPeriod: 0 });
    const granted = await c.subscribeAsync([`cc/${ctx.gwB.sn}/down/#`, `cc/${g.sn}/down/#`, 'cc/+/down/#'], { qos: 1 }).catch((err) => err.packet.granted);
    expect(granted).toEqual([128, 1, 128]);
    const closed = new Promise<void>((r) => c.once('close', () => r()));
    c.publish(`cc/${ctx.gwB.sn}/up/data`, JSON.stringify({ readings: [{ dev: ctx.gwB.sensors[0].dev, ts: Date.now(), temp: 1 }] }), { qos: 1 });
    await closed;
    expect(await ctx.t.db.query(`SELECT 1 FROM reading WHERE sensor_id = $1`, [ctx.gwB.sensors[0].id])).toEqual([]);
  });

  it('delivers console commands to the gateway', async () => {
    const c = await ctx.connect(ctx.gwB);
    await c.subscribeAsync(`cc/${ctx.gwB.sn}/down/#`, { qos: 1 });
    const got = new Promise<[string, string]>((r) => c.once('message', (topic, payload) => r([topic, payload.toString()])));
    expect(await ctx.t.ingest.publishDown(ctx.gwB.sn, 'output', { cmdId: 'c-9', dev: 'R0000001', on: true })).toBe(true);
    expect(await got).toEqual([`cc/${ctx.gwB.sn}/down/output`, JSON.stringify({ cmdId: 'c-9', dev: 'R0000001', on: true })]);
  });

  it('closes a connection announcing a packet over 1 MB before reading it, while a gateway keeps being acknowledged', async () => {
    const c = await ctx.connect(ctx.gwA);
    const sock = net.connect(ctx.ingest.mqttPort!, '127.0.0.1');
    sock.on('error', () => undefined); // the broker resets it: that is the point
    await new Promise<void>((r) => sock.once('connect', () => r()));
    const closed = new Promise<number>((r) => sock.once('close', () => r(Date.now())));
    const start = Date.now();
    // CONNECT with a remaining length of 200 MB (variable-length encoding), then the first bytes of it.
    const len = 200 * 1024 * 1024;
    const varint: number[] = [];
    for (let x = len; ; ) {
      let b = x % 128;
      x = Math.floor(x / 128);
      if (x > 0) b |= 128;
      varint.push(b);
      if (x === 0) break;
    }
    sock.write(Buffer.from([0x10, ...varint]));
    sock.write(Buffer.alloc(64 * 1024, 0x41));
    const ack = await c.publishAsync(`cc/${ctx.gwA.sn}/up/data`, JSON.stringify({ readings: [{ dev: ctx.gwA.sensors[0].dev, ts: Date.now(), temp: 3 }] }), { qos: 1 });
    expect(ack).toBeTruthy();
    expect((await closed) - start).toBeLessThan(2_000);
    await c.endAsync();
  });

  it('fails clearly when an explicit port is taken', async () => {
    await expect(startIngest(ctx.t.deps, { mqttPort: ctx.ingest.mqttPort!, mqttPortExplicit: true, presence: false })).rejects.toThrow(/already in use/);
  });

  it('closes the sessions of a gateway whose secret is reset, and refuses the old secret over MQTT and HTTP at once', async () => {
    const g = await enrol(ctx.t.db, ctx.t.tenants.a.customerId, 1);
    const c = await ctx.connect(g, { reconnectPeriod: 0 });
    const closed = new Promise<number>((r) => c.once('close', () => r(Date.now())));
    const cookie = await ctx.t.login('alpha');
    const asked = Date.now();
    const reset = await ctx.t.app.inject({ method: 'POST', url: `/service/gateway/resetSecret?id=${g.gatewayId}`, headers: { cookie } });
    expect(reset.json().state.code).toBe(200000);
    expect((await closed) - asked).toBeLessThan(5_000);
    const again = await mqtt.connectAsync(ctx.url, { clientId: g.sn, username: g.sn, password: g.secret, reconnectPeriod: 0 }).then(
      (x) => (x.end(true), 'connected'),
      (err: Error & { code?: number }) => err.code,
    );
    expect(again).toBe(4);
    const body = { readings: [{ dev: g.sensors[0].dev, ts: Date.now(), temp: 5 }] };
    const old = await ctx.t.app.inject({ method: 'POST', url: `/ingest/v1/${g.sn}/data`, headers: { authorization: `Bearer ${g.secret}` }, payload: body });
    expect(old.statusCode).toBe(401);
    const fresh = await ctx.t.app.inject({ method: 'POST', url: `/ingest/v1/${g.sn}/data`, headers: { authorization: `Bearer ${reset.json().result.secret}` }, payload: body });
    expect(fresh.statusCode).toBe(200);
  });

  it('closes the session of a stopped gateway and refuses its CONNECT as not authorized (5) until it is enabled again', async () => {
    const g = await enrol(ctx.t.db, ctx.t.tenants.a.customerId, 1);
    const c = await ctx.connect(g, { reconnectPeriod: 0 });
    const closed = new Promise<void>((r) => c.once('close', () => r()));
    const cookie = await ctx.t.login('alpha');
    const status = (stopped: boolean) => ctx.t.app.inject({ method: 'PUT', url: '/service/gateway/status', headers: { cookie }, payload: { ids: [g.gatewayId], stopped } });
    expect((await status(true)).json().result).toEqual({ changed: 1 });
    await closed;
    // Refused before anything is sent: no PUBACK for a message that would not be stored.
    const again = () =>
      mqtt.connectAsync(ctx.url, { clientId: g.sn, username: g.sn, password: g.secret, reconnectPeriod: 0 }).then(
        (x) => x,
        (err: Error & { code?: number }) => err.code,
      );
    expect(await again()).toBe(5);
    expect((await status(false)).json().result).toEqual({ changed: 1 });
    const back = await again();
    if (typeof back !== 'object' || !back) throw new Error(`enabled again, the gateway was refused: ${String(back)}`);
    await back.publishAsync(`cc/${g.sn}/up/data`, JSON.stringify({ readings: [{ dev: g.sensors[0].dev, ts: Date.now(), temp: 5 }] }), { qos: 1 });
    await back.endAsync();
    expect(await ctx.t.db.query('SELECT 1 FROM reading WHERE sensor_id = $1', [g.sensors[0].id])).toHaveLength(1);
  });
});
