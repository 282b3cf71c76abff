import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './client.js';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Applies the numbered SQL files in migrations/ that this database has not seen, in order, each in a transaction. */
export async function migrate(db: Db): Promise<string[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migration (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  const done = new Set((await db.query<{ name: string }>('SELECT name FROM schema_migration')).map((r) => r.name));
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  const applied: string[] = [];
  for (const file of files) {
    if (done.has(file)) continue;
    const sql = await readFile(path.join(dir, file), 'utf8');
    await db.tx(async (q) => {
      for (const stmt of splitStatements(sql)) await q.query(stmt);
      await q.query('INSERT INTO schema_migration(name) VALUES ($1)', [file]);
    });
    applied.push(file);
  }
  return applied;
}

/** Splits on semicolons at line ends, outside dollar-quoted bodies; our migrations keep to that form. */
function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inDollar = false;
  for (const line of sql.split('\n')) {
    const stripped = line.replace(/--.*$/, '');
    if ((stripped.match(/\$\$/g) ?? []).length % 2 === 1) inDollar = !inDollar;
    cur += line + '\n';
    if (!inDollar && stripped.trimEnd().endsWith(';')) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
    }
  }
  if (cur.replace(/--.*$/gm, '').trim()) out.push(cur.trim());
  return out;
}
