import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../../platform/db/client.js';
import { writeLog } from '../../platform/audit/audit.js';
import { seedDemo } from '../../demo/seed.js';
import { Partitions } from '../../ingest/partitions.js';

/* What the backup tests share: a database worth backing up, and a comparison of two databases. */

export const tempDir = (tag: string) => mkdtemp(path.join(os.tmpdir(), `cw-${tag}-`));

/**
 * The demo customer (scenes, carriers, devices, seven days of readings across month
 * partitions, exceptions) plus system-log rows in two chains, so that the hash chain, the
 * partitions and the sequences all have something to lose.
 */
export async function fillForBackup(db: Db) {
  const seeded = await seedDemo(db);
  for (let i = 0; i < 3; i++) await writeLog(db, undefined, { module: 'backup-test', method: 'fill', content: `platform row ${i}` }, 1);
  await db.query(`INSERT INTO sys_log (customer_id, operator, module, method, content, params, result) VALUES ($1, 'demo', 'backup-test', 'fill', 'customer row', '{}', 1)`, [seeded.customerId]);
  // A reading in next month's partition, made the way ingest makes it (so at least two partitions hold rows).
  const now = new Date();
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 3);
  await new Partitions(db).ensureFor([next]);
  await db.query(`INSERT INTO reading (sensor_id, ts, customer_id, temp) SELECT id, $1, customer_id, 4.25 FROM sensor ORDER BY id LIMIT 1`, [new Date(next).toISOString()]);
  return seeded;
}

export interface Fingerprint {
  /** Row count of every table of the schema, partitions included. */
  counts: Record<string, number>;
  /** Rows of the partitioned `reading` (its partitions are among `counts`). */
  readings: number;
  lastReading: unknown;
  /** Each sequence's next value would not collide: its value is at least the largest id of its table. */
  sequences: Record<string, number>;
}

export async function fingerprint(db: Db): Promise<Fingerprint> {
  const tables = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r' ORDER BY 1`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables) counts[name] = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${name}"`))[0].n;
  const [{ readings }] = await db.query<{ readings: number }>(`SELECT count(*)::int AS readings FROM reading`);
  const [lastReading] = await db.query(`SELECT sensor_id, (extract(epoch from ts) * 1000)::bigint AS ts, temp, hum, customer_id FROM reading ORDER BY ts DESC, sensor_id DESC LIMIT 1`);
  const seqs = await db.query<{ name: string; v: number | null }>(`SELECT sequencename AS name, last_value AS v FROM pg_sequences WHERE schemaname = current_schema() ORDER BY 1`);
  return { counts, readings, lastReading, sequences: Object.fromEntries(seqs.map((s) => [s.name, Number(s.v ?? 0)])) };
}
