/**
 * `npm run bench:export` (docs/performance.md "Exports"): one year of one-minute readings of one
 * sensor (525,600 rows) exported as xlsx by the export job (the console's own code: keyset pages
 * through the history repository, exceljs' streaming writer, the file into download_chunk),
 * with the peak RSS during it, beside a plain COPY TO of the same rows in the same run; then
 * ingest's readings/s through the console's writer alone, and while a second export runs.
 *
 * Last line: `export_s=… rows=… bytes=… rss_peak_mb=… rss_before_mb=… copy_s=… ingest_alone_rps=… ingest_during_rps=…`.
 * Env: BENCH_DAYS (365); DATABASE_URL for PostgreSQL, else PGlite in memory.
 */
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
const MB = 2 ** 20;
// PGlite made here (not through freshDb) so that its own COPY TO '/dev/blob' is at hand for the baseline.
const lite = process.env.DATABASE_URL ? null : await PGlite.create({ parsers: pgliteParsers });
const { db, url, drop } = lite ? { db: pgliteFrom(lite), url: undefined, drop: () => lite.close() } : await freshDb(process.env.DATABASE_URL);
if (lite) await prepareDb(db);
const label = db.kind === 'postgres' ? 'PostgreSQL' : 'PGlite (in memory)';
const config = loadConfig({ DEMO: '1', LOG_LEVEL: 'warn', MQTT_URL: '' } as NodeJS.ProcessEnv);
const ingest = ingestOf({ config, db, bus: new Bus() });

const end = Math.floor(Date.now() / 60_000) * 60_000 - 60_000;
const start = end - DAYS * 86_400_000;
const rows = DAYS * 1440;
const [cust] = await db.query<{ id: number }>(`INSERT INTO customer (name, code) VALUES ('Bench export', 'BEXP') RETURNING id`);
const [user] = await db.query<{ id: number }>(`INSERT INTO app_user (customer_id, account, name, password_hash, user_type, is_admin) VALUES ($1, 'benchexport', 'Bench', 'x', 1, true) RETURNING id`, [cust.id]);
const fleet = await enrol(db, cust.id, 11);
const [exported, ...live] = fleet.sensors;
console.log(`${label}: ${rows.toLocaleString('en-US')} readings of one sensor over ${DAYS} days`);

let t = Date.now();
await new Partitions(db).ensureFor(Array.from({ length: Math.ceil(DAYS / 28) + 2 }, (_, i) => start + i * 28 * 86_400_000).concat(end));
for (let i = 0; i < rows; i += 100_000) {
  await db.query(
    `INSERT INTO reading (sensor_id, ts, customer_id, temp, hum)
     SELECT $1, to_timestamp(($2::bigint + g::bigint * 60000) / 1000.0), $3, 4 + sin(g / 97.0) * 2, 50 FROM generate_series($4::int, $4::int + $5 - 1) g`,
    [exported.id, start, cust.id, i, Math.min(100_000, rows - i)],
  );
}
console.log(`inserted in ${((Date.now() - t) / 1000).toFixed(1)} s`);

/** One export of the year, as the job runs it; answers its seconds, rows and bytes. */
async function exportYear() {
  const rec = await createRecord(db, { customerId: cust.id, userId: user.id, kind: 'export', source: 'history', name: 'bench.xlsx', format: 'xlsx', criteria: { deviceNo: exported.dev, start, end, locale: 'en-US' } });
  const s = performance.now();
  const cpu = process.cpuUsage();
  const r = await runExport(db, { recordId: rec.id, customerId: cust.id, scope: { customerIds: null, sceneIds: null } });
  const used = process.cpuUsage(cpu);
  // CPU seconds of this process (PGlite runs in it): what the export costs on a machine shared with other work.
  return { s: (performance.now() - s) / 1000, cpuS: (used.user + used.system) / 1e6, rows: Number(r.rows), bytes: Number(r.bytes) };
}

// The export, with the process's resident memory sampled every 50 ms.
global.gc?.();
const rssBefore = process.memoryUsage().rss;
let rssPeak = rssBefore;
const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 50);
const ex = await exportYear();
clearInterval(sampler);
console.log(`export: ${ex.rows.toLocaleString('en-US')} rows, ${(ex.bytes / MB).toFixed(1)} MB xlsx in ${ex.s.toFixed(1)} s (${ex.cpuS.toFixed(1)} s of CPU); RSS ${(rssBefore / MB).toFixed(0)} MB before, peak ${(rssPeak / MB).toFixed(0)} MB`);

// Baseline: a plain COPY TO of the same rows, the fastest the database hands them out.
t = performance.now();
let copied = 0;
if (lite) {
  const sql = `COPY (SELECT ts, temp, hum FROM reading WHERE sensor_id = ${exported.id} AND ts >= '${new Date(start).toISOString()}' AND ts <= '${new Date(end).toISOString()}' ORDER BY ts) TO '/dev/blob'`;
  copied = (await lite!.query(sql)).blob?.size ?? 0;
} else {
  const pg = (await import('pg')).default;
  const { CopyOut } = await import('../../server/src/modules/backup/pgCopyOut.js');
  const { Writable } = await import('node:stream');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const sink = new Writable({ write: (c: Buffer, _e, done) => ((copied += c.length), done()) });
  const copy = new CopyOut(`COPY (SELECT ts, temp, hum FROM reading WHERE sensor_id = ${exported.id} ORDER BY ts) TO STDOUT`, sink);
  void client.query(copy as never);
  await copy.finished;
  await client.end();
}
const copyS = (performance.now() - t) / 1000;
console.log(`COPY TO of the same rows: ${(copied / MB).toFixed(1)} MB in ${copyS.toFixed(1)} s`);

// Ingest through the console's writer: 10 sensors, 100 timestamps each per message, for a while alone, then during an export.
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
      const ts = end - 86_400_000 + (step + k) * 1000;
      for (const s of live) readings.push({ dev: s.dev, ts, temp: 5, hum: 50, volt: 3, rssi: null, lqi: null, gas: null, door: null });
    }
    step += 100;
    n += (await ingest.writer.submit(gw!, readings)).accepted;
  }
  return n / ((performance.now() - t0) / 1000);
}
await ingestFor(2_000); // warm-up
const alone = await ingestFor(10_000);
const during = await ingestFor(0, exportYear());
console.log(`ingest: ${alone.toFixed(0)} readings/s alone, ${during.toFixed(0)} readings/s during an export`);

console.log(
  `export_s=${ex.s.toFixed(1)} export_cpu_s=${ex.cpuS.toFixed(1)} rows=${ex.rows} bytes=${ex.bytes} rss_peak_mb=${(rssPeak / MB).toFixed(0)} rss_before_mb=${(rssBefore / MB).toFixed(0)} copy_s=${copyS.toFixed(2)} ingest_alone_rps=${alone.toFixed(0)} ingest_during_rps=${during.toFixed(0)}`,
);

await drop();
process.exit(0);
