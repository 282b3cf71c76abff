import { setImmediate as nextTurn } from 'node:timers/promises';
import { createInflateRaw } from 'node:zlib';
import { Code } from '@coldwatch/contract';
import { AppError } from '../http/errors.js';
import { damaged } from './xml.js';

/**
 * The zip container of an uploaded xlsx, read with limits before anything is inflated (zip
 * bombs, docs/security.md): the central directory is checked first (entry count, the size each
 * entry declares, their sum), then an entry is inflated as a stream that stops as soon as it
 * yields more than it declared, so a lying directory buys nothing either. An entry is only ever
 * read through `entryChunks`, never inflated whole.
 */

export const ZIP_LIMITS = {
  /** A workbook from Excel has 10 to 20 parts; a hundred sheets with drawings stay far below. */
  entries: 1000,
  /** One part unpacked: the sheet of 10,000 rows with 250-character Chinese descriptions is about 9 MB. */
  entryBytes: 16 * 1024 * 1024,
  /** All parts unpacked together. */
  totalBytes: 32 * 1024 * 1024,
} as const;

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  size: number;
  headerOffset: number;
}

/** The zip's entries by lower-cased name (OPC part names ignore case). */
export type Zip = { data: Buffer; entries: Map<string, ZipEntry> };

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MB = 1024 * 1024;

const unpackedTooLarge = () =>
  new AppError(Code.PARAM_ERROR, 'errors.xlsx.unpacked', 400, undefined, { entry: ZIP_LIMITS.entryBytes / MB, total: ZIP_LIMITS.totalBytes / MB });

/** Reads the central directory and checks it against ZIP_LIMITS; nothing is inflated. */
export function openZip(data: Buffer): Zip {
  // The end record sits in the last 22 bytes plus a comment of at most 64 KB.
  let eocd = -1;
  for (let p = data.length - 22; p >= Math.max(0, data.length - 22 - 0xffff); p--) {
    if (data.readUInt32LE(p) === EOCD) {
      eocd = p;
      break;
    }
  }
  if (eocd < 0) throw damaged();
  const count = data.readUInt16LE(eocd + 10);
  // 0xffff is also the mark of a zip64 directory, which no workbook within these limits needs.
  if (count > ZIP_LIMITS.entries || count === 0xffff) throw new AppError(Code.PARAM_ERROR, 'errors.xlsx.entries', 400, undefined, { max: ZIP_LIMITS.entries });
  if (data.readUInt16LE(eocd + 4) !== 0 || data.readUInt16LE(eocd + 8) !== count) throw damaged(); // split over disks

  const entries = new Map<string, ZipEntry>();
  let total = 0;
  let p = data.readUInt32LE(eocd + 16);
  for (let i = 0; i < count; i++) {
    if (p + 46 > eocd || data.readUInt32LE(p) !== CENTRAL) throw damaged();
    const nameLength = data.readUInt16LE(p + 28);
    const next = p + 46 + nameLength + data.readUInt16LE(p + 30) + data.readUInt16LE(p + 32);
    if (next > eocd) throw damaged();
    const entry: ZipEntry = {
      name: data.toString('utf8', p + 46, p + 46 + nameLength),
      flags: data.readUInt16LE(p + 8),
      method: data.readUInt16LE(p + 10),
      compressedSize: data.readUInt32LE(p + 20),
      size: data.readUInt32LE(p + 24),
      headerOffset: data.readUInt32LE(p + 42),
    };
    // A declared 0xffffffff (zip64) is taken at its word: over the limit.
    if (entry.size > ZIP_LIMITS.entryBytes) throw unpackedTooLarge();
    total += entry.size;
    if (total > ZIP_LIMITS.totalBytes) throw unpackedTooLarge();
    // Two parts of one name would let two readers see two different workbooks.
    const key = entry.name.toLowerCase();
    if (entries.has(key)) throw damaged();
    entries.set(key, entry);
    p = next;
  }
  return { data, entries };
}

/**
 * The unpacked bytes of one entry, chunk by chunk. Inflation stops (and the file is refused) the
 * moment it passes the size the directory declared, which openZip held to the limits.
 */
export async function* entryChunks(zip: Zip, entry: ZipEntry): AsyncGenerator<Buffer> {
  const { data } = zip;
  const at = entry.headerOffset;
  if (entry.flags & 1 || at + 30 > data.length || data.readUInt32LE(at) !== LOCAL) throw damaged(); // encrypted, or no entry there
  const start = at + 30 + data.readUInt16LE(at + 26) + data.readUInt16LE(at + 28);
  const end = start + entry.compressedSize;
  if (end > data.length) throw damaged();
  const packed = data.subarray(start, end);
  // Each chunk is tokenized in one go on the event loop: 16 KB of sheet is a few milliseconds of it.
  const CHUNK = 16 * 1024;

  if (entry.method === 0) {
    if (entry.compressedSize !== entry.size) throw damaged();
    for (let i = 0; i < packed.length; i += CHUNK) {
      yield packed.subarray(i, i + CHUNK);
      await nextTurn(); // let other requests in between chunks
    }
    return;
  }
  if (entry.method !== 8) throw damaged();

  const inflate = createInflateRaw({ chunkSize: CHUNK });
  inflate.end(packed);
  let seen = 0;
  try {
    for await (const chunk of inflate as AsyncIterable<Buffer>) {
      seen += chunk.length;
      if (seen > entry.size) throw damaged();
      yield chunk;
    }
  } catch (err) {
    throw err instanceof AppError ? err : damaged(); // zlib: not deflate data
  } finally {
    inflate.destroy();
  }
  if (seen !== entry.size) throw damaged();
}
