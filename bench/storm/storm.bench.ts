/**
 * The reconnect storm (issue 33): after a network outage of BENCH_MINUTES (60) minutes, every
 * gateway of the fleet (BENCH_GATEWAYS, 1,000, of BENCH_SENSORS sensors each, 100) connects
 * again within BENCH_SPREAD_S (10) seconds and back-fills one reading a minute per sensor for
 * the whole outage (1,000 × 100 × 60 = 6 million readings), through the embedded broker of the
 * console running as production runs it (a child process: console.ts), from a process of
 * gateways of their own (gateways.ts). One sensor in BENCH_EXCURSION_EVERY (100) read 9.5 °C,
 * above its 2–8 °C zone, for ten minutes in the middle of the outage.
 *
 * Before: the presence scan marks the silent fleet offline (timed: the scan over every sensor),
 * the outage's notices count as sent (they went out during the outage), and the console starts
 * (timed: spawn → /readyz 200, with the fleet in the database). During: three list calls every
 * 200 ms (probe.ts), beside the same calls on the idle console before. After, checked:
 * - every reading stored once: count = gateways × sensors × minutes (the primary key forbids a
 *   second copy; the count shows none is missing and none extra);
 * - live values current again: every sensor running with the live reading its gateway sends after
 *   its buffer (as gateways go on; a sensor whose newest reading arrives older than its offline
 *   threshold does not count as running, so the buffer alone cannot bring it back on a slow
 *   drain), no connection exception left open;
 * - each excursion recorded once, as an exception already ended, its notice the "already over"
 *   one; nothing else opened;
 * then the jobs' lag: how long the console's rollup job takes to work off the buckets the
 * back-fill marked, and one retention pass (timed); then the same rows by binary COPY into the
 * same table (the baseline).
 *
 * BENCH_FAILOVER=1: the database is a private PostgreSQL of this run (server/test/private-pg.ts,
 * as ingest.db-outage.test.ts does), stopped when a third of the readings are acknowledged and
 * started again BENCH_OUTAGE_S (5) later; the same checks. Else a fresh database on DATABASE_URL's
 * server, dropped at the end.
 *
 * Last line: `readings=… drain_s=… ingest_rps=… copy_rps=… ratio=… alarm_s=… api_p99_ms=… idle_p99_ms=… startup_ms=…
 * presence_ms=… rollup_lag_s=… retention_ms=… failover=…`.
 */
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freshDb } from '../../server/test/db.js';
import { startPrivatePostgres } from '../../server/test/private-pg.js';
import { openDb, type Db } from '../../server/src/platform/db/client.js';
import { prepareDb } from '../../server/src/platform/db/prepare.js';
import { Bus } from '../../server/src/platform/events.js';
import { scanDevices } from '../../server/src/ingest/presence.js';
import { createSession, SESSION_COOKIE } from '../../server/src/platform/auth/session.js';
import { copyBinary } from '../../server/src/platform/db/copy.js';
import { READING_COLUMNS, READING_TYPES } from '../../server/src/ingest/statements.js';
import { startSmtp } from '../../e2e/support/smtp.js';
import { enforceRetention } from '../../server/src/jobs/retention.js';
import { makeFleet } from './fleet.js';
import { startConsole } from './console.js';
import { formatProbe, probeApi, type ProbeResult } from './probe.js';
import type { StormPlan } from './gateways.js';

const G = Number(process.env.BENCH_GATEWAYS ?? 1000);
const S = Number(process.env.BENCH_SENSORS ?? 100);
const MINUTES = Number(process.env.BENCH_MINUTES ?? 60);
const SPREAD_S = Number(process.env.BENCH_SPREAD_S ?? 10);
const EVERY = Number(process.env.BENCH_EXCURSION_EVERY ?? 100);
const INFLIGHT = Number(process.env.BENCH_INFLIGHT ?? 4);
const FAILOVER = process.env.BENCH_FAILOVER === '1';
const OUTAGE_S = Number(process.env.BENCH_OUTAGE_S ?? 5);
const TOTAL = G * S * MINUTES;
// The excursion: a sixth of the outage (ten minutes of an hour) from its middle, clear readings after it.
const EX_FROM = Math.floor(MINUTES / 2.4);
const EX_TO = Math.min(MINUTES - 1, EX_FROM + Math.max(1, Math.round(MINUTES / 6)));
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
const secs = (ms: number) => (ms / 1000).toFixed(1);

