/**
 * `npm run bench:export` (docs/performance.md "Exports"): exports made by the export job itself
 * (the console's own code: keyset pages through the history repository, the streaming xlsx
 * writer of platform/xlsx, the file into download_chunk), each with the process's peak RSS and
 * beside a plain COPY TO of the same rows in the same run:
 *   - one year of one-minute readings of one sensor (525,600 rows) as one xlsx;
 *   - a month of 100 sensors (100 × 43,200 rows): the 100 exports one after another, as the
 *     export lane runs them (a history export is of one device, and 4.3 million rows are past
 *     an xlsx sheet and the export limit);
 * then ingest's readings/s through the console's writer alone, and while a year's export runs.
 * The load average is printed at the start and the end: the machine is shared.
 *
 * Last line: `export_s=… export_cpu_s=… rows=… bytes=… rss_peak_mb=… rss_before_mb=… copy_s=… fleet_s=… fleet_cpu_s=… fleet_rows=… fleet_rss_peak_mb=… fleet_copy_s=… ingest_alone_rps=… ingest_during_rps=… load=…`.
 * Env: BENCH_DAYS (365), BENCH_FLEET (100 sensors), BENCH_FLEET_DAYS (30), BENCH_ANALYZE (ANALYZE after seeding);
 * DATABASE_URL for PostgreSQL, else PGlite in memory.
 */
import { loadavg } from 'node:os';
import { PGlite } from '@electric-sql/pglite';
import { freshDb } from '../../server/test/db.js';
import { pgliteFrom, pgliteParsers } from '../../server/src/platform/db/client.js';
import { prepareDb } from '../../server/src/platform/db/prepare.js';
import { loadConfig } from '../../server/src/config.js';
import { Bus } from '../../server/src/platform/events.js';
import { ingestOf } from '../../server/src/ingest/service.js';
import { enrol } from '../../server/src/ingest/test-fixtures.js';
import type { DeviceReading } from '../../server/src/ingest/protocol.js';
import { Partitions } from '../../server/src/ingest/partitions.js';
import { createRecord } from '../../server/src/modules/download/download.repository.js';
import { runExport } from '../../server/src/jobs/export/index.js';

const DAYS = Number(process.env.BENCH_DAYS ?? 365);
const FLEET = Number(process.env.BENCH_FLEET ?? 100);
const FLEET_DAYS = Number(process.env.BENCH_FLEET_DAYS ?? 30);
const MB = 2 ** 20;
const DAY = 86_400_000;
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
const loadAtStart = load();
// PGlite made here (not through freshDb) so that its own COPY TO '/dev/blob' is at hand for the baseline.
const lite = process.env.DATABASE_URL ? null : await PGlite.create({ parsers: pgliteParsers });
const { db, url, drop } = lite ? { db: pgliteFrom(lite), url: undefined, drop: () => lite.close() } : await freshDb(process.env.DATABASE_URL);
if (lite) await prepareDb(db);
const label = db.kind === 'postgres' ? 'PostgreSQL' : 'PGlite (in memory)';
const config = loadConfig({ DEMO: '1', LOG_LEVEL: 'warn', MQTT_URL: '' } as NodeJS.ProcessEnv);
const ingest = ingestOf({ config, db, bus: new Bus() });

const end = Math.floor(Date.now() / 60_000) * 60_000 - 60_000;
const start = end - DAYS * DAY;
const fleetStart = end - FLEET_DAYS * DAY;
const [cust] = await db.query<{ id: number }>(`INSERT INTO customer (name, code) VALUES ('Bench export', 'BEXP') RETURNING id`);
const [user] = await db.query<{ id: number }>(`INSERT INTO app_user (customer_id, account, name, password_hash, user_type, is_admin) VALUES ($1, 'benchexport', 'Bench', 'x', 1, true) RETURNING id`, [cust.id]);
const fleet = await enrol(db, cust.id, 11);
const [exported, ...live] = fleet.sensors;
// The fleet's sensors by number (enrol's random numbers could meet among a hundred), on the same gateway and carrier.
const others = await db.query<{ id: number; dev: string }>(
  `INSERT INTO sensor (customer_id, dev_no, type, gateway_id, carrier_id)
   SELECT $1, 'BX' || lpad(g::text, 6, '0'), 'th', gateway_id, carrier_id FROM sensor, generate_series(1, $3) g WHERE id = $2 RETURNING id, dev_no AS dev`,
  [cust.id, exported.id, FLEET],
);
console.log(`${label}: one sensor's ${(DAYS * 1440).toLocaleString('en-US')} readings over ${DAYS} days; ${FLEET} sensors' ${FLEET_DAYS} days (${(FLEET * FLEET_DAYS * 1440).toLocaleString('en-US')} readings); load average ${loadAtStart}`);

