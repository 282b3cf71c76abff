/**
 * The ingest guard against the attacks that found it missing (docs/ingest.md "Limits that keep
 * ingest running"), each beside a baseline measured in the same run:
 *
 * 1. Memory before login: BENCH_CONNECTIONS (1,000) connections each announce a CONNECT and
 *    send all of it but the last KB, then stay silent (attack.ts, its own process), against a
 *    fresh console process each time (broker.ts): the broker as it was (1 MB cap, no limit per
 *    address, 10 s to CONNECT) and with the guard's defaults. Its resident set's growth (peak
 *    over idle), when the last connection was closed, and how long a gateway from another
 *    address takes to connect and be acknowledged meanwhile. Twice: 1 MB CONNECTs (the attack),
 *    and 64,000-byte ones that pass the 64 KB cap (what the per-address limit is for).
 * 2. One flooding gateway: BENCH_STEADY_GATEWAYS (20) gateways of 10 sensors publish a message
 *    every 100 ms and time their PUBACKs (p50/p99) for BENCH_FLOOD_S (10) s after a second of
 *    warm-up: alone (the baseline), beside a gateway keeping BENCH_FLOOD_WINDOW (1,000) messages
 *    of BENCH_FLOOD_READINGS (1) readings in flight with no rate limits, and with the default
 *    limits; twice, the second round in the other order. The flooder's acknowledged messages
 *    are checked to be stored.
 *
 *   npm run bench:ingest-guard                        # PGlite in memory
 *   DATABASE_URL=postgres://… npm run bench:ingest-guard
 * BENCH_PHASES=memory or flood runs one phase. Last line: the figures as key=value.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import mqtt from 'mqtt';
import { loadConfig, type IngestLimits } from '../../server/src/config.js';
import { prepareDb } from '../../server/src/platform/db/prepare.js';
import { Bus } from '../../server/src/platform/events.js';
import type { AppDeps } from '../../server/src/deps.js';
import { startIngest } from '../../server/src/ingest/index.js';
import { MAX_PACKET_BYTES } from '../../server/src/ingest/broker.js';
import { enrol, type Enrolled } from '../../server/src/ingest/test-fixtures.js';
import { openBenchDb } from '../ingest/db.js';
import { pct } from '../ingest/alarm-latency.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 1000);
const STEADY = Number(process.env.BENCH_STEADY_GATEWAYS ?? 20);
const FLOOD_S = Number(process.env.BENCH_FLOOD_S ?? 10);
const WINDOW = Number(process.env.BENCH_FLOOD_WINDOW ?? 1000);
const FLOOD_READINGS = Number(process.env.BENCH_FLOOD_READINGS ?? 1);
const PHASES = (process.env.BENCH_PHASES ?? 'memory,flood').split(',');
const WARMUP_MS = 1000;
const here = (f: string) => fileURLToPath(new URL(f, import.meta.url));

/** A child process running a script of this folder, its stdout read line by line. */
function child(script: string, args: string[]) {
  const p: ChildProcess = spawn(process.execPath, ['--import', 'tsx', here(script), ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: p.stdout! })[Symbol.asyncIterator]();
  return {
    async line(): Promise<string> {
      const next = await lines.next();
      if (next.done) throw new Error(`${script} ended early`);
      return next.value;
    },
    send: (s: string) => p.stdin!.write(`${s}\n`),
    exited: new Promise<void>((r) => p.once('exit', () => r())),
  };
}

/** Connects from 127.0.0.2 (another address than the attacker's) and publishes one reading: ms to the PUBACK, or the failure. */
async function gatewayFromElsewhere(port: number, g: { sn: string; secret: string; dev: string }): Promise<string> {
  const t0 = performance.now();
  const c = new mqtt.MqttClient(() => net.connect({ port, host: '127.0.0.1', localAddress: '127.0.0.2' }), {
    clientId: g.sn,
    username: g.sn,
    password: g.secret,
    protocolVersion: 4,
    reconnectPeriod: 0,
    connectTimeout: 20_000,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      c.once('connect', () => resolve());
      c.once('error', reject);
      c.once('close', () => reject(new Error('closed')));
    });
    await c.publishAsync(`cc/${g.sn}/up/data`, JSON.stringify({ readings: [{ dev: g.dev, ts: Date.now(), temp: 4 }] }), { qos: 1 });
    return `${Math.round(performance.now() - t0)} ms`;
  } catch (err) {
    return `failed after ${Math.round(performance.now() - t0)} ms (${(err as Error).message})`;
  } finally {
    c.end(true);
  }
}

