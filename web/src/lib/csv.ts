/**
 * A table as a CSV file the user downloads. UTF-8 with a byte-order mark, so that Excel opens
 * Chinese text correctly; cells that a spreadsheet would run as a formula are quoted with a
 * leading apostrophe (CSV injection).
 */
const FORMULA = /^[=+\-@\t\r]/;
/** A plain number written as text ("-20.5"): no spreadsheet runs it, and it should stay a number. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  let s = String(v);
  if (typeof v === 'string' && FORMULA.test(s) && !PLAIN_NUMBER.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const toCsv = (header: string[], rows: unknown[][]) => [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n');

export function downloadCsv(filename: string, header: string[], rows: unknown[][]) {
  const blob = new Blob(['\ufeff', toCsv(header, rows)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