/** One-minute readings of a sensor over [from, from + days). */
async function seed(sensorId: number, from: number, days: number) {
  const rows = days * 1440;
  for (let i = 0; i < rows; i += 100_000) {
    await db.query(
      `INSERT INTO reading (sensor_id, ts, customer_id, temp, hum)
       SELECT $1, to_timestamp(($2::bigint + g::bigint * 60000) / 1000.0), $3, 4 + sin(g / 97.0) * 2, 50 FROM generate_series($4::int, $4::int + $5 - 1) g`,
      [sensorId, from, cust.id, i, Math.min(100_000, rows - i)],
    );
  }
}
const t = Date.now();
await new Partitions(db).ensureFor(Array.from({ length: Math.ceil(DAYS / 28) + 2 }, (_, i) => start + i * 28 * DAY).concat(end));
await seed(exported.id, start, DAYS);
for (const s of others) await seed(s.id, fleetStart, FLEET_DAYS);
// PGlite has no autovacuum: its tables are never analyzed unless asked. BENCH_ANALYZE=1 asks once here, to show what statistics change.
if (process.env.BENCH_ANALYZE) await db.exec('ANALYZE');
console.log(`inserted in ${((Date.now() - t) / 1000).toFixed(1)} s${process.env.BENCH_ANALYZE ? ', then ANALYZE' : ''}`);

/** One export of a sensor's span, as the job runs it; answers its seconds, rows and bytes. */
async function exportOf(devNo: string, from: number, to: number) {
  const rec = await createRecord(db, { customerId: cust.id, userId: user.id, kind: 'export', source: 'history', name: 'bench.xlsx', format: 'xlsx', criteria: { deviceNo: devNo, start: from, end: to, locale: 'en-US' } });
  const r = await runExport(db, { recordId: rec.id, customerId: cust.id, scope: { customerIds: null, sceneIds: null } });
  if (!r.rows) throw new Error(`the export of ${devNo} failed: ${JSON.stringify(r)}`);
  return { rows: Number(r.rows), bytes: Number(r.bytes) };
}

/**
 * Runs `work` with the process's resident memory sampled every 50 ms; answers its seconds, its
 * CPU seconds (this process's, PGlite's included: what the work costs on a shared machine) and
 * the RSS before and at its peak.
 */
async function measured<T>(work: () => Promise<T>) {
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 50);
  const s = performance.now();
  const cpu = process.cpuUsage();
  const out = await work();
  const used = process.cpuUsage(cpu);
  clearInterval(sampler);
  return { out, s: (performance.now() - s) / 1000, cpuS: (used.user + used.system) / 1e6, rssBefore, rssPeak };
}
const rss = (m: { rssBefore: number; rssPeak: number }) => `RSS ${(m.rssBefore / MB).toFixed(0)} MB before, peak ${(m.rssPeak / MB).toFixed(0)} MB`;

/** Baseline: a plain COPY TO of the same rows, the fastest the database hands them out; answers its seconds. */
async function copyOf(sensorIds: number[], from: number, to: number) {
  const select = `SELECT sensor_id, ts, temp, hum FROM reading WHERE sensor_id IN (${sensorIds.join(',')}) AND ts >= '${new Date(from).toISOString()}' AND ts <= '${new Date(to).toISOString()}' ORDER BY sensor_id, ts`;
  const s = performance.now();
  let copied = 0;
  if (lite) copied = (await lite.query(`COPY (${select}) TO '/dev/blob'`)).blob?.size ?? 0;
  else {
    const pg = (await import('pg')).default;
    const { CopyOut } = await import('../../server/src/modules/backup/pgCopyOut.js');
    const { Writable } = await import('node:stream');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const sink = new Writable({ write: (c: Buffer, _e, done) => ((copied += c.length), done()) });
    const copy = new CopyOut(`COPY (${select}) TO STDOUT`, sink);
    void client.query(copy as never);
    await copy.finished;
    await client.end();
  }
  return { s: (performance.now() - s) / 1000, mb: copied / MB };
}

