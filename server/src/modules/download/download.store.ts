import { createHash } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import type { Queryable } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';

/*
 * The file store of the download centre (migration 0050, docs/exports.md "The file store"): a
 * file is its record's chunks in `download_chunk`, 256 KiB a row, written in order as the file
 * is made and read back in order as it is sent. In the database, so any replica serves any
 * file, a backup holds them, and retention removes a file with its record (ON DELETE CASCADE).
 *
 * Each chunk is one short INSERT of its own (never one long transaction): on PGlite, whose one
 * connection ingest shares, a 20 MB export is eighty short statements between the readings'.
 */

/** Bytes a chunk holds (all but the last). */
export const CHUNK_BYTES = 256 * 1024;

/** What a finished file is: its size and its SHA-256 (checked again on every download). */
export interface StoredFile {
  size: number;
  sha256: string;
}

/** The customer a record's rows are of: every statement of the store is held to it. */
const ownScope = (customerId: number) => ({ customerIds: [customerId] });

/**
 * A sink that stores what is written to it as the record's chunks: each full chunk is inserted
 * before the next write is taken (backpressure), the last one on end. `stored()` answers the
 * file's size and SHA-256 once it has ended.
 */
export class ChunkSink extends Writable {
  private parts: Buffer[] = [];
  private held = 0;
  private seq = 0;
  private size = 0;
  private readonly hash = createHash('sha256');

  constructor(
    private readonly q: Queryable,
    private readonly record: { id: number; customerId: number },
  ) {
    super({ highWaterMark: CHUNK_BYTES });
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void) {
    this.parts.push(chunk);
    this.held += chunk.length;
    if (this.held < CHUNK_BYTES) return done();
    this.flush(false).then(() => done(), done);
  }

  override _final(done: (err?: Error | null) => void) {
    this.flush(true).then(() => done(), done);
  }

  private async flush(last: boolean) {
    let all = Buffer.concat(this.parts);
    this.parts = [];
    this.held = 0;
    while (all.length >= CHUNK_BYTES || (last && all.length > 0)) {
      const data = all.subarray(0, CHUNK_BYTES);
      all = all.subarray(data.length);
      this.hash.update(data);
      this.size += data.length;
      await scoped(this.q, ownScope(this.record.customerId))
        .insertInto('download_chunk')
        .values({ record_id: this.record.id, seq: this.seq++, customer_id: this.record.customerId, data: Buffer.from(data) })
        .execute();
    }
    if (all.length) {
      this.parts = [all];
      this.held = all.length;
    }
  }

  /** The file as stored; only after the sink finished. */
  stored(): StoredFile {
    return { size: this.size, sha256: this.hash.digest('hex') };
  }
}

/** What makes a file: its bytes at once, a stream of them, or a writer given the sink. */
export type Produce = Buffer | Uint8Array | Readable | ((out: Writable) => Promise<void>);

/** Writes what `produce` makes into the record's chunks; answers the stored file. Chunks of an earlier try are removed first. */
export async function writeChunks(q: Queryable, record: { id: number; customerId: number }, produce: Produce): Promise<StoredFile> {
  await removeChunks(q, record);
  const sink = new ChunkSink(q, record);
  if (typeof produce === 'function') {
    // Listened to from the start: a chunk that cannot be stored (a full disk) fails the writer's
    // own writes and end() too, but an 'error' event nobody hears would be an uncaught exception.
    const finished = new Promise<void>((resolve, reject) => {
      sink.once('finish', resolve);
      sink.once('error', reject);
    });
    finished.catch(() => undefined);
    await produce(sink);
    if (!sink.writableEnded) sink.end();
    await finished;
  } else {
    await pipeline(produce instanceof Readable ? produce : Readable.from([Buffer.from(produce)]), sink);
  }
  return sink.stored();
}

/** A file whose making failed or was cut off leaves nothing behind. */
export async function removeChunks(q: Queryable, record: { id: number; customerId: number }) {
  await scoped(q, ownScope(record.customerId)).deleteFrom('download_chunk').where('record_id', '=', record.id).execute();
}

/** The chunks a file has and their bytes: a stored file whose chunks do not add up to its size is missing or corrupt. */
export async function chunkTotals(q: Queryable, record: { id: number; customerId: number }) {
  const r = await scoped(q, ownScope(record.customerId))
    .selectFrom('download_chunk')
    .select([sql<number>`count(*)::int`.as('n'), sql<number>`coalesce(sum(length(data)), 0)::bigint`.as('bytes')])
    .where('record_id', '=', record.id)
    .executeTakeFirstOrThrow();
  return { chunks: r.n, bytes: Number(r.bytes) };
}

/** Chunks read at once while sending: 1 MiB a statement. */
const READ_BATCH = 4;

/**
 * The file's bytes in order, read a few chunks at a time as the client takes them. Its SHA-256
 * is checked at the end: a file changed in the database since it was made ends the answer with
 * an error instead of completing it (the client sees a broken download, never a wrong file).
 */
export function readChunks(q: Queryable, record: { id: number; customerId: number }, file: StoredFile): Readable {
  const hash = createHash('sha256');
  let next = 0;
  return new Readable({
    async read() {
      try {
        const rows = await scoped(q, ownScope(record.customerId))
          .selectFrom('download_chunk')
          .select(['seq', 'data'])
          .where('record_id', '=', record.id)
          .where('seq', '>=', next)
          .orderBy('seq')
          .limit(READ_BATCH)
          .execute();
        for (const r of rows) {
          if (r.seq !== next) throw new Error(`download ${record.id}: chunk ${next} is missing`);
          next++;
          hash.update(r.data);
          this.push(r.data);
        }
        if (rows.length < READ_BATCH) {
          if (hash.digest('hex') !== file.sha256) throw new Error(`download ${record.id}: the file does not match its SHA-256`);
          this.push(null);
        }
      } catch (err) {
        this.destroy(err as Error);
      }
    },
  });
}
