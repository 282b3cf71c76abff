import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { setup, type TestCtx } from '../../../test/helper.js';
import { enrol, startMosquitto, until, type Enrolled, type Mosquitto } from '../../ingest/test-fixtures.js';
import type { DeviceReading } from '../../ingest/protocol.js';
import { call } from '../../modules/shared/records.fixture.js';
import { Forwarder } from './forwarder.js';

/*
 * Forwarding against a real broker (docs/forwarding.md): a private Mosquitto with persistence as
 * the remote, QoS 1. 10,000 readings of a carrier's two sensors reach a subscriber of that
 * broker with none lost and, once the duplicates of at-least-once are dropped, none out of
 * order, across a restart of the broker and a restart of the forwarder (a console's). A remote
 * that connects and never acknowledges is timed out per its setting and tried again, while
 * another server of the same forwarder gets all of its readings.
 */

const TEST_MS = 120_000;
let t: TestCtx;
let mosq: Mosquitto;
let cookie: string;
const quiet = { info: () => undefined, error: () => undefined };

beforeAll(async () => {
  t = await setup();
  mosq = await startMosquitto({ persistence: true });
  cookie = await t.login('alpha');
}, TEST_MS);
afterAll(async () => {
  await mosq?.stop();
  await t?.close();
});

/** A subscriber with a persistent session: the broker keeps its QoS 1 messages across its own restart. */
async function subscriber(topic: string): Promise<{ client: MqttClient; seqs: string[] }> {
  const seqs: string[] = [];
  const client = await mqtt.connectAsync(mosq.url, { clientId: `sub-${topic.replace(/\W/g, '')}`, clean: false, reconnectPeriod: 100, protocolVersion: 4 });
  client.on('message', (_t, payload) => seqs.push(...(JSON.parse(payload.toString()) as { items: { seq: string }[] }).items.map((i) => i.seq)));
  await client.subscribeAsync(topic, { qos: 1 });
  return { client, seqs };
}

/** A forwarding server of customer A on this broker (or `port`) and a setting of the enrolled carrier, forwarding from `since`. */
async function forwardTo(g: Enrolled, name: string, topic: string, since: number, over: Record<string, unknown> = {}) {
  const server = await call(t, cookie, 'POST', '/service/forwardSet/add', { type: 'mqtt', name, host: '127.0.0.1', port: mosq.port, qos: 1, timeoutS: 3, heartbeatS: 10, pubTopic: topic, ...over });
  const carrierId = (await t.db.one<{ carrier_id: number }>('SELECT carrier_id FROM gateway WHERE id = $1', [g.gatewayId]))!.carrier_id;
  const bind = await call(t, cookie, 'POST', '/service/forwardBind/add', { serverId: server.id, carrierId });
  // The setting forwards from the moment it is made; these readings are sampled earlier.
  await t.db.query('UPDATE forward_binding SET cursor_ts = $2 WHERE id = $1', [bind.id, new Date(since)]);
  return server.id as number;
}

/** `n` readings of each sensor, one a second from `from`, submitted through the ingest writer in chunks of `chunk`. */
async function ingest(g: Enrolled, from: number, n: number, chunk: number, between?: (i: number) => Promise<void>) {
  const gw = (await t.ingest.authenticate(g.sn, g.secret))!;
  for (let i = 0; i < n; i += chunk) {
    const readings: DeviceReading[] = [];
    for (let j = i; j < Math.min(n, i + chunk); j++) {
      for (const s of g.sensors) readings.push({ dev: s.dev, ts: from + j * 1000, temp: 4 + (j % 10) / 10, hum: null, volt: 3, rssi: null, lqi: null, gas: null, door: null });
    }
    await t.ingest.writer.submit(gw, readings);
    await between?.(i / chunk);
  }
}

/** The first delivery of each message, in the order received (a repeat after a reconnect is the receiver's to drop). */
const firsts = (seqs: string[]) => [...new Set(seqs)];
const order = (seq: string) => seq.split('-').map(Number) as [number, number];

