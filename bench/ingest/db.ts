/** The bench's database: the server's Db (its copyIn is the raw COPY baselines' too), on PostgreSQL or PGlite. */
import { PGlite } from '@electric-sql/pglite';
import { pgliteFrom, pgliteParsers, postgresDb, type Db } from '../../server/src/platform/db/client.js';

export interface BenchDb {
  db: Db;
  label: string;
  close(): Promise<void>;
}

export async function openBenchDb(): Promise<BenchDb> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const db = postgresDb(url, 10);
    return { db, label: `PostgreSQL ${url.replace(/\/\/[^@/]*@/, '//')}`, close: () => db.close() };
  }
  const lite = await PGlite.create({ parsers: pgliteParsers });
  return { db: pgliteFrom(lite), label: 'PGlite (in memory)', close: () => lite.close() };
}
