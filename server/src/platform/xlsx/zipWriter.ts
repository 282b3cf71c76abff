import type { Writable } from 'node:stream';
import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * A zip container written as a stream, for the xlsx files of exports (workbookWriter.ts): each
 * entry is a local header, its deflated bytes as they are made, and a data descriptor with its
 * CRC and sizes (general-purpose flag bit 3: nothing has to be known before the data, nothing is
 * held); the central directory follows the last entry.
 *
 * An entry is deflated a piece at a time (the caller hands pieces of a few hundred KB), each
 * piece ending on a sync flush so that the pieces join into one deflate stream; the last ends it.
 * Synchronous on purpose: a piece is a few milliseconds, and writing stays a plain call that
 * the sheet writer can make between rows. The output's pace is the caller's to keep (wait for
 * its 'drain' between pages). No zip64: an entry or file past 4 GiB is refused; an export holds
 * at most about a million rows, a few hundred MB of XML.
 */

const LOCAL = 0x04034b50;
const DESCRIPTOR = 0x08074b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
/** Bit 3: CRC and sizes in the data descriptor after the data; bit 11: the name is UTF-8. */
const FLAGS = 0x0808;
const DEFLATE = 8;
const VERSION = 20;
const MAX_32 = 0xffffffff;
/** A final deflate block with nothing in it: ends an entry's stream. */
const LAST_BLOCK = deflateRawSync(Buffer.alloc(0));

const tooLarge = () => new Error('the file would pass 4 GiB, which a zip without zip64 cannot hold');

interface Written {
  name: Buffer;
  crc: number;
  packed: number;
  size: number;
  offset: number;
}

/** MS-DOS time and date, as zip headers keep them (local wall clock, two-second steps). */
function dosStamp(d: Date): { time: number; date: number } {
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | (d.getSeconds() >> 1),
    date: (Math.max(0, d.getFullYear() - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

export class ZipWriter {
  private offset = 0;
  private readonly written: Written[] = [];
  private current: (Written & { level: number }) | null = null;
  private readonly stamp = dosStamp(new Date());

  constructor(private readonly out: Writable) {}

  /** Starts an entry (the one before is ended); `level` is zlib's, 6 its default. */
  entry(name: string, level = 6): void {
    if (this.current) this.endEntry();
    const e = { name: Buffer.from(name), offset: this.offset, crc: 0, packed: 0, size: 0, level };
    const head = Buffer.alloc(30);
    head.writeUInt32LE(LOCAL, 0);
    this.common(head, 4);
    head.writeUInt16LE(e.name.length, 26); // CRC and sizes (bytes 14–25) stay 0: they follow the data
    this.emit(Buffer.concat([head, e.name]));
    this.current = e;
  }

  /** Adds a piece of the current entry's bytes. */
  write(data: Buffer): void {
    const e = this.current;
    if (!e) throw new Error('no zip entry to write to');
    if (!data.length) return;
    e.crc = crc32(data, e.crc);
    e.size += data.length;
    const packed = deflateRawSync(data, { level: e.level, finishFlush: constants.Z_SYNC_FLUSH });
    e.packed += packed.length;
    this.emit(packed);
  }

  /** Ends the last entry, writes the central directory and ends the output. */
  async finish(): Promise<void> {
    if (this.current) this.endEntry();
    const start = this.offset;
    for (const e of this.written) {
      const h = Buffer.alloc(46);
      h.writeUInt32LE(CENTRAL, 0);
      h.writeUInt16LE(VERSION, 4); // made by
      this.common(h, 6);
      h.writeUInt32LE(e.crc >>> 0, 16);
      h.writeUInt32LE(e.packed, 20);
      h.writeUInt32LE(e.size, 24);
      h.writeUInt16LE(e.name.length, 28);
      h.writeUInt32LE(e.offset, 42);
      this.emit(Buffer.concat([h, e.name]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(END, 0);
    end.writeUInt16LE(this.written.length, 8);
    end.writeUInt16LE(this.written.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    this.emit(end);
    await new Promise<void>((resolve, reject) => this.out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }

  /** The fields local and central headers share, in this order: version needed, flags, method, time, date. */
  private common(h: Buffer, at: number) {
    h.writeUInt16LE(VERSION, at);
    h.writeUInt16LE(FLAGS, at + 2);
    h.writeUInt16LE(DEFLATE, at + 4);
    h.writeUInt16LE(this.stamp.time, at + 6);
    h.writeUInt16LE(this.stamp.date, at + 8);
  }

  private endEntry() {
    const e = this.current!;
    this.current = null;
    e.packed += LAST_BLOCK.length;
    this.emit(LAST_BLOCK);
    if (e.size > MAX_32 || e.packed > MAX_32) throw tooLarge();
    const d = Buffer.alloc(16);
    d.writeUInt32LE(DESCRIPTOR, 0);
    d.writeUInt32LE(e.crc >>> 0, 4);
    d.writeUInt32LE(e.packed, 8);
    d.writeUInt32LE(e.size, 12);
    this.emit(d);
    this.written.push(e);
  }

  private emit(b: Buffer) {
    // Offsets in the headers are 32-bit: past 4 GiB the file would need zip64.
    if (this.offset + b.length > MAX_32) throw tooLarge();
    this.offset += b.length;
    this.out.write(b);
  }
}
