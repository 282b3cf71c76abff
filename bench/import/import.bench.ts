/**
 * Sensor import of 5,000 rows (issue 10: "5,000 rows import in under 10 s"), timed through the
 * console's own import (`importSensors()`: read the xlsx, check every row, insert) beside two
 * baselines measured in the same run: reading the same workbook with exceljs alone, and a raw
 * INSERT … SELECT FROM unnest of the same 5,000 rows.
 *
 * Last line: `import_ms=… parse_ms=… raw_insert_ms=… rows=…`.
 * Env: BENCH_ROWS (5000); DATABASE_URL for PostgreSQL, else PGlite in memory.
 */
import ExcelJS from 'exceljs';
import { prepareDb } from '../../server/src/platform/db/prepare.js';
import { importSensors } from '../../server/src/modules/sensor/sensor.import.js';
import type { Scope } from '../../server/src/platform/auth/scope.js';
import { openBenchDb } from '../ingest/db.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 5000);
const bench = await openBenchDb();
const { db } = bench;
await prepareDb(db);

const tag = Date.now().toString(36).toUpperCase();
const [cust] = await db.query<{ id: number }>(`INSERT INTO customer (name, code) VALUES ($1, $2) RETURNING id`, [`Bench import ${tag}`, `I${tag}`]);
const sn = `B${tag}`.padEnd(12, '0').slice(0, 12).replace(/[^0-9A-F]/g, 'A');
await db.query(`INSERT INTO gateway (customer_id, sn, name, secret_hash) VALUES ($1, $2, 'bench', 'x')`, [cust.id, sn]);

const wb = new ExcelJS.Workbook();
const ws = wb.addWorksheet('Sensors');
ws.addRow(['Device number', 'Type', 'Gateway serial number', 'Monitoring point', 'Sample interval (s)', 'Description']);
for (let i = 0; i < ROWS; i++) ws.addRow([`I${tag}${String(i).padStart(6, '0')}`.slice(0, 30), 'zigbee_th', sn, '', 60, `bench ${i}`]);
const file = Buffer.from(await wb.xlsx.writeBuffer());
console.log(`${bench.label}: ${ROWS} rows, ${(file.length / 1024).toFixed(0)} KB xlsx`);

let t = performance.now();
const parsed = new ExcelJS.Workbook();
await parsed.xlsx.load(file as unknown as ArrayBuffer);
const parseMs = performance.now() - t;

const scope: Scope = { userId: 1, account: 'bench', name: 'bench', customerId: cust.id, homeCustomerId: cust.id, userType: 1, isAdmin: true, customerIds: [cust.id], sceneIds: null, funcs: new Set() };
t = performance.now();
const r = await db.tx((q) => importSensors(q, scope, file));
const importMs = performance.now() - t;
if (r.imported !== ROWS) throw new Error(`imported ${r.imported} of ${ROWS}`);

// Baseline: the same rows straight into the table, no file, no checks.
const [gw] = await db.query<{ id: number }>('SELECT id FROM gateway WHERE sn = $1', [sn]);
const nums = Array.from({ length: ROWS }, (_, i) => `R${tag}${String(i).padStart(6, '0')}`.slice(0, 30));
t = performance.now();
await db.query(
  `INSERT INTO sensor (customer_id, dev_no, type, description, gateway_id, sample_interval)
   SELECT $1, d, 'zigbee_th', '', $3, 60 FROM unnest($2::text[]) d`,
  [cust.id, nums, gw.id],
);
const rawMs = performance.now() - t;

await bench.close();
console.log(`import_ms=${importMs.toFixed(0)} parse_ms=${parseMs.toFixed(0)} raw_insert_ms=${rawMs.toFixed(0)} rows=${ROWS}`);
