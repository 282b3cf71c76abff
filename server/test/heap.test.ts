import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// scripts/start.mjs is plain JavaScript run by node itself (npm start, npm run serve, the image).
const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../scripts/start.mjs');
const { heapFlags, DEFAULT_HEAP_MB, SEMI_SPACE_MB } = (await import(script)) as {
  heapFlags: (env: Record<string, string | undefined>) => string[];
  DEFAULT_HEAP_MB: number;
  SEMI_SPACE_MB: number;
};
const semi = `--max-semi-space-size=${SEMI_SPACE_MB}`;

/** The heap limit, in MB, of a node started with these flags. */
const limitMb = (flags: string[]) =>
  Number(execFileSync(process.execPath, [...flags, '-e', "process.stdout.write(String(require('node:v8').getHeapStatistics().heap_size_limit))"], { encoding: 'utf8' })) / 2 ** 20;

describe("the console's heap limit (HEAP_MB)", () => {
  it('is set by default, and HEAP_MB changes it', () => {
    expect(heapFlags({})).toEqual([`--max-old-space-size=${DEFAULT_HEAP_MB}`, semi]);
    expect(heapFlags({ HEAP_MB: ' 384 ' })).toEqual(['--max-old-space-size=384', semi]);
    expect(heapFlags({ HEAP_MB: '' })).toEqual([`--max-old-space-size=${DEFAULT_HEAP_MB}`, semi]);
  });

  it('is left to node with HEAP_MB=0, or when NODE_OPTIONS sets one', () => {
    expect(heapFlags({ HEAP_MB: '0' })).toEqual([]);
    expect(heapFlags({ NODE_OPTIONS: '--enable-source-maps --max-old-space-size=2048' })).toEqual([]);
    expect(heapFlags({ NODE_OPTIONS: '--enable-source-maps' })).toEqual([`--max-old-space-size=${DEFAULT_HEAP_MB}`, semi]);
    expect(heapFlags({ NODE_OPTIONS: '--max-semi-space-size=4' })).toEqual([`--max-old-space-size=${DEFAULT_HEAP_MB}`]);
  });

  it('refuses what is not a size: a typo must not start the console with no limit or a tiny one', () => {
    for (const bad of ['abc', '512MB', '-1', '1.5', '64']) expect(() => heapFlags({ HEAP_MB: bad }), bad).toThrow(/HEAP_MB/);
  });

  it('is the limit node then runs with (old space plus a young generation of three semi-spaces)', () => {
    expect(limitMb(heapFlags({ HEAP_MB: '300' }))).toBe(300 + 3 * SEMI_SPACE_MB);
    expect(limitMb(heapFlags({ HEAP_MB: '600' }))).toBeGreaterThanOrEqual(600);
  });
});