// The database: a private server we may stop, or a fresh database on the shared one.
const pg = FAILOVER ? await startPrivatePostgres() : undefined;
if (FAILOVER && !pg) throw new Error('BENCH_FAILOVER=1 needs the PostgreSQL server binaries (/usr/lib/postgresql/*/bin)');
if (!FAILOVER && !process.env.DATABASE_URL) throw new Error('bench:storm needs DATABASE_URL (PostgreSQL): the console runs in its own process');
// A bench that fails midway stops its private server (the database on the shared one stays, named cw_test_…).
if (pg) process.once('uncaughtException', (err) => void pg.remove().finally(() => { console.error(err); process.exit(1); }));
const fresh = pg ? undefined : await freshDb(process.env.DATABASE_URL);
const url = pg ? pg.url : fresh!.url!;
const db: Db = fresh ? fresh.db : await openDb({ databaseUrl: url });
if (pg) await prepareDb(db);
const one = async (text: string, params: unknown[] = []) => Number(Object.values((await db.query(text, params))[0])[0]);

console.log(`storm bench: ${G} gateways × ${S} sensors × ${MINUTES} min = ${TOTAL.toLocaleString('en-US')} readings, reconnecting within ${SPREAD_S} s, ${INFLIGHT} messages in flight per gateway; ${FAILOVER ? `database stopped for ${OUTAGE_S} s at a third` : 'no database outage'}; load average ${load()}`);
let t = performance.now();
const fleet = await makeFleet(db, { gateways: G, perGateway: S, silentMs: Math.max(MINUTES + 1, 121) * 60_000 });
console.log(`fleet of ${fleet.sensors.toLocaleString('en-US')} sensors made by SQL in ${secs(performance.now() - t)} s`);

// The outage as the console saw it: the presence scan marks every device offline and opens their connection exceptions.
t = performance.now();
const scan = await scanDevices(db, new Bus());
const presenceMs = Math.round(performance.now() - t);
console.log(`presence scan over the silent fleet: ${presenceMs} ms, ${JSON.stringify(scan)} (load ${load()})`);
await db.query(`UPDATE notice_log SET status = 1, send_time = now() WHERE customer_id = $1`, [fleet.customerId]);

const smtp = await startSmtp();
const con = await startConsole({ DATABASE_URL: url, SMTP_URL: smtp.url });
console.log(`console (${con.build}) ready in ${con.readyMs} ms with ${fleet.sensors.toLocaleString('en-US')} sensors (spawn → /readyz 200; load ${load()})`);
const token = await createSession(db, fleet.userId, fleet.customerId);
const headers = { cookie: `${SESSION_COOKIE}=${token}`, 'accept-encoding': 'br, gzip' };
const page = 'iDisplayStart=0&iDisplayLength=20';
const paths = [`/service/sensor/page?${page}`, `/service/gateway/page?${page}`, `/service/exception/page?${page}`];
const idleProbe = probeApi(con.base, headers, paths);
await new Promise((r) => setTimeout(r, 10_000));
const idle = await idleProbe.stop();
console.log(`API on the idle console: ${formatProbe(idle)}`);

