import type { Writable } from 'node:stream';
import { MAX_CELL_CHARS } from './xml.js';
import { ZipWriter } from './zipWriter.js';

/**
 * A streaming xlsx writer for tables of many rows (exports, templates): each sheet's
 * SpreadsheetML is written as text straight into its zip entry (zipWriter.ts) as rows arrive,
 * so a sheet of a million rows costs the memory of one piece of it. A sheet is a header and
 * rows, nothing else a table export needs: text as inline strings (no shared-strings table to
 * keep), numbers as numbers, times as Excel date-times with one date style, the header bold and
 * frozen. Text is only ever text: a cell is never written as a formula, whatever it starts with.
 *
 * Every row and cell carries its reference (`r="5"`, `r="B5"`) as Excel writes them: the format
 * makes them optional, but readers such as exceljs need them; a blank cell is left out.
 */

/**
 * A moment as a zone's wall clock shows it (milliseconds from 1970-01-01 00:00 on that clock):
 * what an xlsx keeps, since Excel's date-times have no zone. `wallClock` makes them.
 */
export class WallTime {
  constructor(readonly ms: number) {}
}

export type XlsxCell = string | number | boolean | null | undefined | WallTime;

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const CT = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
/** Cell styles of styles.xml (cellXfs): 1 the date-time, 2 the header's bold. */
const DATE_STYLE = 1;
const BOLD_STYLE = 2;
const STYLES =
  `${XML_DECL}<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
  '<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm:ss"/></numFmts>' +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>';

/** Excel's day 0 is 1899-12-30: 25,569 days before 1970-01-01. */
const EXCEL_EPOCH_DAYS = 25_569;
const DAY_MS = 86_400_000;
/** Text written to the zip in pieces of about this many characters. */
const PIECE_CHARS = 256 * 1024;

/** Characters XML 1.0 cannot carry (control characters, lone surrogates, U+FFFE/FFFF) or must escape. */
// eslint-disable-next-line no-control-regex -- finding the control characters is the point
const NEEDS_WORK = /[&<>\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/;
// eslint-disable-next-line no-control-regex -- as above
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function escapeXml(s: string): string {
  if (!NEEDS_WORK.test(s)) return s;
  return s.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
const escapeAttr = (s: string) => escapeXml(s).replace(/"/g, '&quot;');

/** A text cell's attributes and content (`<c r="B5"` comes before): at most Excel's 32,767 characters, a longer one makes Excel refuse the file. */
function textCell(s: string, style = ''): string {
  let t = s.length > MAX_CELL_CHARS ? s.slice(0, MAX_CELL_CHARS) : s;
  if (/[\ud800-\udbff]$/.test(t)) t = t.slice(0, -1);
  const space = /^\s|\s$/.test(t) ? ' xml:space="preserve"' : '';
  return `${style} t="inlineStr"><is><t${space}>${escapeXml(t)}</t></is></c>`;
}

/** Column letters by index from 0: A, B, … Z, AA, … */
const COLUMNS: string[] = [];
function columnName(i: number): string {
  for (let k = COLUMNS.length; k <= i; k++) {
    let name = '';
    for (let n = k + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
    COLUMNS.push(name);
  }
  return COLUMNS[i];
}

/** Sheet names as Excel takes them: 1–31 characters, none of []:*?/\, not framed by apostrophes. */
export const sheetName = (s: string) => s.replace(/[[\]:*?/\\]/g, ' ').replace(/^'+|'+$/g, '').slice(0, 31).trim() || 'Sheet';

export class WorkbookWriter {
  private readonly zip: ZipWriter;
  private readonly sheets: string[] = [];
  private open = false;
  private rowNo = 0;
  private text = '';
  /** The last text of each column and its XML: device numbers and names repeat down a column. */
  private lastText: string[] = [];
  private lastXml: string[] = [];

  constructor(out: Writable) {
    this.zip = new ZipWriter(out);
  }

  /** Starts a sheet (the one before ends): its header row when given, column widths in characters. */
  sheet(name: string, header?: string[] | null, widths?: number[]): void {
    this.endSheet();
    this.sheets.push(this.uniqueName(name));
    this.zip.entry(`xl/worksheets/sheet${this.sheets.length}.xml`);
    this.open = true;
    this.rowNo = 0;
    this.lastText = [];
    this.lastXml = [];
    let head = `${XML_DECL}<worksheet ${NS}>`;
    if (header?.length) head += '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>';
    if (widths?.length) head += `<cols>${widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join('')}</cols>`;
    this.text += `${head}<sheetData>`;
    if (header?.length) {
      this.rowNo = 1;
      this.text += `<row r="1">${header.map((h, i) => `<c r="${columnName(i)}1"${textCell(h, ` s="${BOLD_STYLE}"`)}`).join('')}</row>`;
    }
  }

  row(cells: readonly XlsxCell[]): void {
    if (!this.open) throw new Error('no sheet to write a row to');
    const r = ++this.rowNo;
    let x = `<row r="${r}">`;
    for (let i = 0; i < cells.length; i++) {
      const c = cells[i];
      if (c === null || c === undefined || c === '' || (typeof c === 'number' && !Number.isFinite(c))) continue;
      x += `<c r="${COLUMNS[i] ?? columnName(i)}${r}"`;
      if (typeof c === 'number') x += `><v>${c}</v></c>`;
      else if (typeof c === 'string') {
        if (this.lastText[i] !== c) {
          this.lastText[i] = c;
          this.lastXml[i] = textCell(c);
        }
        x += this.lastXml[i];
      } else if (c instanceof WallTime) x += ` s="${DATE_STYLE}"><v>${c.ms / DAY_MS + EXCEL_EPOCH_DAYS}</v></c>`;
      else x += ` t="b"><v>${c ? 1 : 0}</v></c>`;
    }
    this.text += `${x}</row>`;
    if (this.text.length >= PIECE_CHARS) this.flush();
  }

  /** Hands what is written so far to the zip (and so to the output). */
  flush(): void {
    if (!this.text) return;
    this.zip.write(Buffer.from(this.text));
    this.text = '';
  }

  /** Ends the last sheet, writes the workbook's other parts and the zip's directory, and ends the output. */
  async end(): Promise<void> {
    if (!this.sheets.length) this.sheet('Sheet');
    this.endSheet();
    const n = this.sheets.length;
    const sheets = this.sheets.map((name, i) => `<sheet name="${escapeAttr(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('');
    const rels = this.sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('');
    const overrides = this.sheets.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="${CT}.worksheet+xml"/>`).join('');
    this.part('xl/workbook.xml', `${XML_DECL}<workbook ${NS}><bookViews><workbookView/></bookViews><sheets>${sheets}</sheets></workbook>`);
    this.part('xl/_rels/workbook.xml.rels', `${XML_DECL}<Relationships xmlns="${PKG_REL}">${rels}<Relationship Id="rId${n + 1}" Type="${REL}/styles" Target="styles.xml"/></Relationships>`);
    this.part('xl/styles.xml', STYLES);
    this.part('_rels/.rels', `${XML_DECL}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`);
    this.part(
      '[Content_Types].xml',
      `${XML_DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
        `<Override PartName="/xl/workbook.xml" ContentType="${CT}.sheet.main+xml"/><Override PartName="/xl/styles.xml" ContentType="${CT}.styles+xml"/>${overrides}</Types>`,
    );
    await this.zip.finish();
  }

  private part(name: string, xml: string) {
    this.zip.entry(name);
    this.zip.write(Buffer.from(xml));
  }

  private endSheet() {
    if (!this.open) return;
    this.text += '</sheetData></worksheet>';
    this.flush();
    this.open = false;
  }

  /** Excel refuses two sheets of one name (ignoring case): the second becomes "name (2)". */
  private uniqueName(wanted: string): string {
    const base = sheetName(wanted);
    const taken = new Set(this.sheets.map((s) => s.toLowerCase()));
    let name = base;
    for (let i = 2; taken.has(name.toLowerCase()); i++) name = `${base.slice(0, 31 - ` (${i})`.length)} (${i})`;
    return name;
  }
}

/** A zone's wall clock (`+08:00`, `-05:30`): turns moments into WallTimes of that zone. */
export function wallClock(tz: string): (ms: number | null) => WallTime | null {
  const sign = tz.startsWith('-') ? -1 : 1;
  const [h, m] = tz.slice(1).split(':').map(Number);
  const offset = sign * (h * 60 + (m || 0)) * 60_000;
  return (ms) => (ms === null ? null : new WallTime(ms + offset));
}
