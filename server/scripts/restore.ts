// `npm run restore -- <file> [--database-url <url> | --data-dir <dir>]`: restores a backup of the
// backup job (modules/backup, docs/operations.md "Backups") into an EMPTY database, which the
// console then starts on. Without a flag, the database the console is configured for
// (DATABASE_URL, else DATA_DIR as the console has it). --data-dir is a DATA_DIR: the embedded
// database goes to <dir>/pg. A database or directory that holds anything is refused.
// Exit 0: restored; 1: refused or failed (nothing was made, except an empty <dir>/pg).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { restoreBackup, type RestoreTarget } from '../src/modules/backup/restore.js';

const usage = 'usage: npm run restore -- <backup file> [--database-url postgres://… | --data-dir <DATA_DIR>]';

try {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { 'database-url': { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || positionals.length !== 1 || (values['database-url'] && values['data-dir'])) {
    console.error(usage);
    process.exit(values.help ? 0 : 1);
  }
  // Only where the console keeps its database is read from the configuration; a restore seeds nothing.
  const config = loadConfig({ ROOT_PASSWORD: 'unused-by-restore', ...process.env });
  const target: RestoreTarget = values['database-url']
    ? { databaseUrl: values['database-url'] }
    : values['data-dir']
      ? { dataDir: path.resolve(values['data-dir']) }
      : config.databaseUrl
        ? { databaseUrl: config.databaseUrl }
        : { dataDir: config.dataDir };
  const file = path.resolve(positionals[0]);
  const into = 'databaseUrl' in target ? target.databaseUrl.replace(/\/\/[^@/]*@/, '//') : path.join(target.dataDir, 'pg');
  console.log(`restoring ${file}\n     into ${into}`);
  const report = await restoreBackup(file, target);
  const rows = report.rows ? Object.values(report.rows).reduce((a, b) => a + b, 0) : undefined;
  console.log(
    `restored a ${report.kind} backup in ${(report.ms / 1000).toFixed(1)} s` +
      (rows !== undefined ? `: ${Object.keys(report.rows!).length} tables, ${rows.toLocaleString('en-US')} rows` : ''),
  );
  console.log('start the console on it: ' + ('databaseUrl' in target ? 'DATABASE_URL=… npm start' : `DATA_DIR=${target.dataDir} npm start`) + ' (it applies any newer migrations)');
} catch (err) {
  console.error(`restore failed: ${(err as Error).message}`);
  process.exitCode = 1;
}
