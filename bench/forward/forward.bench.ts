/**
 * Forwarding throughput (docs/forwarding.md, docs/performance.md "Forwarding"). On a fresh
 * database (a new one on DATABASE_URL's server, else PGlite): BENCH_CARRIERS carriers of 10
 * sensors each, bound to one MQTT forwarding server at QoS 1 on a Mosquitto (a private one on a
 * free port; BENCH_MQTT_PORT=1883 uses the machine's). In the same run:
 *
 * 1. the baseline: BENCH_READINGS readings through the ingest writer, nothing forwarded;
 * 2. the same number again with the forwarder running from a cursor before step 1, so it
 *    forwards a backlog and what arrives meanwhile: ingest's rate beside it, and the rate at
 *    which readings reach a subscriber of the broker (every one counted, once).
 *
 * Last line: `ingest_alone=… ingest_with_forwarder=… forwarded=… (readings/s)`.
 */
import mqtt from 'mqtt';
import { freshDb } from '../../server/test/db.js';
import { loadConfig } from '../../server/src/config.js';
import { Bus } from '../../server/src/platform/events.js';
import { ingestOf } from '../../server/src/ingest/service.js';
import { enrol, startMosquitto, type Enrolled } from '../../server/src/ingest/test-fixtures.js';
import type { DeviceReading } from '../../server/src/ingest/protocol.js';
import { Forwarder } from '../../server/src/jobs/forward/forwarder.js';

const CARRIERS = Number(process.env.BENCH_CARRIERS ?? 10);
const READINGS = Number(process.env.BENCH_READINGS ?? 100_000);
const SENSORS = 10;

const { db, drop } = await freshDb(process.env.DATABASE_URL);
const label = db.kind === 'postgres' ? 'PostgreSQL' : 'PGlite (in memory)';
const own = process.env.BENCH_MQTT_PORT ? null : await startMosquitto();
const port = own?.port ?? Number(process.env.BENCH_MQTT_PORT);
const config = loadConfig({ DEMO: '1', LOG_LEVEL: 'warn', MQTT_URL: '' } as NodeJS.ProcessEnv);
const ingest = ingestOf({ config, db, bus: new Bus() });

const [cust] = await db.query<{ id: number }>(`INSERT INTO customer (name, code) VALUES ('Bench forwarding', 'BFWD') RETURNING id`);
const fleet: Enrolled[] = [];
for (let c = 0; c < CARRIERS; c++) fleet.push(await enrol(db, cust.id, SENSORS));
const [server] = await db.query<{ id: number }>(
  `INSERT INTO forward_server (customer_id, type, name, host, port, qos, timeout_s, heartbeat_s, pub_topic) VALUES ($1, 'mqtt', 'Bench', '127.0.0.1', $2, 1, 10, 30, 'bench/forward') RETURNING id`,
  [cust.id, port],
);
const base = Date.now() - 2 * 86_400_000;
await db.query(
  `INSERT INTO forward_binding (customer_id, server_id, carrier_id, cursor_ts) SELECT $1, $2, g.carrier_id, $3 FROM gateway g WHERE g.customer_id = $1`,
  [cust.id, server.id, new Date(base - 1)],
);

// The remote's reader: every message counted once (a repeat after a reconnect is not a reading more).
// It subscribes at QoS 0: the forwarder's QoS 1 is between it and the broker, which the broker
// acknowledges; the reader only confirms that every reading arrived.
const seen = new Set<string>();
const sub = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { clientId: `bench-fwd-${process.pid}`, clean: true, protocolVersion: 4 });
sub.on('message', (_t, payload) => {
  for (const i of (JSON.parse(payload.toString()) as { items: { seq: string }[] }).items) seen.add(i.seq);
});
await sub.subscribeAsync('bench/forward', { qos: 0 });

/** `n` readings through the writer: each gateway sends 100 timestamps of its 10 sensors per message, all gateways at once. */
let step = 0;
async function ingestReadings(n: number): Promise<number> {
  const gws = await Promise.all(fleet.map((g) => ingest.authenticate(g.sn, g.secret)));
  const perRound = fleet.length * SENSORS * 100;
  const t0 = performance.now();
  for (let done = 0; done < n; done += perRound) {
    await Promise.all(
      fleet.map((g, i) => {
        const readings: DeviceReading[] = [];
        for (let k = 0; k < 100; k++) {
          const ts = base + (step + k) * 1000;
          for (const s of g.sensors) readings.push({ dev: s.dev, ts, temp: 4 + (k % 10) / 10, hum: 50, volt: 3, rssi: null, lqi: null, gas: null, door: null });
        }
        return ingest.writer.submit(gws[i]!, readings);
      }),
    );
    step += 100;
  }
  return n / ((performance.now() - t0) / 1000);
}

// Warm-up (the month's partition, the writer's statements, the JIT), not measured, not forwarded.
const warmBase = base;
await ingestReadings(fleet.length * SENSORS * 100);
await db.query('UPDATE forward_binding SET cursor_ts = $1 WHERE customer_id = $2', [new Date(warmBase + step * 1000 - 1), cust.id]);
console.log(`${label}: ${CARRIERS} carriers × ${SENSORS} sensors, ${READINGS.toLocaleString('en-US')} readings per step, Mosquitto on ${port}, QoS 1`);
const alone = await ingestReadings(READINGS);
console.log(`1. ingest alone: ${Math.round(alone)} readings/s`);

const quiet = { info: () => undefined, error: (o: object, m?: string) => console.error(m, o) };
const forwarder = new Forwarder(db, quiet, { pollMs: 20 }).start();
const t0 = performance.now();
const withForwarder = await ingestReadings(READINGS);
const total = READINGS * 2;
// Once ingest has stopped, the forwarder has the machine to itself for what is left.
const atIngestEnd = { seen: seen.size, at: performance.now() };
while (seen.size < total) {
  if (performance.now() - t0 > 600_000) throw new Error(`only ${seen.size} of ${total} forwarded in 10 minutes`);
  await new Promise((r) => setTimeout(r, 20));
}
const forwarded = total / ((performance.now() - t0) / 1000);
console.log(`2. ingest with the forwarder draining ${READINGS.toLocaleString('en-US')} readings behind it: ${Math.round(withForwarder)} readings/s (${Math.round((withForwarder / alone) * 100)} % of alone)`);
console.log(`   forwarded to Mosquitto and received: ${total.toLocaleString('en-US')} readings in ${((performance.now() - t0) / 1000).toFixed(1)} s = ${Math.round(forwarded)} readings/s (${(forwarded / alone).toFixed(2)} × ingest alone)`);
const drainS = (performance.now() - atIngestEnd.at) / 1000;
const whileIngest = atIngestEnd.seen / ((atIngestEnd.at - t0) / 1000);
const drained = drainS > 0.5 ? (total - atIngestEnd.seen) / drainS : NaN;
console.log(`   of which while ingest ran: ${Math.round(whileIngest)} readings/s; after it stopped (the backlog left, the machine to itself): ${Math.round(drained)} readings/s`);
console.log(`ingest_alone=${Math.round(alone)} ingest_with_forwarder=${Math.round(withForwarder)} forwarded=${Math.round(forwarded)} forwarded_while_ingest=${Math.round(whileIngest)} forwarded_alone=${Math.round(drained)}`);

await forwarder.stop();
await sub.endAsync();
await ingest.writer.drain();
await own?.stop();
await drop();
process.exit(0);
