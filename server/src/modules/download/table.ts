import type { Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CSV_BOM, csvLine, type ExportFormat } from '@coldwatch/contract';
import { WallTime, WorkbookWriter, type XlsxCell } from '../../platform/xlsx/workbookWriter.js';
import { drained } from '../backup/stream.js';

export { wallClock } from '../../platform/xlsx/workbookWriter.js';

/*
 * One writer of tables for every export (docs/exports.md "Formats"): sheets of a header and
 * rows, written as xlsx through the console's own streaming workbook writer
 * (platform/xlsx/workbookWriter.ts: a row is deflated into the file as it is added and never
 * kept) or as CSV by the contract's rules (csv.ts: UTF-8 with a byte-order mark, cells a
 * spreadsheet would run as a formula defused). In xlsx a number stays a number, a time
 * (`wallClock(tz)(ms)`) is a date-time cell, and text is written as text (never as a formula,
 * whatever it starts with); in CSV a time is `YYYY-MM-DD HH:mm:ss`. A sheet holds at most
 * SHEET_ROWS rows and the rest go on "<name> (2)" under the same header. A CSV file has one
 * table: a second sheet follows the first after an empty line and a line naming it.
 */

export type Cell = XlsxCell;

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

export function tableWriter(format: ExportFormat, out: Writable): TableWriter {
  return format === 'csv' ? csvWriter(out) : xlsxWriter(out);
}

function xlsxWriter(out: Writable): TableWriter {
  const book = new WorkbookWriter(out);
  let current = { name: '', header: [] as string[], widths: undefined as number[] | undefined, part: 1, rows: 0 };
  return {
    sheet(name, header, widths) {
      current = { name, header, widths, part: 1, rows: 0 };
      book.sheet(name, header, widths);
    },
    row(cells) {
      if (current.rows === SHEET_ROWS) {
        current.part++;
        current.rows = 0;
        book.sheet(`${current.name.slice(0, 26)} (${current.part})`, current.header, current.widths);
      }
      book.row(cells);
      current.rows++;
    },
    async breathe() {
      book.flush();
      await drained(out);
      await nextTurn();
    },
    end: () => book.end(),
  };
}

/** A time as CSV writes it: the wall clock's `YYYY-MM-DD HH:mm:ss`. */
const csvCells = (cells: Cell[]) => cells.map((c) => (c instanceof WallTime ? new Date(c.ms).toISOString().slice(0, 19).replace('T', ' ') : c === undefined ? null : c));

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
      text += `${csvLine(csvCells(cells))}\r\n`;
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
