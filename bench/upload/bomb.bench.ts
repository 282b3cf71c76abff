/**
 * Zip bombs against the xlsx imports (docs/security.md): the console in its own process
 * (`server/src/main.ts` under tsx, demo data, a real login as the demo admin), sent three uploads
 * at once to /service/sensor/importSensor while this process asks /healthz every 10 ms and reads
 * the console's resident set (/proc) every 10 ms. Phases, each from a quiet console:
 *   baseline  three legitimate imports of BENCH_ROWS rows (10,000, the import limit), ~300 KB each;
 *   bomb      three 1 MB files whose sheet unpacks to 1,000 MB, as their directory says, sent
 *             BENCH_ROUNDS (10) times one round after the other;
 *   lying     the same with a directory that declares the sheet 1 KB.
 * Per phase: the answers' times, the console's RSS growth over its level before the phase,
 * /healthz latency meanwhile (p50, p99, max), the console's own longest event-loop delay and GC
 * pause, and its CPU time per upload (loop-delay.ts): on a shared two-core machine /healthz also
 * waits for a CPU, and CPU time is the figure that does not depend on the neighbours.
 *
 * Env: DATABASE_URL (PostgreSQL: the bench makes and drops a database of its own there; else
 * PGlite in a temporary directory), BENCH_ROWS, BENCH_ROUNDS, BENCH_SERVER (another checkout's
 * server/src/main.ts, to measure it side by side). Last line:
 * `bomb_answer_ms=… bomb_rss_mb=… bomb_healthz_max_ms=… lying_answer_ms=… baseline_answer_ms=… baseline_rss_mb=… baseline_healthz_max_ms=…`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { freePort } from '../../server/src/ingest/test-fixtures.js';
import { DEMO_CUSTOMER } from '../../server/src/demo/seed.js';
import { bombXlsx } from '../../server/src/platform/xlsx/zip.fixture.js';

const MB = 1024 * 1024;
const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
/** Rounds of three bombs, back to back: enough /healthz samples to speak of while they are refused. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const server = process.env.BENCH_SERVER ?? fileURLToPath(new URL('../../server/src/main.ts', import.meta.url));
const tag = `B${Date.now().toString(36).toUpperCase()}`;

// A database of the bench's own, dropped at the end: the imports leave 30,000 sensors behind.
const baseUrl = process.env.DATABASE_URL;
const dataDir = mkdtempSync(path.join(tmpdir(), 'coldwatch-bomb-'));
let databaseUrl: string | undefined;
if (baseUrl) {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE bench_bomb_${tag.toLowerCase()}`);
  await admin.end();
  const u = new URL(baseUrl);
  u.pathname = `/bench_bomb_${tag.toLowerCase()}`;
  databaseUrl = u.toString();
}

const [http, mqtt] = [await freePort(), await freePort()];
const loopDelay = fileURLToPath(new URL('./loop-delay.ts', import.meta.url));
const child = spawn(process.execPath, ['--import', 'tsx', '--import', loopDelay, server], {
  cwd: path.dirname(path.dirname(path.dirname(server))),
  env: { ...process.env, PORT: String(http), MQTT_PORT: String(mqtt), DATABASE_URL: databaseUrl ?? '', DATA_DIR: dataDir, DEMO: '1', SIMULATOR: '0', LOGIN_CAPTCHA: 'off', LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
});
/** The console's longest event-loop delay and garbage-collection pause, and its CPU time, since the last call (loop-delay.ts). */
const loopMaxMs = () =>
  new Promise<{ loopMaxMs: number; gcMaxMs: number; cpuMs: number }>((resolve) => {
    child.once('message', resolve);
    child.send('loop');
  });
const base = `http://127.0.0.1:${http}`;
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
for (let i = 0; ; i++) {
  if (i > 1200) throw new Error('the console did not start');
  if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) break;
  await new Promise((r) => setTimeout(r, 100));
}

