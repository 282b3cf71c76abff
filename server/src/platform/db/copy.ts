import type { Connection } from 'pg';

/** node-postgres' connection as COPY FROM STDIN drives it: these two are in its Connection, not in its types. */
type CopyInConnection = Connection & { sendCopyFromChunk(chunk: Buffer): void; endCopyFrom(): void };

/**
 * COPY … FROM STDIN over node-postgres without another dependency: a Submittable that sends
 * the text in one stream of CopyData messages (what pg-copy-streams does, for a payload that is
 * already in memory). The ingest writer stores its batches this way, in the binary format
 * below: PostgreSQL takes COPY's text rows about twice as fast as the same rows bound as arrays
 * to INSERT … SELECT FROM unnest, and binary rows faster again (nothing to parse).
 */
export class CopyIn {
  private done!: (err?: Error) => void;
  readonly finished = new Promise<void>((resolve, reject) => (this.done = (err) => (err ? reject(err) : resolve())));
  constructor(
    private sql: string,
    private data: Buffer,
  ) {}
  submit(connection: Connection) {
    connection.query(this.sql);
  }
  handleCopyInResponse(connection: CopyInConnection) {
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

/** Microseconds from the Unix epoch to PostgreSQL's (2000-01-01), for binary timestamps. */
const PG_EPOCH_US = 946_684_800_000_000n;
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

export type BinaryType = 'int4' | 'int2' | 'float4' | 'timestamptz';
const SIZE: Record<BinaryType, number> = { int4: 4, int2: 2, float4: 4, timestamptz: 8 };

/**
 * Rows in COPY's binary format (PostgreSQL's "Binary Format" of COPY): nothing for the server
 * to parse, where the text format spends its time in float and timestamp input. A float4 is
 * written as JavaScript rounds the double to single precision (Math.fround), which for our values
 * (at most six decimals, rounded by the protocol) is exactly what float4 input makes of their text.
 * Times are epoch milliseconds.
 */
export function copyBinary(types: readonly BinaryType[], rows: number, value: (row: number, col: number) => number | null): Buffer {
  const rowMax = 2 + types.reduce((n, t) => n + 4 + SIZE[t], 0);
  const buf = Buffer.allocUnsafe(SIGNATURE.length + 8 + rows * rowMax + 2);
  let o = SIGNATURE.copy(buf, 0);
  o = buf.writeInt32BE(0, o);
  o = buf.writeInt32BE(0, o);
  for (let r = 0; r < rows; r++) {
    o = buf.writeInt16BE(types.length, o);
    for (let c = 0; c < types.length; c++) {
      const v = value(r, c);
      if (v === null) {
        o = buf.writeInt32BE(-1, o);
        continue;
      }
      const t = types[c];
      o = buf.writeInt32BE(SIZE[t], o);
      if (t === 'int4') o = buf.writeInt32BE(v, o);
      else if (t === 'int2') o = buf.writeInt16BE(v, o);
      else if (t === 'float4') o = buf.writeFloatBE(v, o);
      else o = buf.writeBigInt64BE(BigInt(v) * 1000n - PG_EPOCH_US, o);
    }
  }
  o = buf.writeInt16BE(-1, o);
  return buf.subarray(0, o);
}

/** A value of COPY's text format: backslash, newline, carriage return and tab escaped, null as \N. */
const copyField = (v: string | number | null) =>
  v === null ? '\\N' : typeof v === 'number' ? String(v) : v.replace(/[\\\n\r\t]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t'));

/**
 * Rows in COPY's text format, for rows with text columns (the binary format above has no text
 * type): cheaper to send than the same rows bound as arrays to INSERT … FROM unnest, which
 * node-postgres must quote element by element and PostgreSQL parse back.
 */
export function copyText(rows: readonly (readonly (string | number | null)[])[]): string {
  let out = '';
  for (const row of rows) out += row.map(copyField).join('\t') + '\n';
  return out;
}
