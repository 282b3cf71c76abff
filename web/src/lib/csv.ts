/**
 * A table as a CSV file the user downloads. The cells are written by the contract's CSV writer
 * (packages/contract/src/csv.ts), shared with the server's streamed exports.
 */
import { CSV_BOM, toCsv } from '@coldwatch/contract';

export { csvCell, toCsv } from '@coldwatch/contract';

export function downloadCsv(filename: string, header: string[], rows: unknown[][]) {
  const blob = new Blob([CSV_BOM, toCsv(header, rows)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
