import { deflateSync, crc32 } from 'node:zlib';

/*
 * Test helpers of the reports: the text of a PDF read back with pdf.js (as a reader's viewer
 * extracts it, through the fonts' ToUnicode maps), and a signature image drawn as a PNG.
 */

/** Every page's text, in order (items joined by a space). */
export async function pdfText(pdf: Buffer | Uint8Array): Promise<string[]> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, disableFontFace: true, verbosity: 0 });
  const doc = await task.promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const content = await page.getTextContent();
    pages.push(content.items.map((x) => ('str' in x ? x.str : '')).join(' '));
  }
  await task.destroy();
  return pages;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

/** A handwritten-looking stroke in dark blue on a transparent 240×80 PNG. */
export function signaturePng(w = 240, h = 80): Buffer {
  const px = Buffer.alloc(w * h * 4);
  const dot = (x: number, y: number) => {
    for (let dy = -1; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) {
        const xx = Math.round(x + dx);
        const yy = Math.round(y + dy);
        if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
        const i = (yy * w + xx) * 4;
        px[i] = 20;
        px[i + 1] = 40;
        px[i + 2] = 120;
        px[i + 3] = 255;
      }
  };
  for (let t = 0; t < 1; t += 0.0005) {
    const x = 12 + t * (w - 24);
    const y = h / 2 + Math.sin(t * 18) * (h / 4) * (1 - t * 0.5) + Math.cos(t * 47) * 4;
    dot(x, y);
  }
  const raw = Buffer.alloc((w * 4 + 1) * h);
  for (let y = 0; y < h; y++) px.copy(raw, y * (w * 4 + 1) + 1, y * w * 4, (y + 1) * w * 4);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}
