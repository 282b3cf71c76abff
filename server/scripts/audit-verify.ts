// `npm run audit:verify`: recomputes every chain of the system log (platform/audit/chain.ts)
// on the database the console uses (DATABASE_URL, else the embedded one under DATA_DIR) and
// names each changed, inserted or deleted row with its customer. Exit 0: every chain intact;
// 1: findings; 2: the check could not run. It reads only: no migration, no seeding.
// The embedded database (PGlite) admits one process: stop the console before checking it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { openDb, type Db } from '../src/platform/db/client.js';
import { verifyLog } from '../src/platform/audit/chain.js';

// The console wants a root password to seed an empty database; a check seeds nothing.
const config = loadConfig({ ROOT_PASSWORD: 'unused-by-audit-verify', ...process.env });
const where = config.databaseUrl ? config.databaseUrl.replace(/\/\/[^@/]*@/, '//') : path.join(config.dataDir, 'pg');

let db: Db | undefined;
try {
  // Opening a directory that holds no database would make one.
  if (!config.databaseUrl && !existsSync(where)) throw new Error('no database there (set DATABASE_URL or DATA_DIR as the console has them)');
  db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? undefined : path.join(config.dataDir, 'pg') });
  const [{ present }] = await db.query<{ present: boolean }>(`SELECT to_regclass('sys_log_chain') IS NOT NULL AS present`);
  if (!present) throw new Error(`${where} has no system-log chain (migration 0030 not applied: start the console once first)`);
  const report = await verifyLog(db);
  const names = new Map((await db.query<{ id: number; name: string }>('SELECT id, name FROM customer')).map((c) => [c.id, c.name]));
  const who = (id: number | null) => (id === null ? 'no customer (platform rows)' : `customer ${id}${names.has(id) ? ` (${names.get(id)})` : ' (deleted)'}`);

  console.log(`system log at ${where}: ${report.rows.toLocaleString('en-US')} rows in ${report.chains} chains`);
  for (const f of report.findings) console.log(`${f.kind.toUpperCase().padEnd(8)} ${who(f.customerId)}: ${f.message}`);
  // Noted down elsewhere, the heads also catch a rewrite of a chain's whole tail, head included.
  for (const h of report.heads) console.log(`head     ${who(h.customerId)}: position ${h.lastSeq}, row #${h.lastId ?? '-'}, ${h.lastHash}`);
  if (report.findings.length) {
    console.log(`${report.findings.length} finding${report.findings.length > 1 ? 's' : ''}: the system log was changed outside the console`);
    process.exitCode = 1;
  } else console.log('every chain is intact');
} catch (err) {
  console.error(`audit:verify could not check ${where}: ${(err as Error).message}`);
  process.exitCode = 2;
} finally {
  await db?.close();
}
