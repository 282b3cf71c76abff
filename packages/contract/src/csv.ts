/**
 * CSV cells and lines, one writer for the browser's table exports (web/src/lib/csv.ts) and the
 * server's streamed exports (detail data): the same quoting and the same defusing wherever a
 * file is written, so an inspector's spreadsheet reads both alike.
 *
 * Cells that a spreadsheet would run as a formula are quoted with a leading apostrophe (CSV
 * injection, OWASP); files are UTF-8 with a byte-order mark (CSV_BOM) so that Excel opens
 * Chinese text correctly.
 */
const FORMULA = /^[=+\-@\t\r]/;
/** A plain number written as text ("-20.5"): no spreadsheet runs it, and it should stay a number. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
/** The tables' "no value" mark ("--"): nothing a spreadsheet could run, written as the table shows it. */
const NO_VALUE = /^-+$/;

/** What a table shows where there is no value, in the files too. */
export const CSV_NO_VALUE = '--';
/** Excel reads UTF-8 only behind it. */
export const CSV_BOM = '\ufeff';

export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  let s = String(v);
  if (typeof v === 'string' && FORMULA.test(s) && !PLAIN_NUMBER.test(s) && !NO_VALUE.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One line without its terminator. */
export const csvLine = (cells: readonly unknown[]) => cells.map(csvCell).join(',');

export const toCsv = (header: string[], rows: unknown[][]) => [header, ...rows].map(csvLine).join('\r\n');
