/**
 * Ingest throughput: K readings published over MQTT QoS 1 by G concurrent gateways (one
 * message = one reading per sensor of the gateway; the gateways run in a child process,
 * gateways.ts, as they are other machines), from the first publish to the last commit,
 * through the embedded broker (and, with MQTT_URL, an external broker); then a raw
 * COPY of K rows into the same table of the same database as the baseline. The full path
 * runs: every sensor sits on a carrier with a 2–8 °C zone and an alarm contact, the alarm
 * evaluator and notifier run against a real SMTP server, and every live event is serialised
 * as the live stream does. Then the alarm latency while BENCH_RATE readings/s flow
 * (alarm-latency.ts).
 *
 *   npm run bench:ingest                          # PGlite in memory
 *   DATABASE_URL=postgres://… npm run bench:ingest
 * Env: BENCH_READINGS (200000), BENCH_GATEWAYS (8), BENCH_SENSORS per gateway (50),
 *      BENCH_INFLIGHT messages per gateway (32), MQTT_URL,
 *      BENCH_RATE readings/s of the latency phase (10000), BENCH_LATENCY_S its length (10),
 *      BENCH_AGED_GB: first grow the reading table past this many GB (aged.ts), to see what grows with it,
 *      BENCH_PROFILE a file for a CPU profile of the flood.
 */
import mqtt from 'mqtt';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../server/src/config.js';
import { prepareDb } from '../../server/src/platform/db/prepare.js';
import { Bus } from '../../server/src/platform/events.js';
import type { AppDeps } from '../../server/src/deps.js';
import type { Db } from '../../server/src/platform/db/client.js';
import { generateGatewaySecret, hashGatewaySecret, startIngest } from '../../server/src/ingest/index.js';
import { postgresCpu } from '../cpu.js';
import { openBenchDb } from './db.js';
import { copyBinary } from '../../server/src/platform/db/copy.js';
import { READING_COLUMNS, READING_TYPES } from '../../server/src/ingest/statements.js';
import { startAlarm } from '../../server/src/alarm/index.js';
import { measureAlarmLatency, pct } from './alarm-latency.js';
import { startSmtp } from '../../e2e/support/smtp.js';
import { fakeProvider } from '../../server/src/alarm/channels/fakes.js';
import { ageReadings, readingGb } from './aged.js';
import { rmSync, writeFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Session } from 'node:inspector/promises';

const K = Number(process.env.BENCH_READINGS ?? 200_000);
const G = Number(process.env.BENCH_GATEWAYS ?? 8);
const S = Number(process.env.BENCH_SENSORS ?? 50);
const INFLIGHT = Number(process.env.BENCH_INFLIGHT ?? 32);
const STEP = 60_000;
const RATE = Number(process.env.BENCH_RATE ?? 10_000);
const LATENCY_S = Number(process.env.BENCH_LATENCY_S ?? 10);

interface Fixture {
  gateways: { sn: string; secret: string; sensors: { id: number; dev: string }[] }[];
  customerId: number;
}