// A year of one sensor.
const year = await measured(() => exportOf(exported.dev, start, end));
console.log(`year: ${year.out.rows.toLocaleString('en-US')} rows, ${(year.out.bytes / MB).toFixed(1)} MB xlsx in ${year.s.toFixed(1)} s (${year.cpuS.toFixed(1)} s of CPU); ${rss(year)}`);
const yearCopy = await copyOf([exported.id], start, end);
console.log(`  COPY TO of the same rows: ${yearCopy.mb.toFixed(1)} MB in ${yearCopy.s.toFixed(2)} s`);

// A month of the fleet, one export a sensor, one after another.
const month = await measured(async () => {
  let rows = 0;
  let bytes = 0;
  for (const s of others) {
    const r = await exportOf(s.dev, fleetStart, end);
    rows += r.rows;
    bytes += r.bytes;
  }
  return { rows, bytes };
});
console.log(`fleet: ${FLEET} exports, ${month.out.rows.toLocaleString('en-US')} rows, ${(month.out.bytes / MB).toFixed(1)} MB xlsx in ${month.s.toFixed(1)} s (${month.cpuS.toFixed(1)} s of CPU); ${rss(month)}`);
const monthCopy = await copyOf(others.map((s) => s.id), fleetStart, end);
console.log(`  COPY TO of the same rows: ${monthCopy.mb.toFixed(1)} MB in ${monthCopy.s.toFixed(2)} s`);

// Ingest through the console's writer: 10 sensors, 100 timestamps each per message, for a while alone, then during a year's export.
const gw = await ingest.authenticate(fleet.sn, fleet.secret);
let step = 0;
async function ingestFor(ms: number, until?: Promise<unknown>): Promise<number> {
  let n = 0;
  const t0 = performance.now();
  let done = false;
  void until?.then(() => (done = true));
  while (until ? !done : performance.now() - t0 < ms) {
    const readings: DeviceReading[] = [];
    for (let k = 0; k < 100; k++) {
      const ts = end - DAY + (step + k) * 1000;
      for (const s of live) readings.push({ dev: s.dev, ts, temp: 5, hum: 50, volt: 3, rssi: null, lqi: null, gas: null, door: null });
    }
    step += 100;
    n += (await ingest.writer.submit(gw!, readings)).accepted;
  }
  return n / ((performance.now() - t0) / 1000);
}
await ingestFor(2_000); // warm-up
const alone = await ingestFor(10_000);
const during = await ingestFor(0, exportOf(exported.dev, start, end));
console.log(`ingest: ${alone.toFixed(0)} readings/s alone, ${during.toFixed(0)} readings/s during a year's export`);

const loadAtEnd = load();
console.log(`load average: ${loadAtStart} at the start, ${loadAtEnd} at the end (2 cores)`);
const mb = (b: number) => (b / MB).toFixed(0);
console.log(
  `export_s=${year.s.toFixed(1)} export_cpu_s=${year.cpuS.toFixed(1)} rows=${year.out.rows} bytes=${year.out.bytes} rss_peak_mb=${mb(year.rssPeak)} rss_before_mb=${mb(year.rssBefore)} copy_s=${yearCopy.s.toFixed(2)} ` +
    `fleet_s=${month.s.toFixed(1)} fleet_cpu_s=${month.cpuS.toFixed(1)} fleet_rows=${month.out.rows} fleet_rss_peak_mb=${mb(month.rssPeak)} fleet_rss_before_mb=${mb(month.rssBefore)} fleet_copy_s=${monthCopy.s.toFixed(2)} ` +
    `ingest_alone_rps=${alone.toFixed(0)} ingest_during_rps=${during.toFixed(0)} load="${loadAtEnd}"`,
);

await drop();
process.exit(0);
