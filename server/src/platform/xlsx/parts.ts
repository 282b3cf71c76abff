import path from 'node:path/posix';
import { Code } from '@coldwatch/contract';
import { AppError } from '../http/errors.js';
import { entryChunks, type Zip } from './zip.js';
import { XmlScanner, type XmlHandler } from './xml.js';

/**
 * Finding the parts of a workbook the way the Open Packaging Conventions say (the package's
 * relationships name the workbook, the workbook's name its sheets and shared strings), and
 * streaming one part through an XmlScanner.
 */

export const notXlsx = () => new AppError(Code.FAILED, 'errors.import.notXlsx');

/**
 * Feeds a part to a handler as it inflates. `enough` is asked after each chunk: when it answers
 * true the rest of the part is left packed.
 */
export async function scanPart(zip: Zip, name: string, make: (x: XmlScanner) => XmlHandler, enough: () => boolean = () => false): Promise<void> {
  const entry = zip.entries.get(name.toLowerCase());
  if (!entry) throw notXlsx();
  const x = new XmlScanner(make);
  for await (const chunk of entryChunks(zip, entry)) {
    x.write(chunk);
    if (enough()) return;
  }
  x.end();
}

interface Rel {
  type: string;
  target: string;
}

/** The relationships of a part (its `_rels/<name>.rels`) by id, targets resolved to part names. */
async function relsOf(zip: Zip, part: string): Promise<Map<string, Rel>> {
  const dir = path.dirname(part);
  const name = path.join(dir, '_rels', `${path.basename(part)}.rels`).replace(/^\.\//, '');
  const rels = new Map<string, Rel>();
  if (!zip.entries.has(name.toLowerCase())) return rels;
  await scanPart(zip, name, (x) => ({
    open(local) {
      if (local !== 'Relationship') return;
      const id = x.attr('Id');
      const target = x.attr('Target');
      if (!id || !target || x.attr('TargetMode') === 'External') return;
      const full = target.startsWith('/') ? target.slice(1) : path.normalize(path.join(dir, target));
      rels.set(id, { type: x.attr('Type') ?? '', target: full });
    },
    close() {},
  }));
  return rels;
}

const ofType = (rels: Map<string, Rel>, suffix: string) => [...rels.values()].find((r) => r.type.endsWith(suffix))?.target;

/** The first sheet in the workbook's tab order and the shared strings; `sheet` is undefined when the workbook has none. */
export async function firstSheetParts(zip: Zip): Promise<{ sheet?: string; sharedStrings?: string }> {
  const workbook = ofType(await relsOf(zip, ''), '/officeDocument') ?? 'xl/workbook.xml';
  let firstId: string | undefined;
  await scanPart(
    zip,
    workbook,
    (x) => ({
      open(local) {
        if (local === 'sheet' && firstId === undefined) firstId = x.attr('id') ?? '';
      },
      close() {},
    }),
    () => firstId !== undefined,
  );
  const rels = await relsOf(zip, workbook);
  const sheet = firstId === undefined ? undefined : rels.get(firstId)?.target;
  if (firstId !== undefined && !sheet) throw notXlsx();
  return { sheet, sharedStrings: ofType(rels, '/sharedStrings') };
}
