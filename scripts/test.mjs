#!/usr/bin/env node
// `npm test`: every check of the repo, one after another: the type check of every workspace
// (`npm run typecheck`), ESLint (`npm run lint`), the server tests (PGlite, or the PostgreSQL
// named by DATABASE_URL), the web app's, and the end-to-end suite in real Chromium against
// the built app. Exits non-zero when anything failed, and prints as its
// very last line `N passed, N failed` (the CI reads it).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, buildWeb, webBuildNeeded } from './start.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const vitest = path.join(root, 'node_modules/vitest/vitest.mjs');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'coldwatch-test-'));

/** Runs one vitest suite with the default reporter on screen and a JSON report on disk. */
function runVitest(name, cwd, extraArgs = []) {
  const out = path.join(tmp, `${name}.json`);
  const args = [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...extraArgs];
  console.log(`\n=== ${name}: vitest run ${extraArgs.join(' ')} (in ${path.relative(root, cwd) || '.'}) ===\n`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd, stdio: 'inherit', env: process.env });
    const forward = (sig) => child.kill(sig);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(summarise(name, out, code ?? (signal ? 1 : 0)));
    });
  });
}

/** Counts from vitest's JSON report; a file that failed without a failing test (it did not load) counts as one failure. */
function summarise(name, file, exitCode) {
  let passed = 0;
  let failed = 0;
  const failures = [];
  let report;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    report = undefined;
  }
  if (report) {
    passed = report.numPassedTests ?? 0;
    failed = report.numFailedTests ?? 0;
    for (const f of report.testResults ?? []) {
      const file = path.relative(root, f.name ?? '');
      const failing = (f.assertionResults ?? []).filter((a) => a.status === 'failed');
      for (const a of failing) failures.push(`${file} > ${[...(a.ancestorTitles ?? []), a.title].join(' > ')}: ${firstLine(a.failureMessages?.[0])}`);
      if (f.status === 'failed' && !failing.length) {
        failed++;
        failures.push(`${file} did not run: ${firstLine(f.message)}`);
      }
    }
  }
  if (exitCode !== 0 && failed === 0) failed = 1; // vitest itself failed (no report, or an error outside the tests)
  return { name, passed, failed, exitCode, failures };
}

/** The first line of a failure message, without colour codes, for the summary. */
const ansiColour = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const firstLine = (msg) => String(msg ?? '').replace(ansiColour, '').split('\n')[0].slice(0, 300);

/** An npm script as one step: passed when it exits 0 (a failure counts as one failed check). */
function runScript(name, script) {
  console.log(`\n=== ${name}: npm run ${script} ===\n`);
  return new Promise((resolve) => {
    const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', script], { cwd: root, stdio: 'inherit', env: process.env });
    child.on('exit', (code, signal) => {
      const exitCode = code ?? (signal ? 1 : 0);
      resolve({ name, passed: exitCode === 0 ? 1 : 0, failed: exitCode === 0 ? 0 : 1, exitCode });
    });
  });
}

const results = [];
const skipped = [];

const db = process.env.DATABASE_URL ? `PostgreSQL at ${process.env.DATABASE_URL.replace(/\/\/([^:@/]+):[^@/]+@/, '//$1:***@')}` : 'PGlite';
console.log(`Coldwatch tests; database: ${db}`);

results.push(await runScript('types', 'typecheck'));
results.push(await runScript('lint', 'lint'));
results.push(await runVitest('server', path.join(root, 'server')));
results.push(await runVitest('web', path.join(root, 'web')));

if (existsSync(path.join(root, 'e2e/vitest.config.ts'))) {
  const reason = webBuildNeeded();
  if (reason) buildWeb(reason);
  buildServer(); // the e2e suite starts the compiled server, as production does
  results.push(await runVitest('e2e', path.join(root, 'e2e'), ['--config', 'vitest.config.ts']));
} else {
  skipped.push('e2e (no e2e/vitest.config.ts)');
}

rmSync(tmp, { recursive: true, force: true });

console.log('\n=== summary ===');
for (const r of results) console.log(`${r.name.padEnd(8)} ${r.passed} passed, ${r.failed} failed${r.exitCode ? ` (vitest exit ${r.exitCode})` : ''}`);
// The failures again, last, so that the tail of a long log (all a CI page may keep) names them.
for (const r of results) for (const f of r.failures ?? []) console.log(`FAILED ${r.name}: ${f}`);
for (const s of skipped) console.log(`skipped  ${s}`);
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
const ok = results.every((r) => r.exitCode === 0) && failed === 0;
process.exitCode = ok ? 0 : 1;
console.log(`${passed} passed, ${failed} failed`);
