import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../scripts/check-docs.mjs');

// The docs name functions, files and tables of the code in backticks, and link to each other;
// a rename that leaves a doc behind fails here (scripts/check-docs.mjs says how it decides).
test('every code name, path and link of README.md and docs/*.md exists', () => {
  const run = spawnSync(process.execPath, [script], { encoding: 'utf8' });
  expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
});