const login = await fetch(`${base}/service/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account: DEMO_CUSTOMER.account, password: DEMO_CUSTOMER.password }) });
const session = /cw_session=[^;]+/.exec(login.headers.get('set-cookie') ?? '')?.[0];
if (!session) throw new Error(`login failed: ${await login.text()}`);
const cookie: string = session;

// A gateway of the demo customer whose serial number the import accepts (the hand-driven one's is not hex).
const gateways = (await (await fetch(`${base}/service/gateway/page?iDisplayStart=0&iDisplayLength=50`, { headers: { cookie } })).json()) as { result: { rows: { sn: string }[] } };
const gatewaySn = gateways.result.rows.map((g) => g.sn).find((sn) => /^[0-9A-F]{12}$/.test(sn));
if (!gatewaySn) throw new Error('the demo customer has no gateway to import sensors onto');

async function legit(prefix: string): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sensors');
  ws.addRow(['Device number', 'Type', 'Gateway serial number', 'Monitoring point', 'Sample interval (s)', 'Description']);
  for (let i = 0; i < ROWS; i++) ws.addRow([`${prefix}${String(i).padStart(6, '0')}`, 'zigbee_th', gatewaySn, '', 60, `bench ${i}`]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function upload(file: Buffer, name: string): Promise<{ ms: number; status: number; msg: string }> {
  const form = new FormData();
  form.append('file', new Blob([Uint8Array.from(file)]), name);
  const t = performance.now();
  const res = await fetch(`${base}/service/sensor/importSensor`, { method: 'POST', body: form, headers: { cookie, 'accept-language': 'en-US' } });
  const body = (await res.json()) as { state: { msg: string } };
  return { ms: performance.now() - t, status: res.status, msg: body.state.msg };
}

/**
 * /healthz asked every 10 ms from a process of its own, so that what this one does meanwhile
 * (sending the files) does not show as the console's latency; stop() returns the latencies.
 */
function pingHealth() {
  const script = `
    const lat = []; let on = true;
    process.stdin.on('end', () => { on = false; }); process.stdin.resume();
    await fetch(process.argv[1]).then((r) => r.arrayBuffer()); // fetch's own first-call set-up is not the console's
    process.stdout.write('ready\\n');
    while (on) {
      const t = performance.now();
      await fetch(process.argv[1]).then((r) => r.arrayBuffer());
      lat.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 10));
    }
    process.stdout.write(JSON.stringify(lat));`;
  const p = spawn(process.execPath, ['--input-type=module', '-e', script, `${base}/healthz`], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  const ready = new Promise<void>((resolve) =>
    p.stdout.on('data', (d: Buffer) => {
      out += d;
      if (out.includes('\n')) resolve();
    }),
  );
  return {
    ready,
    stop: async () => {
      p.stdin.end();
      await new Promise((r) => p.once('exit', r));
      return JSON.parse(out.slice(out.indexOf('\n') + 1)) as number[];
    },
  };
}

/** `rounds` of three uploads at once, one round after the other, the console's RSS and /healthz sampled until the last has answered. */
async function phase(name: string, files: Buffer[], rounds = 1) {
  // A quiet console first: what earlier phases left in its heap is collected or at least settled.
  await new Promise((r) => setTimeout(r, 3000));
  const before = rssMb();
  let peak = before;
  let running = true;
  const sampler = (async () => {
    while (running) {
      peak = Math.max(peak, rssMb());
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const pinger = pingHealth();
  await pinger.ready;
  await loopMaxMs();
  const answers: Awaited<ReturnType<typeof upload>>[] = [];
  for (let round = 0; round < rounds; round++) answers.push(...(await Promise.all(files.map((f, i) => upload(f, `${name}-${i}.xlsx`)))));
  running = false;
  const { loopMaxMs: loopMs, gcMaxMs, cpuMs } = await loopMaxMs();
  const [, health] = await Promise.all([sampler, pinger.stop()]);
  health.sort((a, b) => a - b);
  const r = {
    answerMs: Math.max(...answers.map((a) => a.ms)),
    rssMb: peak - before,
    healthP99: health[Math.min(health.length - 1, Math.floor(health.length * 0.99))] ?? 0,
    healthP50: health[Math.floor(health.length / 2)] ?? 0,
    healthMax: health.at(-1) ?? 0,
    loopMs,
    cpuMsPerUpload: cpuMs / answers.length,
  };
  console.log(
    `${name} | ${rounds} × ${files.length} | ${(files[0].length / 1024).toFixed(0)} KB | ${answers.slice(0, files.length).map((a) => a.ms.toFixed(0)).join(', ')} | ${r.answerMs.toFixed(0)} | ${before.toFixed(0)} → ${peak.toFixed(0)} (+${r.rssMb.toFixed(0)}) | ${health.length} | ${r.healthP50.toFixed(1)} | ${r.healthP99.toFixed(1)} | ${r.healthMax.toFixed(1)} | ${loopMs.toFixed(1)} | ${gcMaxMs.toFixed(1)} | ${r.cpuMsPerUpload.toFixed(1)} | ${answers[0].status} ${answers[0].msg}`,
  );
  return r;
}

const legitFiles = await Promise.all([0, 1, 2].map((i) => legit(`${tag}${i}`)));
const bomb = bombXlsx(1000 * MB);
const lying = bombXlsx(1000 * MB, { lie: true });
console.log(`${baseUrl ? 'PostgreSQL' : 'PGlite'}; console ${server}; ${ROWS} rows per legitimate file; console RSS idle ${rssMb().toFixed(0)} MB`);
console.log('phase | uploads | file | first round answers ms | slowest answer ms | console RSS MB | healthz samples | healthz p50 ms | p99 ms | max ms | console event-loop delay max ms | console GC pause max ms | console CPU ms per upload | first answer');
const baseline = await phase('baseline', legitFiles);
const bombs = await phase('bomb', [bomb, bomb, bomb], ROUNDS);
const liars = await phase('lying', [lying, lying, lying], ROUNDS);

child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
rmSync(dataDir, { recursive: true, force: true });
if (baseUrl) {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE bench_bomb_${tag.toLowerCase()} WITH (FORCE)`);
  await admin.end();
}
const f = (n: number) => n.toFixed(0);
console.log(
  `bomb_answer_ms=${f(bombs.answerMs)} bomb_rss_mb=${f(bombs.rssMb)} bomb_healthz_max_ms=${bombs.healthMax.toFixed(1)} bomb_loop_max_ms=${bombs.loopMs.toFixed(1)} bomb_cpu_ms=${bombs.cpuMsPerUpload.toFixed(1)} lying_answer_ms=${f(liars.answerMs)} lying_rss_mb=${f(liars.rssMb)} ` +
    `baseline_answer_ms=${f(baseline.answerMs)} baseline_rss_mb=${f(baseline.rssMb)} baseline_healthz_max_ms=${baseline.healthMax.toFixed(1)} baseline_cpu_ms=${baseline.cpuMsPerUpload.toFixed(1)}`,
);
