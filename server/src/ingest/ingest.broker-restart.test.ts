import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { setup, type TestCtx } from '../../test/helper.js';
import { enrol, startMosquitto, until, type Enrolled, type Mosquitto } from './test-fixtures.js';
import { startIngest, type RunningIngest } from './index.js';

/*
 * Mosquitto 2 as production runs it (persistence on), restarted gracefully twice while a gateway
 * streams QoS 1 readings: the console's exclusive persistent session keeps its subscription and
 * its queue in the broker, and the console subscribes again on every connect, so every reading is
 * stored once and a reading sent after the stream is stored too.
 */
let t: TestCtx;
let mosq: Mosquitto;
let ingest: RunningIngest;
let gw: Enrolled;

beforeAll(async () => {
  mosq = await startMosquitto({ persistence: true });
  t = await setup({ MQTT_URL: mosq.url });
  gw = await enrol(t.db, t.tenants.a.customerId, 1);
  ingest = await startIngest(t.deps, { mqttPort: 0, mqttPortExplicit: false, clientId: 'cw-restart-test', presence: false, silenceMs: 0 });
}, 180_000);

afterAll(async () => {
  await ingest?.stop();
  await t?.close();
  await mosq?.stop();
});

const stored = async () => (await t.db.one<{ n: number; distinct: number }>(`SELECT count(*)::int AS n, count(DISTINCT ts)::int AS distinct FROM reading WHERE sensor_id = $1`, [gw.sensors[0].id]))!;

describe('an external Mosquitto restarted mid-stream', () => {
  it('loses and duplicates nothing across two restarts, and a later reading is stored', async () => {
    const N = 3000;
    const dev = gw.sensors[0].dev;
    const base = Date.now() - 3 * 86_400_000;
    const client = await mqtt.connectAsync(mosq.url, { clientId: gw.sn, username: gw.sn, password: gw.secret, clean: false, reconnectPeriod: 200, protocolVersion: 4 });
    const restarts: Promise<void>[] = [];
    const inflight = new Set<Promise<unknown>>();
    for (let i = 0; i < N; i++) {
      const p = client.publishAsync(`cc/${gw.sn}/up/data`, JSON.stringify({ readings: [{ dev, ts: base + i * 60_000, temp: 4 + (i % 10) / 10 }] }), { qos: 1 });
      inflight.add(p);
      void p.finally(() => inflight.delete(p));
      if (inflight.size >= 20) await Promise.race(inflight);
      // Two graceful restarts while the stream runs; the stream does not wait for them.
      if (i === 1000 || i === 2000) restarts.push(mosq.restart());
      if (i % 50 === 0) await new Promise((r) => setTimeout(r, 5));
    }
    await Promise.all(restarts);
    await Promise.all(inflight);
    await until(async () => (await stored()).n >= N, `${N} readings`, 60_000);
    expect(await stored()).toEqual({ n: N, distinct: N });

    // The console is still subscribed: a reading sent after the stream arrives.
    await new Promise((r) => setTimeout(r, 1000));
    await client.publishAsync(`cc/${gw.sn}/up/data`, JSON.stringify({ readings: [{ dev, ts: Date.now() - 1000, temp: 5 }] }), { qos: 1 });
    await until(async () => (await stored()).n === N + 1, 'the later reading', 20_000);
    expect(t.deps.health?.fault('broker').starts).toBeGreaterThanOrEqual(2);
    expect(t.deps.health?.fault('broker').active).toBe(false);
    await client.endAsync();
  }, 120_000);
});