describe('forwarding to Mosquitto', () => {
  it('10,000 readings at QoS 1: none lost, none out of order, across a restart of the broker and of the forwarder', async () => {
    const g = await enrol(t.db, t.tenants.a.customerId, 2);
    const from = Date.now() - 6 * 3600_000;
    const sub = await subscriber('fw/all');
    const serverId = await forwardTo(g, 'Province', 'fw/all', from - 1);
    let f = new Forwarder(t.db, quiet, { pollMs: 20, batch: 1000 }).start();
    await ingest(g, from, 5000, 250, async (i) => {
      if (i === 6) await mosq.restart();
      if (i === 13) {
        // A console stopping mid-stream and another taking over from the cursors in the database.
        await f.stop();
        f = new Forwarder(t.db, quiet, { pollMs: 20, batch: 1000 }).start();
      }
    });
    await until(async () => new Set(sub.seqs).size >= 10_000, 'every reading at the subscriber', 90_000);
    await f.stop();
    const got = firsts(sub.seqs);
    const expected = Array.from({ length: 5000 }, (_, j) => g.sensors.map((s) => `${from + j * 1000}-${s.id}`).sort((a, b) => order(a)[1] - order(b)[1])).flat();
    expect(got.length).toBe(10_000);
    expect(got).toEqual(expected);
    const state = (await t.db.one<{ forwarded: string; last_forwarded_at: Date | null; last_error: string }>('SELECT forwarded, last_forwarded_at, last_error FROM forward_state WHERE server_id = $1', [serverId]))!;
    expect(Number(state.forwarded)).toBeGreaterThanOrEqual(10_000);
    expect(state.last_forwarded_at).not.toBeNull();
    // Whether the broker's restart shows as an error depends on whether a publish was in flight
    // when it went (an idle client reconnects without one): what must hold is the count and the
    // order above, across it. A failed try's error on the page is the unreachable-remote test's.
    await sub.client.endAsync();
  }, TEST_MS);

  it('a remote that connects and never acknowledges is timed out per its setting and tried again; another server gets all its readings', async () => {
    // A broker in name only: it answers CONNECT with CONNACK and then reads and ignores everything.
    let connects = 0;
    const mute = net.createServer((sock) => {
      sock.on('data', (d) => {
        if (d[0] >> 4 === 1) {
          connects++;
          sock.write(Buffer.from([0x20, 0x02, 0x00, 0x00]));
        }
      });
      sock.on('error', () => undefined);
    });
    await new Promise<void>((r) => mute.listen(0, '127.0.0.1', r));
    const mutePort = (mute.address() as net.AddressInfo).port;
    const stuck = await enrol(t.db, t.tenants.a.customerId, 1);
    const fine = await enrol(t.db, t.tenants.a.customerId, 1);
    const from = Date.now() - 3 * 3600_000;
    const sub = await subscriber('fw/fine');
    const hung = await forwardTo(stuck, 'Mute', 'fw/mute', from - 1, { port: mutePort, timeoutS: 1 });
    await forwardTo(fine, 'Fine', 'fw/fine', from - 1, { host: 'localhost' });
    const f = new Forwarder(t.db, quiet, { pollMs: 20, batch: 500 }).start();
    await Promise.all([ingest(stuck, from, 2000, 200), ingest(fine, from, 2000, 200)]);
    await until(async () => new Set(sub.seqs).size >= 2000, 'the other server\'s readings', 60_000);
    await until(async () => connects >= 3, 'the mute remote tried again', 30_000);
    await f.stop();
    const state = (await t.db.one<{ last_error: string; failures: number; forwarded: string; connected: boolean }>('SELECT last_error, failures, forwarded, connected FROM forward_state WHERE server_id = $1', [hung]))!;
    expect(state.last_error).toBe('acknowledgement: no answer within 1 s');
    expect(state.failures).toBeGreaterThanOrEqual(2);
    expect(Number(state.forwarded)).toBe(0);
    expect(state.connected).toBe(false);
    // Nothing of the mute server's stream moved: every reading is still to be sent.
    expect((await t.db.one<{ n: number }>(`SELECT count(*)::int AS n FROM reading WHERE sensor_id = $1`, [stuck.sensors[0].id]))!.n).toBe(2000);
    const cursor = (await t.db.one<{ ts: Date }>('SELECT cursor_ts AS ts FROM forward_binding WHERE server_id = $1', [hung]))!.ts.getTime();
    expect(cursor).toBe(from - 1);
    expect(firsts(sub.seqs)).toHaveLength(2000);
    await sub.client.endAsync();
    await new Promise((r) => mute.close(r));
  }, TEST_MS);
});
