/** The bench's database: the server's Db plus a raw COPY into `reading`, on PostgreSQL or PGlite. */
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { pgliteFrom, pgliteParsers, postgresDb, type Db } from '../../server/src/platform/db/client.js';
import { CopyIn } from '../../server/src/platform/db/copy.js';

export interface BenchDb {
  db: Db;
  label: string;
  /** COPY reading (cols) FROM STDIN with this tab-separated text. */
  copy(columns: string, text: string): Promise<void>;
  close(): Promise<void>;
}

export async function openBenchDb(): Promise<BenchDb> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const db = postgresDb(url, 10);
    return {
      db,
      label: `PostgreSQL ${url.replace(/\/\/[^@/]*@/, '//')}`,
      async copy(columns, text) {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          const q = new CopyIn(`COPY reading (${columns}) FROM STDIN`, Buffer.from(text));
          client.query(q as any);
          await q.finished;
        } finally {
          await client.end();
        }
      },
      close: () => db.close(),
    };
  }
  const lite = await PGlite.create({ parsers: pgliteParsers });
  const db: Db = pgliteFrom(lite);
  return {
    db,
    label: 'PGlite (in memory)',
    async copy(columns, text) {
      await lite.query(`COPY reading (${columns}) FROM '/dev/blob'`, [], { blob: new Blob([text]) });
    },
    close: () => lite.close(),
  };
}
