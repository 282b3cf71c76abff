import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import mqtt, { type MqttClient } from 'mqtt';
import { setup, type TestCtx } from '../../test/helper.js';
import { createCustomerWithAdmin } from '../platform/seed/root.js';
import { enrol, until, type Enrolled } from './test-fixtures.js';
import { startIngest, type RunningIngest } from './index.js';
import { addressKey } from './connect-gate.js';

/*
 * The limits found missing by an attack on the ingest path: a CONNECT is small and quick or the
 * connection is closed, one address cannot hold many connections before login, a gateway over
 * its rate is slowed (MQTT: the PUBACK waits; HTTP: 429) and never loses what was acknowledged,
 * an HTTP call carries a bounded number of readings, a reading with no value is refused, and a
 * cancelled customer's gateway is refused at CONNECT and over HTTP, at once for a connected one.
 */

let t: TestCtx;
let ingest: RunningIngest;
let port: number;
const clients: MqttClient[] = [];

beforeAll(async () => {
  t = await setup({
    // Long enough that a connection closed in these tests was closed for its size, not its time.
    MQTT_CONNECT_TIMEOUT_S: '30',
    MQTT_CONNECTING_PER_ADDRESS: '3',
    INGEST_GATEWAY_MESSAGES_PER_S: '20',
    INGEST_GATEWAY_MESSAGE_BURST: '5',
    INGEST_GATEWAY_READINGS_PER_S: '100',
    INGEST_GATEWAY_READING_BURST: '200',
    INGEST_HTTP_MAX_READINGS: '50',
  });
  ingest = await startIngest(t.deps, { mqttPort: 0, mqttPortExplicit: false, host: '127.0.0.1', presence: false });
  port = ingest.mqttPort!;
}, 180_000);
afterAll(async () => {
  await Promise.all(clients.map((c) => c.endAsync(true)));
  await ingest?.stop();
  await t?.close();
});

const connect = async (g: Enrolled, opts: mqtt.IClientOptions = {}) => {
  const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { clientId: g.sn, username: g.sn, password: g.secret, protocolVersion: 4, reconnectPeriod: 0, ...opts });
  clients.push(c);
  return c;
};
/** The CONNACK's return code, or 'connected'. */
const tryConnect = (g: Enrolled) =>
  mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { clientId: g.sn, username: g.sn, password: g.secret, protocolVersion: 4, reconnectPeriod: 0 }).then(
    (c) => (c.end(true), 'connected'),
    (err: Error & { code?: number }) => err.code,
  );
