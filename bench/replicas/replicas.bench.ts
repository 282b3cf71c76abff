/**
 * The replicas' channel (platform/cluster): how many live readings a second one replica hands
 * to another over PostgreSQL LISTEN/NOTIFY, in commits of BENCH_BATCH readings as the ingest
 * writer emits them, timed from the first emit on replica A to the last event on replica B's
 * bus. Baseline in the same run: the same events through one process's bus alone, serialised
 * once (what the live stream pays anyway). Needs PostgreSQL (DATABASE_URL); PGlite is one process.
 *
 * Env: BENCH_READINGS (200000), BENCH_BATCH (2000). Last line:
 * `bus_readings_per_s=… local_readings_per_s=… ratio=… notify_payloads=…`.
 */
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { Bus, type LiveReading } from '../../server/src/platform/events.js';
import { Cluster } from '../../server/src/platform/cluster/cluster.js';
import { encode } from '../../server/src/platform/cluster/wire.js';

const N = Number(process.env.BENCH_READINGS ?? 200_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 2_000);
const base = process.env.DATABASE_URL;
if (!base) {
  console.error('bench:replicas needs DATABASE_URL (PostgreSQL): PGlite is one process, there is nothing to hand over.');
  process.exit(1);
}

const quiet = { info() {}, warn() {}, error() {} };
const reading = (i: number): LiveReading => ({ customerId: 1 + (i % 7), sensorId: 1000 + (i % 5000), devNo: `T${1_000_000 + (i % 5000)}`, carrierId: 100 + (i % 900), ts: 1_795_000_000_000 + i * 1000, temp: 4 + (i % 300) / 100, hum: 50 + (i % 20) });
const tick = () => new Promise((r) => setImmediate(r));

async function main() {
  const name = `cw_bench_bus_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(base!);
  url.pathname = `/${name}`;
  const events = Array.from({ length: N }, (_, i) => reading(i));
  try {
    // Baseline: one process, the live stream's one JSON.stringify per event.
    const local = new Bus();
    let got = 0;
    local.on('reading', (r) => void (JSON.stringify(r), got++));
    let t = performance.now();
    for (let i = 0; i < N; i += BATCH) {
      for (const e of events.slice(i, i + BATCH)) local.emit('reading', e);
      await tick();
    }
    const localMs = performance.now() - t;
    if (got !== N) throw new Error(`local bus delivered ${got} of ${N}`);

    const busA = new Bus();
    const busB = new Bus();
    const a = new Cluster({ databaseUrl: url.toString(), replicaId: 'bench-a', bus: busA, log: quiet, peerPollMs: 100 });
    const b = new Cluster({ databaseUrl: url.toString(), replicaId: 'bench-b', bus: busB, log: quiet, peerPollMs: 100 });
    await a.start();
    await b.start();
    await a.join({ exclusive: false, reason: 'shared subscription' });
    await b.join({ exclusive: false, reason: 'shared subscription' });
    while (a.peers < 1) await new Promise((r) => setTimeout(r, 20));
    let remote = 0;
    const done = new Promise<void>((resolve) => busB.on('reading', () => void (++remote === N && resolve())));
    t = performance.now();
    for (let i = 0; i < N; i += BATCH) {
      for (const e of events.slice(i, i + BATCH)) busA.emit('reading', e);
      await tick();
    }
    await done;
    const busMs = performance.now() - t;
    await a.stop();
    await b.stop();

    const payloads = encode('bench-a', events.slice(0, BATCH).map((e) => ['reading', e] as const)).length * Math.ceil(N / BATCH);
    const busRps = Math.round(N / (busMs / 1000));
    const localRps = Math.round(N / (localMs / 1000));
    console.log(`one process: ${N} readings in ${localMs.toFixed(0)} ms = ${localRps} readings/s`);
    console.log(`replica A → PostgreSQL NOTIFY → replica B: ${N} readings in ${busMs.toFixed(0)} ms = ${busRps} readings/s (${payloads} payloads of ≤ 7,900 bytes, ${BATCH} readings per commit)`);
    console.log(`bus_readings_per_s=${busRps} local_readings_per_s=${localRps} ratio=${(busRps / localRps).toFixed(3)} notify_payloads=${payloads}`);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