// The storm.
const start = Date.now() - MINUTES * 60_000;
const plan: StormPlan = { url: con.mqttUrl, spreadMs: SPREAD_S * 1000, inflight: INFLIGHT, start, minutes: MINUTES, excursion: { every: EVERY, from: EX_FROM, to: EX_TO, temp: 9.5 }, gateways: fleet.gateways };
const file = join(tmpdir(), `cw-storm-${process.pid}.json`);
writeFileSync(file, JSON.stringify(plan));
const stormProbe = probeApi(con.base, headers, paths);
const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./gateways.ts', import.meta.url)), file], { stdio: ['ignore', 'pipe', 'inherit'] });
let failover: { at: number; downMs: number } | undefined;
let outage: Promise<void> | undefined;
let last = 0;
const done = await new Promise<{ connectMs: number; ms: number; cpuS: number; reconnects: number; acked: number }>((resolve, reject) => {
  child.once('exit', (code) => code !== 0 && reject(new Error(`the gateways exited with ${code}`)));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const m = JSON.parse(line) as { acked: number; done?: boolean };
    if (m.done) return resolve(m as never);
    if (m.acked - last >= TOTAL / 10) {
      console.log(`  ${Math.round((m.acked / TOTAL) * 100)} % acknowledged (load ${load()})`);
      last = m.acked;
    }
    if (pg && !outage && m.acked >= TOTAL / 3) {
      const at = m.acked;
      outage = (async () => {
        const t0 = performance.now();
        await pg.stop();
        await new Promise((r) => setTimeout(r, OUTAGE_S * 1000));
        await pg.start();
        failover = { at, downMs: Math.round(performance.now() - t0) };
        console.log(`  database stopped at ${at.toLocaleString('en-US')} readings acknowledged, back after ${failover.downMs} ms`);
      })();
    }
  });
});
await outage;
const storm = await stormProbe.stop();
rmSync(file, { force: true });
const drainS = done.ms / 1000;
console.log(
  `storm drained: ${done.acked.toLocaleString('en-US')} readings acknowledged in ${drainS.toFixed(1)} s from the first connection attempt (all connected by ${secs(done.connectMs)} s, ${done.reconnects} reconnects) = ${Math.round(TOTAL / drainS)} readings/s; gateways' CPU ${done.cpuS.toFixed(1)} s; load ${load()}`,
);
console.log(`API during the storm: ${formatProbe(storm)}`);

// The alarm evaluator works through the queued windows after the readings are in.
t = performance.now();
while ((await one(`SELECT count(*) FROM alarm_queue WHERE customer_id = $1`, [fleet.customerId])) > 0) {
  if (performance.now() - t > 900_000) throw new Error('the alarm queue did not empty within 15 min');
  await new Promise((r) => setTimeout(r, 1000));
}
const alarmMs = performance.now() - t;
const noticesSettled = performance.now();
const excursions = Math.ceil(fleet.sensors / EVERY);
while ((await one(`SELECT count(*) FROM notice_log WHERE customer_id = $1 AND subject LIKE '%already over%'`, [fleet.customerId])) < excursions && performance.now() - noticesSettled < 60_000)
  await new Promise((r) => setTimeout(r, 500));
console.log(`alarm queue empty ${secs(alarmMs)} s after the last PUBACK`);

// The checks.
const failures: string[] = [];
const check = (ok: boolean, what: string) => (ok ? console.log(`  ok: ${what}`) : (failures.push(what), console.log(`  FAILED: ${what}`)));
const stored = await one(`SELECT count(*) FROM reading WHERE customer_id = $1`, [fleet.customerId]);
// The buffers, and each sensor's live reading after its gateway's buffer.
check(stored === TOTAL + fleet.sensors, `readings stored once: ${stored.toLocaleString('en-US')} of ${(TOTAL + fleet.sensors).toLocaleString('en-US')} (the buffers and a live reading each)`);
const newest = new Date(start + (MINUTES - 1) * 60_000);
const current = await one(`SELECT count(*) FROM sensor WHERE customer_id = $1 AND status = 1 AND last_ts > $2`, [fleet.customerId, newest]);
check(current === fleet.sensors, `live values current: ${current} of ${fleet.sensors} sensors running with their live reading after the buffer`);
const gwUp = await one(`SELECT count(*) FROM gateway WHERE customer_id = $1 AND status = 1`, [fleet.customerId]);
check(gwUp === G, `gateways online: ${gwUp} of ${G}`);
const openConn = await one(`SELECT count(*) FROM exception_record WHERE customer_id = $1 AND ongoing`, [fleet.customerId]);
check(openConn === 0, `no exception left open (the outage's connection exceptions ended): ${openConn} open`);
const [ex] = await db.query<{ n: number; ended: number; sensors: number }>(
  `SELECT count(*)::int AS n, count(*) FILTER (WHERE NOT ongoing AND end_ts IS NOT NULL)::int AS ended, count(DISTINCT sensor_id)::int AS sensors
     FROM exception_record WHERE customer_id = $1 AND type = 'data'`,
  [fleet.customerId],
);
check(ex.n === excursions && ex.ended === excursions && ex.sensors === excursions, `excursions recorded once each, already ended: ${ex.n} exceptions (${ex.ended} ended) on ${ex.sensors} of ${excursions} sensors`);
const past = await one(`SELECT count(*) FROM notice_log WHERE customer_id = $1 AND subject LIKE '%already over%'`, [fleet.customerId]);
const live = await one(`SELECT count(*) FROM notice_log n JOIN exception_record e ON e.id = n.exception_id WHERE n.customer_id = $1 AND e.type = 'data' AND n.subject NOT LIKE '%already over%'`, [fleet.customerId]);
check(past === excursions && live === 0, `their notices say "already over": ${past} of ${excursions}, ${live} live alarm notices`);

