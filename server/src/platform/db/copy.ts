/**
 * COPY … FROM STDIN over node-postgres without another dependency: a Submittable that sends
 * the text in one stream of CopyData messages (what pg-copy-streams does, for a payload that is
 * already in memory). The ingest writer stores its batches this way: PostgreSQL parses COPY's
 * text rows about twice as fast as the same rows bound as arrays to INSERT … SELECT FROM unnest.
 */
export class CopyIn {
  private done!: (err?: Error) => void;
  readonly finished = new Promise<void>((resolve, reject) => (this.done = (err) => (err ? reject(err) : resolve())));
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
  // Settles at once, as node-postgres' own Query does: a server error is followed by
  // ReadyForQuery (the client holds the next statement until then), a lost connection is not.
  handleError(err: Error) {
    this.done(err);
  }
  handleReadyForQuery() {
    this.done();
  }
  handleRowDescription() {}
  handleDataRow() {}
  handleEmptyQuery() {}
  handlePortalSuspended() {}
  handleCopyData() {}
}

/** One value of COPY's text format: null as \N; our values are numbers, ids and ISO times, which need no escaping. */
export const copyValue = (v: number | string | null) => (v === null ? '\\N' : String(v));