const data = (g: Enrolled, ts: number, n = 1) => JSON.stringify({ readings: Array.from({ length: n }, (_, i) => ({ dev: g.sensors[0].dev, ts: ts + i, temp: 4 })) });
const stored = async (g: Enrolled) => (await t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM reading WHERE sensor_id = $1', [g.sensors[0].id]))!.n;
const post = (g: Enrolled, kind: string, body: unknown) =>
  t.app.inject({ method: 'POST', url: `/ingest/v1/${g.sn}/${kind}`, headers: { authorization: `Bearer ${g.secret}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
const rejects = (g: Enrolled) => t.db.query<{ reason: string; detail: string }>('SELECT reason, detail FROM ingest_reject WHERE gateway_sn = $1 ORDER BY id', [g.sn]);

/** A connection that announces a CONNECT of `announced` bytes and sends `sent` of them. */
async function halfConnect(announced: number, sent: number, to = port) {
  const socket = net.connect(to, '127.0.0.1');
  socket.on('error', () => undefined); // the broker resets it: that is the point
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  await new Promise<void>((r) => socket.once('connect', () => r()));
  const length: number[] = [];
  for (let x = announced; ; ) {
    length.push((x % 128) | (x >= 128 ? 128 : 0));
    x = Math.floor(x / 128);
    if (!x) break;
  }
  socket.write(Buffer.concat([Buffer.from([0x10, ...length]), Buffer.alloc(sent, 0x41)]));
  return { socket, closed };
}

describe('before login', () => {
  it('closes a connection whose CONNECT announces more than 64 KB, before reading it', async () => {
    const before = t.ingest.refusedConnections.too_large;
    // 512 KB: under the 1 MB any packet may have, far over what a CONNECT needs.
    const { closed } = await halfConnect(512 * 1024, 1024);
    await closed;
    expect(t.ingest.refusedConnections.too_large).toBe(before + 1);
  });

  it('reads at most the limit of connections of one address at once; the others wait, and another address is not held up', async () => {
    const g = await enrol(t.db, t.tenants.a.customerId, 1);
    const other = await enrol(t.db, t.tenants.a.customerId, 1);
    const stalled = await Promise.all([1, 2, 3].map(() => halfConnect(200, 20)));
    let waiting: MqttClient | undefined;
    const queued = connect(g).then((c) => (waiting = c));
    // 127.0.0.2 is another address of this machine: its gateway gets in while 127.0.0.1 is full.
    const from2 = await new Promise<MqttClient>((resolve, reject) => {
      const c = new mqtt.MqttClient(() => net.connect({ port, host: '127.0.0.1', localAddress: '127.0.0.2' }), {
        clientId: other.sn,
        username: other.sn,
        password: other.secret,
        protocolVersion: 4,
        reconnectPeriod: 0,
      });
      clients.push(c);
      c.once('connect', () => resolve(c));
      c.once('error', reject);
    });
    await from2.publishAsync(`cc/${other.sn}/up/data`, data(other, Date.now() - 5000), { qos: 1 });
    // Nothing has freed a slot of 127.0.0.1 (the stalled ones have 30 s), so its gateway still waits.
    expect(waiting).toBeUndefined();
    for (const s of stalled) s.socket.destroy();
    await queued;
    await waiting!.publishAsync(`cc/${g.sn}/up/data`, data(g, Date.now() - 5000), { qos: 1 });
    expect(await stored(g)).toBe(1);
  });

  it('closes a connection that has not finished CONNECT within the connect timeout', async () => {
    const short = await startIngest(t.deps, { mqttPort: 0, mqttPortExplicit: false, host: '127.0.0.1', presence: false, guard: { connectTimeoutMs: 300 } });
    try {
      const before = t.ingest.refusedConnections.timeout;
      const { closed } = await halfConnect(200, 20, short.mqttPort);
      await closed;
      expect(t.ingest.refusedConnections.timeout).toBe(before + 1);
    } finally {
      await short.stop();
    }
  });

  it('counts an IPv6 sender by its /64 and a mapped IPv4 sender by its address', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee'));
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'));
    expect(addressKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('192.0.2.7')).toBe('192.0.2.7');
  });
});

describe('a gateway over its rate', () => {
  it('MQTT: its PUBACKs wait, everything it sent is stored, and another gateway is acknowledged meanwhile', async () => {
    const g = await enrol(t.db, t.tenants.a.customerId, 1);
    const h = await enrol(t.db, t.tenants.a.customerId, 1);
    const [cg, ch] = [await connect(g), await connect(h)];
    const before = t.ingest.pacer.throttled.mqtt;
    const acked: string[] = [];
    const ts = Date.now() - 60_000;
    // 15 messages against a burst of 5 at 20/s: ten of them wait for their turn.
    const sends = Array.from({ length: 15 }, (_, i) => cg.publishAsync(`cc/${g.sn}/up/data`, data(g, ts + i), { qos: 1 }).then(() => acked.push(`g${i}`)));
    await until(async () => t.ingest.pacer.throttled.mqtt > before, 'the gateway to be held back');
    await ch.publishAsync(`cc/${h.sn}/up/data`, data(h, ts), { qos: 1 });
    acked.push('h');
    await Promise.all(sends);
    expect(acked.indexOf('h')).toBeLessThan(acked.indexOf('g14'));
    expect(t.ingest.pacer.throttled.mqtt - before).toBeGreaterThanOrEqual(9);
    expect(await stored(g)).toBe(15);
  });

  it('MQTT: a message of more readings than the burst is stored, and the next one waits until they are paid for', async () => {
    const g = await enrol(t.db, t.tenants.a.customerId, 1);
    const c = await connect(g);
    const ts = Date.now() - 120_000;
    const before = t.ingest.pacer.throttled.mqtt;
    await c.publishAsync(`cc/${g.sn}/up/data`, data(g, ts, 300), { qos: 1 });
    expect(t.ingest.pacer.throttled.mqtt).toBe(before);
    await c.publishAsync(`cc/${g.sn}/up/data`, data(g, ts + 1000), { qos: 1 });
    expect(t.ingest.pacer.throttled.mqtt).toBe(before + 1);
    expect(await stored(g)).toBe(301);
  });

  it('HTTP: answers 429 with Retry-After and stores nothing of what it refused; another gateway is answered', async () => {
    const g = await enrol(t.db, t.tenants.a.customerId, 1);
    const h = await enrol(t.db, t.tenants.a.customerId, 1);
    const ts = Date.now() - 60_000;
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => post(g, 'data', { readings: [{ dev: g.sensors[0].dev, ts: ts + i, temp: 4 }] })));
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(answers.filter((r) => r.statusCode === 200).length + refused.length).toBe(12);
    expect(await stored(g)).toBe(12 - refused.length);
    expect((await post(h, 'data', { readings: [{ dev: h.sensors[0].dev, ts, temp: 4 }] })).statusCode).toBe(200);
    const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(Number(/coldwatch_ingest_throttled_total\{transport="http"\} (\d+)/.exec(metrics)?.[1])).toBeGreaterThanOrEqual(refused.length);
    expect(metrics).toMatch(/^coldwatch_ingest_throttled_gateways \d+$/m);
    expect(metrics).toMatch(/^coldwatch_mqtt_connections_refused_total\{reason="too_large"\} \d+$/m);
  });
});

describe('what one HTTP call may carry', () => {
  it('more readings than the cap: 413 with the cap named, nothing stored, the reject logged', async () => {
    const g = await enrol(t.db, t.tenants.b.customerId, 1);
    const ts = Date.now() - 60_000;
    const many = (n: number) => ({ readings: Array.from({ length: n }, (_, i) => ({ dev: g.sensors[0].dev, ts: ts + i, temp: 4 })) });
    const r = await post(g, 'data', many(51));
    expect(r.statusCode).toBe(413);
    expect(r.json().error).toMatch(/51.*at most 50/);
    expect(await stored(g)).toBe(0);
    expect((await rejects(g)).map((x) => x.reason)).toEqual(['too_many_readings']);
    expect((await post(g, 'data', many(50))).json()).toEqual({ accepted: 50, duplicates: 0, rejected: 0 });
  });

  it('a reading with no value is refused on its own as empty_reading', async () => {
    const g = await enrol(t.db, t.tenants.b.customerId, 1);
    const ts = Date.now() - 60_000;
    const dev = g.sensors[0].dev;
    const r = await post(g, 'data', { readings: [{ dev, ts }, { dev, ts: ts + 1, volt: 3.1 }, { dev, ts: ts + 2, temp: null, hum: null }] });
    expect(r.json()).toEqual({ accepted: 1, duplicates: 0, rejected: 2 });
    expect(await rejects(g)).toEqual([
      { reason: 'empty_reading', detail: `ts=${ts}` },
      { reason: 'empty_reading', detail: `ts=${ts + 2}` },
    ]);
  });
});

describe('a cancelled customer', () => {
  it('has its connected gateways closed, refused at CONNECT (5) and over HTTP (403), until it is activated', async () => {
    const c = await createCustomerWithAdmin(t.db, { name: 'Gamma Care', code: 'GAMMA', account: 'gamma', password: 'secret123' });
    const g = await enrol(t.db, c.customerId, 1);
    const session = await connect(g);
    const closed = new Promise<void>((r) => session.once('close', () => r()));
    const root = await t.login('admin');
    const cancel = await t.app.inject({ method: 'PUT', url: `/service/customer/cancel?ids=${c.customerId}`, headers: { cookie: root } });
    expect(cancel.json().result).toEqual({ cancelled: 1 });
    await closed;
    const refusedBefore = t.ingest.refusedConnections.not_authorized;
    expect(await tryConnect(g)).toBe(5);
    expect(t.ingest.refusedConnections.not_authorized).toBe(refusedBefore + 1);
    const sent = await post(g, 'data', { readings: [{ dev: g.sensors[0].dev, ts: Date.now(), temp: 5 }] });
    expect(sent.statusCode).toBe(403);
    expect(sent.json()).toMatchObject({ error: 'cancelled_customer', accepted: 0 });
    const commands = await t.app.inject({ method: 'GET', url: `/ingest/v1/${g.sn}/commands`, headers: { authorization: `Bearer ${g.secret}` } });
    expect(commands.statusCode).toBe(403);
    expect(await stored(g)).toBe(0);

    const activate = await t.app.inject({ method: 'PUT', url: `/service/customer/activate?ids=${c.customerId}`, headers: { cookie: root } });
    expect(activate.json().result).toEqual({ activated: 1 });
    const back = await connect(g);
    await back.publishAsync(`cc/${g.sn}/up/data`, data(g, Date.now() - 1000), { qos: 1 });
    expect(await stored(g)).toBe(1);
  });
});