// The jobs behind the storm: the console's rollup job works off the buckets the back-fill marked.
t = performance.now();
const pending0 = await one(`SELECT count(*) FROM rollup_pending`);
let pending = pending0;
while (pending > 0 && performance.now() - t < 900_000) {
  await new Promise((r) => setTimeout(r, 2000));
  pending = await one(`SELECT count(*) FROM rollup_pending`);
}
const rollupS = (performance.now() - t) / 1000;
console.log(`rollup: ${pending0.toLocaleString('en-US')} buckets pending after the alarms, ${pending ? `${pending.toLocaleString('en-US')} still pending` : 'none'} after ${rollupS.toFixed(1)} s (${Math.round((pending0 - pending) / rollupS)} buckets/s; load ${load()})`);
await con.stop();
await smtp.stop();
t = performance.now();
const removed = await enforceRetention(db);
const retentionMs = Math.round(performance.now() - t);
console.log(`retention pass over the fleet's database: ${retentionMs} ms (${JSON.stringify(removed).slice(0, 120)})`);

// The baseline: the same rows by binary COPY, half a minute after the stored ones, in chunks.
const ids = (await db.query<{ id: number }>(`SELECT id FROM sensor WHERE customer_id = $1 ORDER BY id`, [fleet.customerId])).map((r) => r.id);
const CHUNK = 250_000;
t = performance.now();
for (let from = 0; from < TOTAL; from += CHUNK) {
  const rows = Math.min(CHUNK, TOTAL - from);
  const buf = copyBinary(READING_TYPES, rows, (i, c) => {
    const k = from + i;
    const row = [ids[k % ids.length], start + Math.floor(k / ids.length) * 60_000 + 30_000, fleet.customerId, 4 + (k % 20) / 10, 50, 3.01, -70, 180, null, null];
    return row[c];
  });
  await db.copyIn(READING_COLUMNS, buf);
}
const copyS = (performance.now() - t) / 1000;
check((await one(`SELECT count(*) FROM reading WHERE customer_id = $1`, [fleet.customerId])) === 2 * TOTAL + fleet.sensors, 'COPY stored every row');
const ingestRps = TOTAL / drainS;
const copyRps = TOTAL / copyS;
console.log(`COPY of the same ${TOTAL.toLocaleString('en-US')} rows: ${copyS.toFixed(1)} s = ${Math.round(copyRps)} rows/s (load ${load()})`);

if (fresh) await fresh.drop();
else {
  await db.close();
  await pg!.remove();
}
const worst = (rs: ProbeResult[]) => Math.max(...rs.map((r) => r.p99));
console.log(
  `readings=${TOTAL} drain_s=${drainS.toFixed(1)} ingest_rps=${Math.round(ingestRps)} copy_rps=${Math.round(copyRps)} ratio=${(ingestRps / copyRps).toFixed(3)} alarm_s=${secs(alarmMs)} api_p99_ms=${worst(storm)} idle_p99_ms=${worst(idle)} startup_ms=${con.readyMs} presence_ms=${presenceMs} rollup_lag_s=${pending ? `>${rollupS.toFixed(0)}` : rollupS.toFixed(0)} retention_ms=${retentionMs} failover=${failover ? `${failover.downMs}ms` : 'none'} ${failures.length ? `FAILED=${failures.length}` : 'ok'}`,
);
process.exit(failures.length ? 1 : 0);