async function enrol(db: Db): Promise<Fixture> {
  const tag = randomBytes(4).toString('hex').toUpperCase();
  const c = await db.one<{ id: number }>(`INSERT INTO customer (name, code, notify_sms) VALUES ($1, $2, true) RETURNING id`, [`Bench ${tag}`, `B${tag}`]);
  const customerId = c!.id;
  const gateways: Fixture['gateways'] = [];
  const scene = await db.one<{ id: number }>(`INSERT INTO scene (customer_id, code, label) VALUES ($1, $2, $2) RETURNING id`, [customerId, `s${tag}`]);
  const contact = await db.one<{ id: number }>(`INSERT INTO contact (customer_id, name, email, phone) VALUES ($1, 'Bench', $2, '13800138000') RETURNING id`, [customerId, `bench-${tag}@example.com`]);
  // Every carrier's alarm goes by e-mail and SMS (the trigger of docs/alarms.md "Triggers"): the latency is measured to both.
  const trigger = await db.one<{ id: number }>(
    `INSERT INTO alarm_trigger (customer_id, name, categories, channels) VALUES ($1, 'Bench', '{temp_high,temp_low,hum_high,hum_low}', '{email,sms}') RETURNING id`,
    [customerId],
  );
  for (let g = 0; g < G; g++) {
    const sn = `${tag}${String(g).padStart(4, '0')}`;
    const secret = generateGatewaySecret();
    const gw = await db.one<{ id: number }>(`INSERT INTO gateway (customer_id, sn, name, secret_hash) VALUES ($1, $2, $2, $3) RETURNING id`, [customerId, sn, hashGatewaySecret(secret)]);
    const devs = Array.from({ length: S }, (_, s) => `B${tag}${String(g * S + s).padStart(6, '0')}`);
    // One carrier per sensor, each with the 2–8 °C zone and the alarm contact.
    const carriers = await db.query<{ id: number }>(
      `INSERT INTO carrier (customer_id, scene_id, name, type, alarm_on, temp_min, temp_max, trigger_id)
       SELECT $1, $2, d, 2, true, 2, 8, $4 FROM unnest($3::text[]) AS d RETURNING id`,
      [customerId, scene!.id, devs, trigger!.id],
    );
    await db.query(`INSERT INTO carrier_contact (carrier_id, contact_id, customer_id) SELECT c, $2, $3 FROM unnest($1::int[]) AS c`, [carriers.map((c) => c.id), contact!.id, customerId]);
    const rows = await db.query<{ id: number; dev_no: string }>(
      `INSERT INTO sensor (customer_id, dev_no, type, gateway_id, carrier_id)
       SELECT $1, d, 'th', $2, c FROM unnest($3::text[], $4::int[]) AS v(d, c) RETURNING id, dev_no`,
      [customerId, gw!.id, devs, carriers.map((c) => c.id)],
    );
    gateways.push({ sn, secret, sensors: rows.map((r) => ({ id: r.id, dev: r.dev_no })) });
  }
  return { gateways, customerId };
}

/** Each gateway's messages: round r carries one reading per sensor at base + r·STEP. */
function payloads(f: Fixture, base: number): string[][] {
  const rounds = Math.ceil(K / (G * S));
  let left = K;
  return f.gateways.map((gw) => {
    const out: string[] = [];
    for (let r = 0; r < rounds && left > 0; r++) {
      const readings = gw.sensors.slice(0, Math.min(gw.sensors.length, left)).map((s, i) => ({
        dev: s.dev,
        ts: base + r * STEP,
        temp: 4 + ((r + i) % 40) / 10,
        hum: 50 + (r % 10),
        volt: 3.01,
        rssi: -70,
        lqi: 180,
      }));
      left -= readings.length;
      out.push(JSON.stringify({ readings }));
    }
    return out;
  });
}

const gatewaysScript = fileURLToPath(new URL('./gateways.ts', import.meta.url));

/** Publishes every gateway's messages from a child process (gateways.ts); its time from first publish to last PUBACK and its CPU. */
async function publishAll(url: string, f: Fixture, messages: string[][]): Promise<{ ms: number; cpuS: number }> {
  const file = join(tmpdir(), `cw-bench-gateways-${process.pid}-${randomBytes(3).toString('hex')}.json`);
  writeFileSync(file, JSON.stringify({ url, inflight: INFLIGHT, gateways: f.gateways.map((g, i) => ({ sn: g.sn, secret: g.secret, messages: messages[i] })) }));
  try {
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['--import', 'tsx', gatewaysScript, file], { maxBuffer: 1 << 20 }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout))),
    );
    return JSON.parse(out.trim().split('\n').pop()!) as { ms: number; cpuS: number };
  } finally {
    rmSync(file, { force: true });
  }
}

const stored = async (db: Db, f: Fixture) =>
  Number((await db.one<{ n: number }>(`SELECT count(*)::int AS n FROM reading WHERE customer_id = $1`, [f.customerId]))!.n);

