import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * Hand-made xlsx files for tests and bench/upload: a minimal workbook around a sheet body, zip
 * bombs built in memory (nothing large is committed), and files that lie in their directory.
 * A repeated body is deflated once per megabyte block with a full flush, so the blocks are
 * independent and a gigabyte of sheet is a thousand copies of one small block, made at once.
 */

/** Literal bytes, or `head` + `unit` × `times` + `tail`. */
export type Body = string | Buffer | { head: string; unit: string; times: number; tail: string };

export interface Part {
  name: string;
  body: Body;
  /** Stored instead of deflated. */
  stored?: boolean;
  /** The unpacked size to write in the headers instead of the true one. */
  declaredSize?: number;
  /** Deflate bytes to store as they are (a damaged stream); the body then only sets the CRC. */
  packed?: Buffer;
}

const MB = 1024 * 1024;
const DOS_DATE = 0x21; // 1980-01-01
export const packPiece = (data: Buffer, last: boolean) => deflateRawSync(data, { level: 9, finishFlush: last ? constants.Z_FINISH : constants.Z_FULL_FLUSH });

function pack(body: Body, stored: boolean): { packed: Buffer; size: number; crc: number } {
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    const data = Buffer.from(body);
    return { packed: stored ? data : packPiece(data, true), size: data.length, crc: crc32(data) };
  }
  const perBlock = Math.max(1, Math.floor(MB / Buffer.byteLength(body.unit)));
  const block = Buffer.from(body.unit.repeat(Math.min(perBlock, body.times)));
  const blocks = Math.floor(body.times / perBlock);
  const rest = Buffer.from(body.unit.repeat(body.times % perBlock));
  const head = Buffer.from(body.head);
  const tail = Buffer.from(body.tail);
  let crc = crc32(head);
  for (let i = 0; i < blocks; i++) crc = crc32(block, crc);
  crc = crc32(tail, crc32(rest, crc));
  const size = head.length + blocks * block.length + rest.length + tail.length;
  if (stored) return { packed: Buffer.concat([head, ...Array<Buffer>(blocks).fill(block), rest, tail]), size, crc };
  const packedBlock = packPiece(block, false);
  return { packed: Buffer.concat([packPiece(head, false), ...Array<Buffer>(blocks).fill(packedBlock), packPiece(rest, false), packPiece(tail, true)]), size, crc };
}

/** A zip of the parts in order, with data descriptors left out (sizes in both headers). */
export function zipOf(parts: Part[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const packing = pack(part.body, !!part.stored);
    const { size, crc } = packing;
    const packed = part.packed ?? packing.packed;
    const declared = part.declaredSize ?? size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(part.stored ? 0 : 8, 8);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(0x0800, 8);
    dir.writeUInt16LE(part.stored ? 0 : 8, 10);
    dir.writeUInt16LE(DOS_DATE, 14);
    dir.writeUInt32LE(crc >>> 0, 16);
    dir.writeUInt32LE(packed.length, 20);
    dir.writeUInt32LE(declared, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    central.push(dir, name);
    offset += local.length + name.length + packed.length;
  }
  const dirSize = central.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(dirSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...central, end]);
}

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
export const SHEET_HEAD = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet ${NS}><sheetData>`;
export const SHEET_TAIL = '</sheetData></worksheet>';

/** A cell of inline text, escaped. */
export const inlineCell = (ref: string, text: string) =>
  `<c r="${ref}" t="inlineStr"><is><t>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</t></is></c>`;

/** The parts of a one-sheet workbook around `sheet` (its `<worksheet>` whole), with shared strings when given. */
export function workbookParts(sheet: Body, opts: { sharedStrings?: Body; sheetPart?: Partial<Part>; extra?: Part[] } = {}): Part[] {
  const shared = opts.sharedStrings !== undefined;
  return [
    {
      name: '[Content_Types].xml',
      body: `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>${shared ? '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' : ''}</Types>`,
    },
    { name: '_rels/.rels', body: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>` },
    { name: 'xl/workbook.xml', body: `<?xml version="1.0" encoding="UTF-8"?><workbook ${NS}><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>` },
    {
      name: 'xl/_rels/workbook.xml.rels',
      body: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>${shared ? `<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>` : ''}</Relationships>`,
    },
    { name: 'xl/worksheets/sheet1.xml', body: sheet, ...opts.sheetPart },
    ...(shared ? [{ name: 'xl/sharedStrings.xml', body: opts.sharedStrings! }] : []),
    ...(opts.extra ?? []),
  ];
}

/**
 * A workbook whose one sheet is a header row and then `inflatedBytes` of spaces: about 1 KB of
 * zip per MB unpacked. `lie` writes a directory that declares the sheet 1 KB.
 */
export function bombXlsx(inflatedBytes: number, opts: { lie?: boolean } = {}): Buffer {
  const head = `${SHEET_HEAD}<row r="1">${inlineCell('A1', 'Device number')}</row>`;
  return zipOf(workbookParts({ head, unit: ' ', times: inflatedBytes, tail: SHEET_TAIL }, { sheetPart: opts.lie ? { declaredSize: 1024 } : {} }));
}
