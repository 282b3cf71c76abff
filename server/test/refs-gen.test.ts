import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REFS_FILE, refsSource } from '../../packages/contract/scripts/refs.js';

describe('packages/contract/src/refs.gen.ts', () => {
  it('is generated from the route definitions as they are now (npm run contract:refs)', () => {
    expect(readFileSync(REFS_FILE, 'utf8')).toBe(refsSource());
  });
});