async function main() {
  const bench = await openBenchDb();
  const { db } = bench;
  await prepareDb(db);
  const base = Date.now() - 3 * 86_400_000;
  const config = loadConfig({ DEMO: '1', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', MQTT_URL: '' } as NodeJS.ProcessEnv);
  console.log(`ingest bench on ${bench.label}: ${K} readings, ${G} gateways × ${S} sensors, ${INFLIGHT} messages in flight per gateway`);

  // Embedded broker, with the alarm evaluator, the notifier and the live stream's serialisation.
  const smtp = await startSmtp();
  // The SMS provider: the webhook provider (alarm/channels/webhook.ts) posting to a real HTTP server here.
  const smsSink = await fakeProvider();
  const agedGb = Number(process.env.BENCH_AGED_GB ?? 0);
  if (agedGb > 0) console.log(await ageReadings(db, agedGb));
  const f = await enrol(db);
  const msgs = payloads(f, base);
  const deps: AppDeps = { config: { ...config, smtpUrl: smtp.url, sms: { url: smsSink.url } }, db, bus: new Bus() };
  let liveBytes = 0;
  deps.bus.on('reading', (e) => (liveBytes += JSON.stringify(e).length));
  const alarm = startAlarm(deps, { noticePoll: false });
  const ingest = await startIngest(deps, { mqttPort: 0, mqttPortExplicit: false, host: '127.0.0.1', presence: false });
  // BENCH_PROFILE=file.cpuprofile: a CPU profile of this process over the flood alone (open it in Chrome's DevTools).
  const profiler = process.env.BENCH_PROFILE ? new Session() : null;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const cpu0 = { node: process.cpuUsage(), pg: postgresCpu() };
  const { ms, cpuS: gatewaysCpu } = await publishAll(`mqtt://127.0.0.1:${ingest.mqttPort}`, f, msgs);
  if (profiler) writeFileSync(process.env.BENCH_PROFILE!, JSON.stringify((await profiler.post('Profiler.stop')).profile));
  const nodeCpu = process.cpuUsage(cpu0.node);
  const cpu = { node: (nodeCpu.user + nodeCpu.system) / 1e6, pg: cpu0.pg.seconds() };
  const w = { ...deps.ingest!.writer.stats };
  const a0 = performance.now();
  await alarm.drain();
  const alarmBacklogMs = performance.now() - a0;
  const lat = await measureAlarmLatency(`mqtt://127.0.0.1:${ingest.mqttPort}`, f, smtp, smsSink, { rate: RATE, seconds: LATENCY_S }, deps.bus);
  // How many attempts the slowest excursion's notice took, and where the missing ones stand (a retry, a failure).
  const attemptsOf = async (dev: string) =>
    (await db.query<{ attempts: number; status: number; result: string }>(`SELECT attempts, status, result FROM notice_log WHERE content LIKE $1 ORDER BY attempts DESC LIMIT 1`, [`%${dev}%`]))[0];
  const slow = lat.slowest ? await attemptsOf(lat.slowest.dev) : undefined;
  const missing = await Promise.all(lat.missing.map(async (dev) => ({ dev, ...(await attemptsOf(dev)) })));
  await ingest.stop();
  await alarm.stop();
  await smtp.stop();
  await smsSink.close();
  console.log(`alarm evaluator: backlog after the flood cleared in ${Math.round(alarmBacklogMs)} ms; live events serialised: ${(liveBytes / 1e6).toFixed(1)} MB`);
  console.log(
    `alarm latency at ${RATE} readings/s for ${LATENCY_S} s after 1 s of warm-up (${lat.readings} readings, ${lat.excursions} excursions, publish → e-mail at SMTP and SMS at the webhook, the later): ` +
      `p50 ${pct(lat.latencies, 50)} ms, p99 ${pct(lat.latencies, 99)} ms, max ${Math.max(...lat.latencies)} ms (e-mail alone p99 ${pct(lat.mail, 99)} ms, SMS alone p99 ${pct(lat.sms, 99)} ms)`,
  );
  if (lat.slowest) console.log(`  slowest excursion ${lat.slowest.dev}: ${lat.slowest.ms} ms, its notice sent on attempt ${slow?.attempts ?? '?'}`);
  if (missing.length)
    console.log(`  ${missing.length} of ${lat.excursions} excursions got no mail or no SMS within 30 s: ${missing.map((m) => `${m.dev} (attempts ${m.attempts ?? 0}, status ${m.status ?? 'none'}: ${m.result ?? ''})`).join('; ')}`);
  const stage = (xs: number[]) => `p50 ${pct(xs, 50)} / p99 ${pct(xs, 99)} ms`;
  console.log(`  of which publish → readings committed ${stage(lat.stages.committed)}; → exception committed ${stage(lat.stages.evaluated)}; → e-mail and SMS accepted ${stage(lat.stages.mailed)}`);
  const n = await stored(db, f);
  if (n !== K + lat.readings) throw new Error(`embedded: ${n} of ${K + lat.readings} readings stored`);
  const ingestRps = K / (ms / 1000);
  console.log(`embedded broker: ${K} readings in ${(ms / 1000).toFixed(2)} s = ${Math.round(ingestRps)} readings/s (${w.batches} batches, ${Math.round(K / w.batches)} readings per batch, ${Math.round(w.commitMs)} ms in commits)`);
  console.log(`  CPU over those ${(ms / 1000).toFixed(2)} s: the console (with its broker) ${cpu.node.toFixed(2)} s, the gateways' process ${gatewaysCpu.toFixed(2)} s, PostgreSQL ${cpu.pg.toFixed(2)} s`);

  if (process.env.MQTT_URL) {
    const fx = await enrol(db);
    const xmsgs = payloads(fx, base);
    const run = randomBytes(3).toString('hex');
    const xdeps: AppDeps = { config: { ...config, mqttUrl: process.env.MQTT_URL }, db, bus: new Bus() };
    const clientId = `cw-bench-${run}`;
    const x = await startIngest(xdeps, { mqttPort: 0, mqttPortExplicit: false, clientId, presence: false });
    const t0 = performance.now();
    await publishAll(process.env.MQTT_URL, fx, xmsgs);
    while (xdeps.ingest!.writer.stats.accepted < K) await new Promise((r) => setTimeout(r, 10));
    const xms = performance.now() - t0;
    await x.stop();
    // The bench's persistent session would otherwise stay on the broker.
    await (await mqtt.connectAsync(process.env.MQTT_URL, { clientId, clean: true })).endAsync();
    console.log(`external broker ${process.env.MQTT_URL} (one exclusive session): ${Math.round(K / (xms / 1000))} readings/s`);
  }

  // Baseline: the same number of rows by COPY into the same table, half a step after the ingested ones.
  const lines: string[] = [];
  const sensors = f.gateways.flatMap((g) => g.sensors);
  for (let i = 0; i < K; i++) {
    const s = sensors[i % sensors.length];
    const ts = new Date(base + Math.floor(i / sensors.length) * STEP + STEP / 2).toISOString();
    lines.push(`${s.id}\t${ts}\t${f.customerId}\t${4 + (i % 40) / 10}\t${50 + (i % 10)}\t3.01\t-70\t180\t\\N\t\\N`);
  }
  const text = lines.join('\n') + '\n';
  const c0 = performance.now();
  await db.copyIn(READING_COLUMNS, text);
  const cms = performance.now() - c0;
  const copyRps = K / (cms / 1000);
  if ((await stored(db, f)) !== 2 * K + lat.readings) throw new Error('COPY did not store every row');
  console.log(`COPY: ${K} rows in ${(cms / 1000).toFixed(2)} s = ${Math.round(copyRps)} rows/s`);
  // The writer's own format (binary COPY), a third of a step after the ingested ones: what the ratio would be against it.
  const rows = copyBinary(READING_TYPES, K, (i, c) => {
    const s = sensors[i % sensors.length];
    const row = [s.id, base + Math.floor(i / sensors.length) * STEP + STEP / 3, f.customerId, 4 + (i % 40) / 10, 50 + (i % 10), 3.01, -70, 180, null, null];
    return row[c];
  });
  const b0 = performance.now();
  await db.copyIn(READING_COLUMNS, rows);
  const bms = performance.now() - b0;
  if ((await stored(db, f)) !== 3 * K + lat.readings) throw new Error('binary COPY did not store every row');
  console.log(`COPY in the binary format: ${K} rows in ${(bms / 1000).toFixed(2)} s = ${Math.round(K / (bms / 1000))} rows/s (ratio against it ${(ingestRps / (K / (bms / 1000))).toFixed(3)})`);
  const tableGb = await readingGb(db);
  await bench.close();
  console.log(`ingest_rps=${Math.round(ingestRps)} copy_rps=${Math.round(copyRps)} ratio=${(ingestRps / copyRps).toFixed(3)} alarm_p99_ms=${pct(lat.latencies, 99)} reading_table_gb=${tableGb.toFixed(2)}`);
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
