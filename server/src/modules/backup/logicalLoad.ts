import type { Queryable } from '../../platform/db/client.js';
import { copyTarget, LOGICAL_FORMAT, LOGICAL_VERSION, MARK, type LogicalHeader } from './logical.js';

/*
 * Reads a logical dump (logical.ts) into an empty database, on PostgreSQL or PGlite alike: the
 * SQL parts run as they are, each table's rows go in with COPY in pieces of a few MB (a table
 * of any size passes through bounded memory), and the row counts of the file's last part are
 * checked against what was loaded. The caller runs it in one transaction, so a damaged or cut
 * file leaves the database as empty as it was.
 */

/** COPY rows are sent in pieces of about this many bytes. */
const PIECE = 8 << 20;
const COPY_END = Buffer.from('\\.');

type Part = { part: 'schema' | 'migration' | 'prepare' | 'finish' } | { part: 'copy'; table: string; columns: string[] } | { part: 'end'; rows: Record<string, number> };

export class BadBackup extends Error {}

export interface Loaded {
  header: LogicalHeader;
  rows: Record<string, number>;
}

class Loader {
  private mode: 'header' | 'sql' | 'copyStart' | 'copy' | 'between' | 'ended' = 'header';
  private sql: string[] = [];
  private copy: { target: string; table: string; piece: Buffer[]; size: number; rows: number } | undefined;
  header: LogicalHeader | undefined;
  readonly rows: Record<string, number> = {};

  constructor(private readonly q: Queryable) {}

  /** One line of the file; a promise only when the line made work for the database. */
  line(buf: Buffer): Promise<void> | void {
    if (this.mode === 'copy') return this.copyLine(buf);
    const text = buf.toString('utf8');
    if (text.startsWith(MARK)) return this.part(JSON.parse(text.slice(MARK.length)));
    if (this.mode === 'header') throw new BadBackup('this is not a Coldwatch backup (its first line is not the header of a logical backup)');
    if (this.mode === 'sql') this.sql.push(text);
    else if (this.mode === 'copyStart') {
      if (!text.startsWith('COPY ')) throw new BadBackup(`a COPY statement was expected for table ${this.copy!.table}`);
      this.mode = 'copy';
    } else if (text.trim()) throw new BadBackup(`unexpected text outside the backup's parts: ${text.slice(0, 80)}`);
  }

  private copyLine(buf: Buffer): Promise<void> | void {
    const c = this.copy!;
    if (buf.equals(COPY_END)) {
      this.mode = 'between';
      return this.flush().then(() => void (this.rows[c.table] = c.rows));
    }
    // The line is a view into the read buffer: kept until the piece is sent, which is soon.
    c.piece.push(buf);
    c.size += buf.length + 1;
    c.rows++;
    if (c.size >= PIECE) return this.flush();
  }

  private async flush() {
    const c = this.copy!;
    if (!c.piece.length) return;
    const text = c.piece.map((b) => b.toString('utf8')).join('\n') + '\n';
    c.piece = [];
    c.size = 0;
    await this.q.copyIn(c.target, text);
  }

  private async part(p: (Part & Record<string, unknown>) | (LogicalHeader & { part?: undefined })) {
    if (this.mode === 'header') {
      const h = p as LogicalHeader;
      if (h.format !== LOGICAL_FORMAT) throw new BadBackup('this is not a Coldwatch logical backup');
      if (!(h.version <= LOGICAL_VERSION)) throw new BadBackup(`this backup was written in format ${h.version} by a newer console; restore it with that version`);
      this.header = h;
      // What follows the header (a comment, the session settings) runs like any SQL part.
      this.mode = 'sql';
      return;
    }
    if (this.mode === 'copy' || this.mode === 'copyStart') throw new BadBackup(`the rows of table ${this.copy!.table} end without their end mark`);
    if (this.mode === 'ended') throw new BadBackup('the backup goes on after its end');
    await this.runSql();
    const next = p as Part;
    if (next.part === 'copy') {
      this.copy = { target: copyTarget(next.table, next.columns), table: next.table, piece: [], size: 0, rows: 0 };
      this.mode = 'copyStart';
    } else if (next.part === 'end') {
      this.checkCounts(next.rows);
      this.mode = 'ended';
    } else this.mode = 'sql';
  }

  private async runSql() {
    const text = this.sql.join('\n');
    this.sql = [];
    if (text.trim()) await this.q.exec(text);
  }

  private checkCounts(expected: Record<string, number>) {
    for (const table of new Set([...Object.keys(expected), ...Object.keys(this.rows)])) {
      if (expected[table] !== this.rows[table]) throw new BadBackup(`table ${table}: the backup records ${expected[table] ?? 'no'} rows, ${this.rows[table] ?? 'none'} were read`);
    }
  }

  finish(): Loaded {
    if (this.mode !== 'ended') throw new BadBackup('the backup ends before its last part: the file is incomplete');
    return { header: this.header!, rows: this.rows };
  }
}

/** Loads the (inflated) logical dump `input` through `q`, which should be one transaction on an empty database. */
export async function loadLogical(input: AsyncIterable<Buffer>, q: Queryable): Promise<Loaded> {
  const loader = new Loader(q);
  let rest: Buffer | undefined;
  for await (const chunk of input) {
    const buf = rest ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, start)) {
      const pending = loader.line(buf.subarray(start, i));
      if (pending) await pending;
      start = i + 1;
    }
    rest = start < buf.length ? buf.subarray(start) : undefined;
  }
  if (rest?.length) await loader.line(rest);
  return loader.finish();
}
