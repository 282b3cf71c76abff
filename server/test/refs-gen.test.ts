import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFS_DIR, refsSources } from '../../packages/contract/scripts/refs.js';

describe('packages/contract/src/refs.gen.ts and src/refs/', () => {
  it('are generated from the route definitions as they are now (npm run contract:refs)', () => {
    const files = refsSources();
    for (const [file, text] of files) {
      expect(existsSync(file), `${file} is missing`).toBe(true);
      expect(readFileSync(file, 'utf8'), file).toBe(text);
    }
    // No file of an API that no longer exists.
    expect(readdirSync(REFS_DIR).map((f) => path.join(REFS_DIR, f)).sort()).toEqual([...files.keys()].filter((f) => f.startsWith(REFS_DIR + path.sep)).sort());
  });
});
