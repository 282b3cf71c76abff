/**
 * The cost of the system log's hash chain (migration 0030, docs/security.md). On one database,
 * in one run, rows written one statement each as writeLog writes them (autocommit):
 *
 * 1. baseline: a table shaped as sys_log was before 0030 (no chain columns, no trigger, no
 *    position index);
 * 2. sys_log with its chain trigger disabled (the columns and the (customer, position) index only);
 * 3. sys_log chained, as the console runs it.
 *
 * Sequentially, then (PostgreSQL only) with BENCH_WORKERS connections at once, all writing one
 * customer's chain (they take turns on its head) and each its own customer.
 *
 * Last line: `plain_rows_per_s=… untriggered_rows_per_s=… chained_rows_per_s=… ratio=…`.
 * Env: BENCH_ROWS (5000), BENCH_WORKERS (8), BENCH_ROUNDS (3); DATABASE_URL for PostgreSQL, else PGlite in memory.
 * Run: `npx tsx bench/audit/audit.bench.ts`.
 */
import { prepareDb } from '../../server/src/platform/db/prepare.js';
import { openBenchDb } from '../ingest/db.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 5000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const bench = await openBenchDb();
const { db } = bench;
await prepareDb(db);
await db.exec(`DROP TABLE IF EXISTS bench_sys_log_plain;
  CREATE TABLE bench_sys_log_plain (
    id bigserial PRIMARY KEY, customer_id integer, user_id integer, operator varchar(50) NOT NULL DEFAULT '',
    module varchar(40) NOT NULL, method varchar(60) NOT NULL, content varchar(250) NOT NULL DEFAULT '',
    params jsonb, result smallint NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
  CREATE INDEX ON bench_sys_log_plain (customer_id, created_at DESC);`);
const tag = Date.now().toString(36).toUpperCase();
const customers: number[] = [];
for (let i = 0; i < Math.max(1, WORKERS); i++) {
  customers.push((await db.one<{ id: number }>(`INSERT INTO customer (name, code) VALUES ($1, $2) RETURNING id`, [`Bench audit ${tag} ${i}`, `AU${tag}${i}`]))!.id);
}
console.log(`${bench.label}: ${ROWS.toLocaleString('en-US')} rows per case`);

const insert = (table: string, customer: number, i: number) =>
  db.query(`INSERT INTO ${table} (customer_id, user_id, operator, module, method, content, params, result) VALUES ($1, 7, 'bench', 'carrier', 'update', $2, $3, 1)`, [
    customer,
    `update carrier Fridge ${i}`,
    JSON.stringify({ id: i, name: `Fridge ${i}`, alarmOn: true }),
  ]);

/** Rows per second for ROWS inserts spread over `workers` loops, worker w writing customer pick(w). */
async function rate(table: string, workers: number, pick: (w: number) => number): Promise<number> {
  const per = Math.ceil(ROWS / workers);
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: workers }, async (_, w) => {
    for (let i = 0; i < per; i++) await insert(table, pick(w), i);
  }));
  return (per * workers) / (Number(process.hrtime.bigint() - t0) / 1e9);
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
// A warm-up of each path, so the first case does not pay for the plans.
for (const t of ['bench_sys_log_plain', 'sys_log']) for (let i = 0; i < 200; i++) await insert(t, customers[0], i);

// The cases take turns, ROUNDS times, and each figure is the median of its rounds: the machine's
// other work (and the table growing) then weighs on every case alike.
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const runs = { plain: [] as number[], untriggered: [] as number[], chained: [] as number[] };
for (let r = 0; r < ROUNDS; r++) {
  runs.plain.push(await rate('bench_sys_log_plain', 1, () => customers[0]));
  // Rows written with the trigger off are outside the chain; they stay in this bench database only.
  await db.exec('ALTER TABLE sys_log DISABLE TRIGGER sys_log_zz_chain');
  try {
    runs.untriggered.push(await rate('sys_log', 1, () => customers[0]));
  } finally {
    await db.exec('ALTER TABLE sys_log ENABLE TRIGGER sys_log_zz_chain');
  }
  runs.chained.push(await rate('sys_log', 1, () => customers[0]));
}
const [plain, untriggered, chained] = [median(runs.plain), median(runs.untriggered), median(runs.chained)];
console.log(`one writer:   plain ${fmt(plain)} rows/s, sys_log without the trigger ${fmt(untriggered)} rows/s, chained ${fmt(chained)} rows/s (${((chained / plain) * 100).toFixed(0)}% of plain; medians of ${ROUNDS} rounds)`);

if (db.kind === 'postgres' && WORKERS > 1) {
  const plainN = await rate('bench_sys_log_plain', WORKERS, () => customers[0]);
  const oneChain = await rate('sys_log', WORKERS, () => customers[0]);
  const ownChains = await rate('sys_log', WORKERS, (w) => customers[w]);
  console.log(`${WORKERS} writers:    plain ${fmt(plainN)} rows/s, chained into one customer ${fmt(oneChain)} rows/s, each its own customer ${fmt(ownChains)} rows/s`);
}
console.log(`plain_rows_per_s=${Math.round(plain)} untriggered_rows_per_s=${Math.round(untriggered)} chained_rows_per_s=${Math.round(chained)} ratio=${(chained / plain).toFixed(2)}`);
await bench.close();