async function memoryRun(guard: object, announced: number, sent: number) {
  const broker = child('broker.ts', [JSON.stringify(guard)]);
  const gw = JSON.parse(await broker.line()) as { port: number; sn: string; secret: string; dev: string };
  broker.send('mark');
  await broker.line();
  const attack = child('attack.ts', [String(gw.port), String(CONNECTIONS), String(announced), String(sent), '15000']);
  await attack.line(); // ready: every connection open, its bytes written
  const other = await gatewayFromElsewhere(gw.port, gw);
  const a = JSON.parse(await attack.line()) as { opened: number; closedByBroker: number; lastCloseMs: number };
  broker.send('report');
  const m = JSON.parse(await broker.line()) as { idleMb: number; peakMb: number; endMb: number };
  await Promise.all([broker.exited, attack.exited]);
  return { growthMb: m.peakMb - m.idleMb, ...m, ...a, other };
}

async function memoryPhase() {
  const before = { maxConnectBytes: MAX_PACKET_BYTES, connectingPerAddress: 1e9, connectTimeoutMs: 10_000 };
  const out: Record<string, number> = {};
  for (const [what, announced, sent] of [
    ['1 MB CONNECTs (1,000,000 bytes announced, all but the last KB sent)', 1_000_000, 999_000],
    ['64,000-byte CONNECTs (under the 64 KB cap), 60,000 bytes sent', 64_000, 60_000],
  ] as const) {
    console.log(`\n${CONNECTIONS.toLocaleString('en-US')} connections from 127.0.0.1 with unfinished ${what}:`);
    for (const [label, guard] of [
      ['broker as before (1 MB cap, no per-address limit, 10 s)', before],
      ['with the guard (64 KB cap, 64 per address, 5 s)', {}],
    ] as const) {
      const r = await memoryRun(guard, announced, sent);
      console.log(
        `  ${label.padEnd(56)} RSS ${r.idleMb.toFixed(0)} → peak ${r.peakMb.toFixed(0)} MB (+${r.growthMb.toFixed(0)} MB); ` +
          `${r.closedByBroker}/${r.opened} closed by the broker, the last after ${r.lastCloseMs} ms; a gateway from 127.0.0.2 connected and acked in ${r.other}`,
      );
      out[`${announced === 1_000_000 ? '1mb' : '64k'}_${guard === before ? 'before' : 'guarded'}`] = Math.round(r.growthMb);
    }
  }
  return out;
}

/** Runs a gateways.ts role with a plan file; resolves with its JSON answer once `connected` was seen (`started`) and it ended. */
function gateways(plan: object) {
  const file = join(tmpdir(), `cw-guard-${process.pid}-${randomBytes(3).toString('hex')}.json`);
  writeFileSync(file, JSON.stringify(plan));
  const c = child('gateways.ts', [file]);
  const started = c.line();
  const result = started.then(() => c.line()).finally(() => rmSync(file, { force: true }));
  return { started, result: result.then((l) => JSON.parse(l)) };
}

