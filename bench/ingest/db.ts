/** The bench's database: the server's Db plus a raw COPY into `reading`, on PostgreSQL or PGlite. */
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { pgliteFrom, pgliteParsers, postgresDb, type Db } from '../../server/src/platform/db/client.js';

export interface BenchDb {
  db: Db;
  label: string;
  /** COPY reading (cols) FROM STDIN with this tab-separated text. */
  copy(columns: string, text: string): Promise<void>;
  close(): Promise<void>;
}

/** A node-postgres Submittable that streams text into COPY … FROM STDIN (pg-copy-streams in thirty lines). */
class CopyIn {
  private done!: (err?: Error) => void;
  readonly finished = new Promise<void>((resolve, reject) => (this.done = (err) => (err ? reject(err) : resolve())));
  private error?: Error;
  constructor(
    private sql: string,
    private data: Buffer,
  ) {}
  submit(connection: any) {
    connection.query(this.sql);
  }
  handleCopyInResponse(connection: any) {
    const CHUNK = 1 << 20;
    for (let i = 0; i < this.data.length; i += CHUNK) connection.sendCopyFromChunk(this.data.subarray(i, i + CHUNK));
    connection.endCopyFrom();
  }
  handleCommandComplete() {}
  handleError(err: Error) {
    this.error = err;
  }
  handleReadyForQuery() {
    this.done(this.error);
  }
  handleRowDescription() {}
  handleDataRow() {}
  handleEmptyQuery() {}
  handlePortalSuspended() {}
  handleCopyData() {}
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
