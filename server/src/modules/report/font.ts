import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/*
 * The report's font: Noto Sans Hans (Noto Sans CJK SC), SIL Open Font License 1.1, from the npm
 * package @embedpdf/fonts-sc, a dependency of the server: `npm ci` brings it on every machine,
 * nothing is fetched at run time. It holds the Chinese characters of GB 2312 and beyond, Latin,
 * digits and the signs the report prints (°C, ≤, –). pdfkit embeds only the glyphs a report
 * uses (a subset, CID-keyed CFF, with its ToUnicode map so that the text can be copied and
 * searched). The package exports only its script, so its folder is found from that.
 */

const require = createRequire(import.meta.url);

export const REPORT_FONT_NAME = 'Noto Sans Hans (Noto Sans CJK SC), SIL OFL 1.1';

function fontDir(): string {
  return path.join(path.dirname(require.resolve('@embedpdf/fonts-sc')), '..', 'fonts');
}

let cached: { regular: Buffer; bold: Buffer } | null = null;

/** The regular and the medium weight, read once per process (about 8 MB each). */
export function reportFonts(): { regular: Buffer; bold: Buffer } {
  if (!cached) {
    const dir = fontDir();
    cached = { regular: readFileSync(path.join(dir, 'NotoSansHans-Regular.otf')), bold: readFileSync(path.join(dir, 'NotoSansHans-Medium.otf')) };
  }
  return cached;
}