async function floodPhase() {
  const bench = await openBenchDb();
  const { db } = bench;
  await prepareDb(db);
  const tag = Date.now().toString(36).toUpperCase();
  const [cust] = await db.query<{ id: number }>(`INSERT INTO customer (name, code) VALUES ($1, $2) RETURNING id`, [`Bench flood ${tag}`, `F${tag}`]);
  const flooder = await enrol(db, cust.id, 10);
  const steady: Enrolled[] = [];
  for (let i = 0; i < STEADY; i++) steady.push(await enrol(db, cust.id, 10));
  const config = loadConfig({ DEMO: '1', LOG_LEVEL: process.env.LOG_LEVEL ?? 'error' } as NodeJS.ProcessEnv);
  const off: IngestLimits = { ...config.ingestLimits, messagesPerS: 0, readingsPerS: 0 };
  const l = config.ingestLimits;
  console.log(
    `\nOne flooding gateway (${WINDOW} messages of ${FLOOD_READINGS} reading${FLOOD_READINGS > 1 ? 's' : ''} in flight) beside ${STEADY} gateways of 10 sensors sending a message every 100 ms, ${FLOOD_S} s on ${bench.label}:`,
  );
  const scenarios = [
    { key: 'quiet', label: 'steady gateways alone (baseline)', limits: config.ingestLimits, flood: false },
    { key: 'flood_unlimited', label: 'flood, no rate limits', limits: off, flood: true },
    { key: 'flood_limited', label: `flood, default limits (${l.messagesPerS} msg/s burst ${l.messageBurst}, ${l.readingsPerS} readings/s burst ${l.readingBurst})`, limits: config.ingestLimits, flood: true },
  ];
  let day = 0;
  const run = async (sc: (typeof scenarios)[number]) => {
    // Each run starts from a settled database: the vacuum, analyse and writes a previous flood
    // left behind (the flooder's sensor rows updated 10,000 times a second, the readings) are not
    // this run's cost (without this they doubled the p99 of the run after the flood).
    await db.exec('VACUUM (ANALYZE)').catch(() => undefined);
    await db.exec('CHECKPOINT').catch(() => undefined);
    for (let i = 0; i < 60; i++) {
      const [a] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'`).catch(() => [{ n: 0 }]);
      if (!a.n) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    await new Promise((r) => setTimeout(r, 1000));
    const deps: AppDeps = { config: { ...config, ingestLimits: sc.limits }, db, bus: new Bus() };
    const ingest = await startIngest(deps, { mqttPort: 0, mqttPortExplicit: false, host: '127.0.0.1', presence: false });
    const url = `mqtt://127.0.0.1:${ingest.mqttPort}`;
    const baseTs = Date.now() - (40 - day++) * 86_400_000;
    const floodRun = sc.flood
      ? gateways({ url, role: 'flood', gateways: [{ sn: flooder.sn, secret: flooder.secret, devs: flooder.sensors.map((x) => x.dev) }], durationMs: FLOOD_S * 1000 + WARMUP_MS + 500, window: WINDOW, readings: FLOOD_READINGS, baseTs })
      : null;
    await floodRun?.started;
    const steadyRun = gateways({
      url,
      role: 'steady',
      gateways: steady.map((g) => ({ sn: g.sn, secret: g.secret, devs: g.sensors.map((x) => x.dev) })),
      durationMs: FLOOD_S * 1000 + WARMUP_MS,
      intervalMs: 100,
      warmupMs: WARMUP_MS,
    });
    const s = (await steadyRun.result) as { latencies: number[] };
    const f = floodRun ? ((await floodRun.result) as { sent: number; acked: number }) : null;
    await ingest.stop();
    let note = '';
    if (f) {
      const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM reading WHERE sensor_id = ANY($1) AND ts >= $2 AND ts < $3`, [
        flooder.sensors.map((x) => x.id),
        new Date(baseTs),
        new Date(baseTs + 86_400_000),
      ]);
      if (row.n < f.acked * FLOOD_READINGS) throw new Error(`the flooder had ${f.acked * FLOOD_READINGS} readings acknowledged but ${row.n} stored`);
      const secs = FLOOD_S + WARMUP_MS / 1000 + 0.5;
      note = `; flooder ${Math.round(f.acked / secs)} msg/s acked (${f.acked} of ${f.sent} sent; ${row.n} readings stored ≥ acked), ${deps.ingest!.pacer.throttled.mqtt} held back`;
    }
    return { latencies: s.latencies, note };
  };
  const stat = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(1)} ms, p90 ${pct(xs, 90).toFixed(1)} ms, p99 ${pct(xs, 99).toFixed(1)} ms, max ${Math.max(...xs).toFixed(0)} ms`;
  // Not reported: the first run pays for warming the process, the database's caches and its partitions.
  await run(scenarios[0]);
  // Twice, the second time in the other order, so that neither side always runs after the big flood.
  const all = new Map(scenarios.map((sc) => [sc.key, [] as number[]]));
  for (const [round, order] of [scenarios, [...scenarios].reverse()].entries())
    for (const sc of order) {
      const r = await run(sc);
      all.get(sc.key)!.push(...r.latencies);
      console.log(`  round ${round + 1}, ${sc.label}: steady PUBACK ${stat(r.latencies)}${r.note}`);
    }
  console.log('  both rounds together:');
  const out: Record<string, number> = {};
  for (const sc of scenarios) {
    const xs = all.get(sc.key)!;
    console.log(`    ${sc.label.padEnd(36)} steady PUBACK ${stat(xs)} (${xs.length} messages)`);
    out[`${sc.key}_p50_ms`] = Number(pct(xs, 50).toFixed(1));
    out[`${sc.key}_p99_ms`] = Number(pct(xs, 99).toFixed(1));
  }
  await bench.close();
  return out;
}

async function main() {
  const memory = PHASES.includes('memory') ? await memoryPhase() : {};
  const flood = PHASES.includes('flood') ? await floodPhase() : {};
  console.log(
    '\n' +
      Object.entries({ ...Object.fromEntries(Object.entries(memory).map(([k, v]) => [`rss_growth_mb_${k}`, v])), ...flood })
        .map(([k, v]) => `${k}=${v}`)
        .join(' '),
  );
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
