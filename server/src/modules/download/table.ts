import type { Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import { CSV_BOM, csvLine, type ExportFormat } from '@coldwatch/contract';
import { drained } from '../backup/stream.js';

/*
 * One writer of tables for every export (docs/exports.md "Formats"): sheets of a header and
 * rows, written as xlsx through exceljs' streaming writer (a row is zipped as it is added and
 * never kept) or as CSV by the contract's rules (csv.ts: UTF-8 with a byte-order mark, cells a
 * spreadsheet would run as a formula defused). In xlsx a number stays a number and text is
 * written as text (never as a formula, whatever it starts with); a sheet holds at most
 * SHEET_ROWS rows and the rest go on "<name> (2)" under the same header. A CSV file has one
 * table: a second sheet follows the first after an empty line and a line naming it.
 */

export type Cell = string | number | null | undefined;

/** Data rows of one sheet: Excel's 1,048,576 less the header. */
export const SHEET_ROWS = 1_048_575;

export interface TableWriter {
  /** Starts a sheet with its header line. */
  sheet(name: string, header: string[], widths?: number[]): void;
  row(cells: Cell[]): void;
  /** Waits while the file's sink is behind, and lets other work of the process (ingest) take its turn. */
  breathe(): Promise<void>;
  /** Ends the file (its last bytes written to the sink, which is ended). */
  end(): Promise<void>;
}

/** Excel's sheet names: at most 31 characters, none of []:*?/\ . */
const sheetName = (s: string) => s.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Sheet';

export function tableWriter(format: ExportFormat, out: Writable): TableWriter {
  return format === 'csv' ? csvWriter(out) : xlsxWriter(out);
}

function xlsxWriter(out: Writable): TableWriter {
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: false });
  let ws: ExcelJS.Worksheet | null = null;
  let current = { name: '', header: [] as string[], widths: undefined as number[] | undefined, part: 1, rows: 0 };
  const open = () => {
    const name = current.part === 1 ? current.name : `${current.name.slice(0, 26)} (${current.part})`;
    ws = book.addWorksheet(sheetName(name));
    if (current.widths) ws.columns = current.widths.map((width) => ({ width }));
    ws.addRow(current.header).commit();
  };
  return {
    sheet(name, header, widths) {
      ws?.commit();
      current = { name, header, widths, part: 1, rows: 0 };
      open();
    },
    row(cells) {
      if (current.rows === SHEET_ROWS) {
        ws!.commit();
        current.part++;
        current.rows = 0;
        open();
      }
      ws!.addRow(cells.map((c) => (c === undefined ? null : c))).commit();
      current.rows++;
    },
    async breathe() {
      await drained(out);
      await nextTurn();
    },
    async end() {
      ws?.commit();
      await book.commit();
    },
  };
}

function csvWriter(out: Writable): TableWriter {
  let text = CSV_BOM;
  let sheets = 0;
  const flush = () => {
    if (text) out.write(text);
    text = '';
  };
  return {
    sheet(name, header) {
      if (sheets++ > 0) text += `\r\n${csvLine([name])}\r\n`;
      text += `${csvLine(header)}\r\n`;
    },
    row(cells) {
      text += `${csvLine(cells.map((c) => (c === undefined ? null : c)))}\r\n`;
      if (text.length > 64 * 1024) flush();
    },
    async breathe() {
      flush();
      await drained(out);
      await nextTurn();
    },
    async end() {
      flush();
      await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    },
  };
}
