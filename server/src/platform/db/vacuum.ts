import type { Db } from './client.js';

/**
 * The embedded database's vacuum and statistics (job `vacuum` in jobs/index.ts, docs/jobs.md). PGlite is
 * PostgreSQL in one process without background workers: no autovacuum ever runs, so tables that
 * are rewritten all day (a sensor's row at each reading, the alarm queue, jobs, sessions) keep
 * every dead row version, and no table ever gets planner statistics (pg_class.reltuples stays -1):
 * every plan is a guess, and an export's keyset read over a grown partition fell back to a scan
 * and sort (72 s of CPU instead of 7 for a year, issue 30). This job does what autovacuum does on
 * PostgreSQL, where it does nothing: VACUUM (ANALYZE) each table, one statement per table so that
 * ingest takes its turns between them (PGlite runs one statement at a time); a partitioned table's
 * statement covers its partitions, whose all-visible pages a repeat pass skips.
 */
export async function vacuumEmbedded(db: Db): Promise<{ tables: number; engine: Db['kind'] }> {
  if (db.kind !== 'pglite') return { tables: 0, engine: db.kind };
  const tables = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c
      WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1`,
  );
  // Names from the catalogue, quoted as identifiers: VACUUM takes no parameters.
  for (const { name } of tables) await db.exec(`VACUUM (ANALYZE) "${name.replace(/"/g, '""')}"`);
  return { tables: tables.length, engine: db.kind };
}
