/** The bench's database: the server's Db plus a raw COPY into `reading`, on PostgreSQL or PGlite. */
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { pgliteFrom, pgliteParsers, postgresDb, type Db } from '../../server/src/platform/db/client.js';
import { CopyIn } from '../../server/src/platform/db/copy.js';

export interface BenchDb {
  db: Db;
  label: string;
  /** COPY reading (cols) FROM STDIN with this tab-separated text, or these rows of the binary format. */
  copy(columns: string, data: string | Buffer): Promise<void>;
  close(): Promise<void>;
}

export async function openBenchDb(): Promise<BenchDb> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const db = postgresDb(url, 10);
    return {
      db,
      label: `PostgreSQL ${url.replace(/\/\/[^@/]*@/, '//')}`,
      async copy(columns, data) {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          const binary = typeof data !== 'string';
          const q = new CopyIn(`COPY reading (${columns}) FROM STDIN${binary ? ' WITH (FORMAT binary)' : ''}`, binary ? data : Buffer.from(data));
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
    async copy(columns, data) {
      const binary = typeof data !== 'string';
      await lite.query(`COPY reading (${columns}) FROM '/dev/blob'${binary ? ' WITH (FORMAT binary)' : ''}`, [], { blob: new Blob([binary ? new Uint8Array(data) : data]) });
    },
    close: () => lite.close(),
  };
}
