#!/usr/bin/env node
// Compiles the server for production: one ES module, server/dist/main.js, with the workspace
// packages (the contract, the simulator) bundled in and every npm dependency left to
// node_modules, plus the migrations beside it. Production then runs plain JavaScript
// (`node server/dist/main.js`), not TypeScript through a loader.
import { build } from 'esbuild';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const server = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(server, 'dist');
const pkg = JSON.parse(readFileSync(path.join(server, 'package.json'), 'utf8'));
const workspace = Object.keys(pkg.dependencies).filter((d) => d.startsWith('@coldwatch/'));

/** Every bare import that is not one of ours stays external, resolved from node_modules at run time. */
const externalNpm = {
  name: 'external-npm',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { external: true };
      if (workspace.some((w) => args.path === w || args.path.startsWith(`${w}/`))) return undefined;
      return { path: args.path, external: true };
    });
  },
};

const t0 = Date.now();
rmSync(dist, { recursive: true, force: true });
await build({
  entryPoints: [path.join(server, 'src/main.ts')],
  outfile: path.join(dist, 'main.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  plugins: [externalNpm],
  logLevel: 'warning',
});
cpSync(path.join(server, 'src/platform/db/migrations'), path.join(dist, 'migrations'), { recursive: true });
console.log(`server/dist/main.js built in ${Date.now() - t0} ms`);
