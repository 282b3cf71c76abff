import { inflateSync } from 'node:zlib';

/*
 * A tiny PNG reader for the captcha's tests, written apart from the writer (its own CRC, all five
 * row filters) so that a fault in the writer is not mirrored here and missed. Reads what a
 * browser would refuse as an error: bad signature, bad CRC, missing IHDR/IDAT/IEND.
 */

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function crc(bytes: Uint8Array): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

export interface DecodedPng {
  width: number;
  height: number;
  bitDepth: number;
  colourType: number;
  chunks: string[];
  rgb: Uint8Array;
}

export function readPng(buf: Buffer): DecodedPng {
  if (!SIGNATURE.every((b, i) => buf[i] === b)) throw new Error('not a PNG signature');
  let at = 8;
  const chunks: string[] = [];
  const idat: Buffer[] = [];
  let ihdr: Buffer | undefined;
  while (at < buf.length) {
    const len = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    const data = buf.subarray(at + 8, at + 8 + len);
    if (at + 12 + len > buf.length) throw new Error(`chunk ${type} runs past the end`);
    if (crc(buf.subarray(at + 4, at + 8 + len)) !== buf.readUInt32BE(at + 8 + len)) throw new Error(`bad CRC in ${type}`);
    chunks.push(type);
    if (type === 'IHDR') ihdr = data;
    if (type === 'IDAT') idat.push(data);
    at += 12 + len;
    if (type === 'IEND') break;
  }
  if (!ihdr || chunks[0] !== 'IHDR' || !idat.length || chunks.at(-1) !== 'IEND' || at !== buf.length) throw new Error(`bad chunk layout: ${chunks.join(',')}`);
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  const [bitDepth, colourType, compression, filter, interlace] = ihdr.subarray(8, 13);
  if (bitDepth !== 8 || colourType !== 2 || compression || filter || interlace) throw new Error('only 8-bit RGB, non-interlaced, is read here');
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 3;
  if (raw.length !== (stride + 1) * height) throw new Error(`inflated ${raw.length} bytes, expected ${(stride + 1) * height}`);
  const rgb = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const o = y * stride;
    for (let i = 0; i < stride; i++) {
      const a = i >= 3 ? rgb[o + i - 3] : 0;
      const b = y ? rgb[o - stride + i] : 0;
      const c = y && i >= 3 ? rgb[o - stride + i - 3] : 0;
      let p: number;
      if (f === 0) p = 0;
      else if (f === 1) p = a;
      else if (f === 2) p = b;
      else if (f === 3) p = (a + b) >> 1;
      else if (f === 4) {
        const e = a + b - c;
        const [pa, pb, pc] = [Math.abs(e - a), Math.abs(e - b), Math.abs(e - c)];
        p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      } else throw new Error(`unknown filter ${f}`);
      rgb[o + i] = (line[i] + p) & 0xff;
    }
  }
  return { width, height, bitDepth, colourType, chunks, rgb };
}
