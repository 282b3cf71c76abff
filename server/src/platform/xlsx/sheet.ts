import { Writable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { Code } from '@coldwatch/contract';
import { AppError } from '../http/errors.js';
import { firstSheetParts, scanPart } from './parts.js';
import { cellTooLong, MAX_CELL_CHARS } from './xml.js';
import { WorkbookWriter } from './workbookWriter.js';
import { openZip, type Zip } from './zip.js';

/**
 * Import files of spec §5 ("import files must be xlsx"): reading the first sheet of an uploaded
 * workbook into rows of text, and writing a template. Shared by every import (sensors now; gas
 * detectors and door magnets later).
 */

/** An import of 5,000 devices fits easily; beyond this the file is refused before it is parsed. */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
/** Data rows (not blank) of one import; counted while the sheet streams, refused at the first past it. */
export const IMPORT_MAX_ROWS = 10_000;
/** Columns past this one are not read: a template has seven, and each row's cells are kept as an array up to its last column. */
export const IMPORT_MAX_COLUMNS = 64;

const XLSX_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]); // a zip container

/** The uploaded xlsx (by extension and by its zip signature), or the §8 messages. */
export async function readXlsxUpload(req: FastifyRequest): Promise<Buffer> {
  if (!req.isMultipart()) throw new AppError(Code.FAILED, 'errors.upload.noFile');
  const part = await req.file({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1 }, throwFileSizeLimit: false });
  if (!part) throw new AppError(Code.FAILED, 'errors.upload.noFile');
  const data = await part.toBuffer();
  if (part.file.truncated) throw new AppError(Code.FAILED, 'errors.import.tooLarge');
  const ext = (part.filename.split('.').pop() ?? '').toLowerCase();
  if (ext !== 'xlsx' || !data.subarray(0, 4).equals(XLSX_MAGIC)) throw new AppError(Code.FAILED, 'errors.import.notXlsx');
  return data;
}

/** A cell's text, or the index of its shared string until those are read. */
type Cell = string | number;
interface SheetRows {
  header: Cell[];
  rows: { row: number; cells: Cell[] }[];
  sawRow: boolean;
  shared: Set<number>;
}

const tooMany = () => new AppError(Code.FAILED, 'errors.import.tooMany', 200, undefined, { max: IMPORT_MAX_ROWS });

const orBlank = (c: Cell | undefined): Cell => c ?? '';

/** "AB12" → 28; undefined when the reference has no column letters. */
function columnOf(ref: string | undefined): number | undefined {
  let col = 0;
  for (let i = 0; ref && i < ref.length; i++) {
    const c = ref.charCodeAt(i) | 0x20; // lower case
    if (c < 0x61 || c > 0x7a) break;
    col = col * 26 + (c - 0x60);
  }
  return col > 0 ? col : undefined;
}

/** A cell's stored text as Excel shows it: numbers in their shortest form, booleans as true/false. */
function cellValue(type: string, raw: string): Cell {
  const v = raw.trim();
  if (v === '') return '';
  switch (type) {
    case 's': {
      const i = Number(v);
      return Number.isInteger(i) && i >= 0 ? i : '';
    }
    case 'b':
      return v === '1' ? 'true' : v === '0' ? 'false' : v;
    case 'str':
    case 'inlineStr':
    case 'd':
    case 'e':
      return v;
    default: {
      const n = Number(v);
      return Number.isFinite(n) ? String(n) : v;
    }
  }
}

/**
 * The rows of a sheet part as it streams: row 1 as the header, other rows with any cell, refused
 * past IMPORT_MAX_ROWS (counted as they arrive, so a sheet of a million rows stops at the limit).
 */
