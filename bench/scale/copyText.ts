/** Rows in COPY's text format: tab-separated, \N for null. The seed's values hold no tab, newline or backslash. */
export type Cell = string | number | boolean | null;

export function copyText(rows: Cell[][]): string {
  let out = '';
  for (const r of rows) out += r.map((v) => (v === null ? '\\N' : String(v))).join('\t') + '\n';
  return out;
}
