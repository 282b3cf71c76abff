import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The server is built in floors (docs/architecture.md "Floors of the server"): a file imports
// only from its own floor or the floors below, so the platform knows nothing of the modules, a
// lower floor declares what it needs of the process as a narrow interface instead of importing
// AppDeps, and no files import each other in a circle. Type-only imports count too: they are
// how a floor comes to depend on one above it, one type at a time.

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

/** From the ground up; a path belongs to the longest prefix that names it. */
const FLOORS: [string, number][] = [
  ['platform/', 0],
  ['config.ts', 1],
  ['alarm/', 2],
  ['ingest/', 3],
  ['deps.ts', 4],
  ['modules/', 5],
  ['demo/', 6],
  ['jobs/', 6],
  ['app.ts', 6],
  ['banner.ts', 6],
  ['main.ts', 7],
];

/** Tests and their fixtures set up whatever they need; they are no part of the floors. */
const isSource = (file: string) => /\.ts$/.test(file) && !/\.(test|fixture|gen)\.ts$/.test(file);

function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sources(full) : isSource(e.name) ? [path.relative(SRC, full).split(path.sep).join('/')] : [];
  });
}

function floorOf(file: string): number {
  const match = FLOORS.filter(([prefix]) => file === prefix || file.startsWith(prefix)).sort((a, b) => b[0].length - a[0].length)[0];
  if (!match) throw new Error(`server/src/${file} stands on no floor: give it one in FLOORS`);
  return match[1];
}

/** The files of server/src that a file imports (relative specifiers, written with .js). */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(path.join(SRC, file), 'utf8'), true, true);
  return importedFiles
    .map((f) => f.fileName)
    .filter((s) => s.startsWith('.'))
    .map((s) => path.posix.normalize(path.posix.join(path.posix.dirname(file), s)).replace(/\.js$/, '.ts'))
    .filter((target) => !target.startsWith('..') && isSource(target));
}

const files = sources();
const edges = new Map(files.map((f) => [f, importsOf(f)]));

describe('the floors of server/src', () => {
  it('run one way: no file imports from a floor above its own', () => {
    const up = files.flatMap((f) => edges.get(f)!.filter((t) => floorOf(t) > floorOf(f)).map((t) => `${f} -> ${t}`));
    expect(up).toEqual([]);
  });

  it('hold no circle of imports', () => {
    // Tarjan's strongly connected components: any with more than one file is a circle.
    let next = 0;
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const circles: string[][] = [];
    const visit = (v: string) => {
      index.set(v, next);
      low.set(v, next++);
      stack.push(v);
      onStack.add(v);
      for (const w of edges.get(v) ?? []) {
        if (!index.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
      if (low.get(v) === index.get(v)) {
        const part: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          part.push(w);
        } while (w !== v);
        if (part.length > 1) circles.push(part.sort());
      }
    };
    for (const f of files) if (!index.has(f)) visit(f);
    expect(circles).toEqual([]);
  });
});
