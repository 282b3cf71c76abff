import type { Writable } from 'node:stream';
import type { Connection } from 'pg';

const PIECE = 64 * 1024;

/**
 * `COPY … TO STDOUT` over node-postgres without another dependency (the counterpart of
 * platform/db/copy.ts CopyIn): a Submittable that writes each CopyData message into `sink`.
 * When the sink is full the connection's socket is paused, so a table of any size passes
 * through a bounded amount of memory (what the socket had already read, plus one piece).
 * Settles with the row count of the CommandComplete.
 */
export class CopyOut {
  private settle!: (err?: Error) => void;
  private rows = 0;
  private connection!: Connection;
  private paused = false;
  private piece = Buffer.allocUnsafe(PIECE);
  private used = 0;
  readonly finished: Promise<number>;

  constructor(
    private readonly sql: string,
    private readonly sink: Writable,
  ) {
    this.finished = new Promise<number>((resolve, reject) => (this.settle = (err) => (err ? reject(err) : resolve(this.rows))));
  }

  submit(connection: Connection) {
    this.connection = connection;
    connection.query(this.sql);
  }

  handleCopyData(msg: { chunk: Buffer }) {
    // One message a row, gathered into pieces: each write into a gzip stream has a fixed cost.
    // The chunk is a view into the protocol parser's buffer, which it reuses: copied at once.
    const c = msg.chunk;
    if (this.used + c.length > this.piece.length) this.pass();
    if (c.length > this.piece.length) return this.send(Buffer.from(c));
    this.used += c.copy(this.piece, this.used);
  }

  /** Hands what is gathered to the sink. */
  private pass() {
    if (!this.used) return;
    const piece = this.piece.subarray(0, this.used);
    this.piece = Buffer.allocUnsafe(PIECE);
    this.used = 0;
    this.send(piece);
  }

  /** Pauses the socket while the sink is full. */
  private send(piece: Buffer) {
    if (this.sink.write(piece) || this.paused) return;
    this.paused = true;
    this.connection.stream.pause();
    this.sink.once('drain', () => {
      this.paused = false;
      this.connection.stream.resume();
    });
  }

  handleCommandComplete(msg: { text?: string }) {
    this.pass();
    this.rows = Number(/COPY (\d+)/.exec(msg.text ?? '')?.[1] ?? 0);
  }

  // As node-postgres' own Query: a server error is followed by ReadyForQuery, a lost connection is not.
  handleError(err: Error) {
    this.settle(err);
  }

  handleReadyForQuery() {
    this.settle();
  }

  handleRowDescription() {}
  handleDataRow() {}
  handleEmptyQuery() {}
  handlePortalSuspended() {}
  handleCopyInResponse() {}
}
