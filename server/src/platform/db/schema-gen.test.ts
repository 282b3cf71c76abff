import { describe, expect, it } from 'vitest';
import { schemaFileIsCurrent } from './schema-gen.js';

describe('generated row types', () => {
  it('schema.gen.ts matches the migrated schema (else run `npm run db:types`)', async () => {
    expect(await schemaFileIsCurrent()).toBe(true);
    // It migrates a fresh database from the first migration: on a busy machine that is slow.
  }, 180_000);
});