async function readRows(zip: Zip, part: string): Promise<SheetRows> {
  const out: SheetRows = { header: [], rows: [], sawRow: false, shared: new Set() };
  let rowNo = 0;
  let cells: Cell[] | null = null;
  let col = 0;
  let keep = false;
  let type = '';
  let text = '';
  let inline = 0;
  let phonetic = 0;
  await scanPart(zip, part, (x) => ({
    open(local) {
      switch (local) {
        case 'row': {
          const r = Number(x.attr('r'));
          rowNo = Number.isInteger(r) && r > 0 ? r : rowNo + 1;
          cells = [];
          col = 0;
          out.sawRow = true;
          break;
        }
        case 'c':
          col = columnOf(x.attr('r')) ?? col + 1;
          keep = cells !== null && col <= IMPORT_MAX_COLUMNS;
          type = x.attr('t') ?? '';
          text = '';
          break;
        case 'v':
          x.capture = keep;
          break;
        case 'is':
          inline++;
          break;
        case 'rPh': // a phonetic reading under Japanese text, not part of the cell's value
          phonetic++;
          break;
        case 't':
          x.capture = keep && inline > 0 && phonetic === 0;
          break;
      }
    },
    text(s) {
      text += s;
      if (text.length > MAX_CELL_CHARS) throw cellTooLong();
    },
    close(local) {
      switch (local) {
        case 'v':
        case 't':
          x.capture = false;
          break;
        case 'is':
          inline--;
          break;
        case 'rPh':
          phonetic--;
          break;
        case 'c': {
          if (!keep || !cells) break;
          keep = false;
          const value = cellValue(type, text);
          if (value === '') break;
          if (typeof value === 'number') out.shared.add(value);
          cells[col - 1] = value;
          break;
        }
        case 'row': {
          if (!cells) break;
          const dense = Array.from(cells as Cell[], orBlank);
          cells = null;
          if (rowNo === 1) out.header = dense;
          else if (dense.length) {
            out.rows.push({ row: rowNo, cells: dense });
            if (out.rows.length > IMPORT_MAX_ROWS) throw tooMany();
          }
          break;
        }
      }
    },
  }));
  return out;
}

/** The shared strings the sheet refers to, and no others (a file may carry millions it never uses). */
async function readSharedStrings(zip: Zip, part: string | undefined, wanted: Set<number>): Promise<Map<number, string>> {
  const strings = new Map<number, string>();
  if (!part || !wanted.size) return strings;
  let last = 0;
  for (const i of wanted) last = Math.max(last, i);
  let index = -1;
  let want = false;
  let text = '';
  let phonetic = 0;
  await scanPart(
    zip,
    part,
    (x) => ({
      open(local) {
        if (local === 'si') {
          index++;
          want = wanted.has(index);
          text = '';
        } else if (local === 'rPh') phonetic++;
        else if (local === 't') x.capture = want && phonetic === 0;
      },
      text(s) {
        text += s;
        if (text.length > MAX_CELL_CHARS) throw cellTooLong();
      },
      close(local) {
        if (local === 't') x.capture = false;
        else if (local === 'rPh') phonetic--;
        else if (local === 'si' && want) strings.set(index, text.trim());
      },
    }),
    () => index > last,
  );
  return strings;
}

/**
 * The first sheet as a header and rows of trimmed text (row numbers as Excel shows them); blank
 * rows are left out. Read as a stream within ZIP_LIMITS, IMPORT_MAX_ROWS and IMPORT_MAX_COLUMNS
 * (docs/security.md): a zip bomb is refused from its directory, or at the latest when it
 * inflates past what it declared, before it costs memory.
 */
export async function readSheet(data: Buffer): Promise<{ header: string[]; rows: { row: number; cells: string[] }[] }> {
  const zip = openZip(data);
  const parts = await firstSheetParts(zip);
  if (!parts.sheet) throw new AppError(Code.FAILED, 'errors.import.empty');
  const sheet = await readRows(zip, parts.sheet);
  if (!sheet.sawRow) throw new AppError(Code.FAILED, 'errors.import.empty');
  const strings = await readSharedStrings(zip, parts.sharedStrings, sheet.shared);
  const text = (cells: Cell[]) => cells.map((c) => (typeof c === 'number' ? (strings.get(c) ?? '') : c));
  const rows = sheet.rows.map((r) => ({ row: r.row, cells: text(r.cells) })).filter((r) => r.cells.some((c) => c !== ''));
  return { header: text(sheet.header), rows };
}

/** A template: the header, an example row, and a second sheet explaining the coded columns. */
export async function writeTemplate(sheetName: string, header: string[], example: string[], codes: { title: string; rows: [string, string][] }): Promise<Buffer> {
  const parts: Buffer[] = [];
  const book = new WorkbookWriter(new Writable({ write: (chunk: Buffer, _enc, done) => (parts.push(chunk), done()) }));
  book.sheet(sheetName, header, header.map(() => 22));
  book.row(example);
  book.sheet(codes.title, null, [32, 32]);
  for (const r of codes.rows) book.row(r);
  await book.end();
  return Buffer.concat(parts);
}
