#!/usr/bin/env node
// `npm start`: build the web app when web/dist is missing or older than its sources, compile the
// server (server/dist/main.js, under a second), then run it with the demo defaults, forwarding
// signals: the same JavaScript as production, so its memory and start-up are production's (the
// sources through tsx held its compiled modules and loader besides, and started slower).
// `npm run serve` (scripts/serve.mjs) runs the compiled console through runConsole() below too.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Newest modification time under the given files and folders (0 when none exist). */
export function newest(paths) {
  let max = 0;
  const walk = (p) => {
    let st;
    try {
      st = statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const e of readdirSync(p)) if (e !== 'node_modules' && e !== 'dist') walk(path.join(p, e));
    } else if (st.mtimeMs > max) max = st.mtimeMs;
  };
  for (const p of paths) walk(p);
  return max;
}

/** Whether web/dist must be (re)built: missing, or older than the web sources or the shared contract. */
export function webBuildNeeded() {
  const index = path.join(root, 'web/dist/index.html');
  if (!existsSync(index)) return 'web/dist is missing';
  const built = statSync(index).mtimeMs;
  const sources = newest([
    path.join(root, 'web/src'),
    path.join(root, 'web/index.html'),
    path.join(root, 'web/vite.config.ts'),
    path.join(root, 'web/package.json'),
    path.join(root, 'packages/contract/src'),
    path.join(root, 'packages/contract/locales'),
  ]);
  return sources > built ? 'web sources changed since the last build' : null;
}

/** Compiles the server into server/dist/main.js (half a second; always, so it never runs stale). */
export function buildServer() {
  const r = spawnSync(npm, ['run', 'build', '-w', 'server'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('The server did not build; see the messages above.');
    process.exit(r.status ?? 1);
  }
}

export function buildWeb(reason) {
  console.log(`Building the web app (${reason}): npm run build -w web`);
  const t0 = Date.now();
  const r = spawnSync(npm, ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('The web app did not build; see the messages above.');
    process.exit(r.status ?? 1);
  }
  console.log(`Web app built in ${((Date.now() - t0) / 1000).toFixed(1)} s.`);
}

/**
 * Null when this Node.js is at least the package.json's `engines.node` (">=N"), else the
 * message that says which Node is needed and how to get it.
 */
export function nodeTooOld(version = process.versions.node) {
  const wanted = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).engines?.node ?? '';
  const min = Number(/^>=\s*(\d+)/.exec(wanted)?.[1] ?? 0);
  const lts = readFileSync(path.join(root, '.nvmrc'), 'utf8').trim();
  if (Number(version.split('.')[0]) >= min) return null;
  return [
    `Coldwatch needs Node.js ${min} or later (it is tested on ${lts}, the current LTS); this is Node.js ${version}.`,
    `Install Node.js ${lts} (nvm install, which reads .nvmrc, or your system's packages; on Linux x64`,
    `  export PATH="$(bash scripts/node-lts.sh):$PATH"  fetches it from the npm registry),`,
    'then run npm install && npm start again.',
  ].join('\n');
}

/**
 * The old-space limit the console runs with, in MB (`HEAP_MB`, README "Configuration"). Node
 * sizes it from the machine's memory (about 4 GB on a 24 GB machine), and V8 then lets the
 * garbage of each minute's burst of readings pile up to hundreds of MB before a full collection:
 * the console's resident memory is mostly garbage it has not collected yet (docs/operations.md
 * "Memory"). 384 holds the live heap of 100,000 sensors reporting every minute with two boards
 * open, the reconnect storm and an export of a year (docs/performance.md "Memory").
 * `HEAP_MB=0` leaves it to Node, and a `--max-old-space-size` in NODE_OPTIONS wins over it.
 */
export const DEFAULT_HEAP_MB = 384;

/**
 * The young generation's semi-spaces with a limit, in MB. With a 384 MB old space V8 gives them
 * 32 MB each (96 MB of young generation, all of it resident during a burst); at 16 the console
 * stays under 400 MB at 100,000 sensors, where at 32 it reached 414 (docs/performance.md "Memory").
 */
export const SEMI_SPACE_MB = 16;

/** The node flags that set the console's heap limit, from the environment. */
export function heapFlags(env = process.env) {
  if (/--max-old-space-size/.test(env.NODE_OPTIONS ?? '')) return [];
  const raw = env.HEAP_MB?.trim() || String(DEFAULT_HEAP_MB);
  const mb = Number(raw);
  if (!Number.isInteger(mb) || mb < 0 || (mb > 0 && mb < 128)) throw new Error(`HEAP_MB must be 0 (Node's default) or a whole number of MB from 128 up, not "${raw}".`);
  if (!mb) return [];
  const semi = /--max-semi-space-size/.test(env.NODE_OPTIONS ?? '') ? [] : [`--max-semi-space-size=${SEMI_SPACE_MB}`];
  return [`--max-old-space-size=${mb}`, ...semi];
}

/**
 * Runs the console in a child process with these node arguments and waits for it, forwarding
 * signals. The server runs in its own process group, so that a Ctrl-C reaches it once (from
 * here), not twice (from the terminal and from here); we pass every signal on and wait for it to
 * drain. The IPC channel is its lifeline: when this process dies in a way that it cannot pass on
 * (SIGKILL of the whole group, say), the channel closes and the server shuts down by itself.
 */
export function runConsole(args, env) {
  const child = spawn(process.execPath, [...heapFlags(env), ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    detached: true,
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(sig, () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(sig === 'SIGHUP' ? 'SIGTERM' : sig);
    });
  }
  // If this process dies some other way, do not leave the server behind.
  process.on('exit', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  });
  child.on('exit', (code, signal) => {
    process.exit(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 1) : 1));
  });
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const tooOld = nodeTooOld();
  if (tooOld) {
    console.error(tooOld);
    process.exit(1);
  }
  const reason = webBuildNeeded();
  if (reason) buildWeb(reason);

  // npm start is the demo: demo data and the simulator unless the caller says otherwise.
  const env = { ...process.env };
  env.DEMO ??= '1';
  if (env.SIMULATOR === undefined && env.DEMO === '1') env.SIMULATOR = '1';
  buildServer();
  runConsole(['--enable-source-maps', path.join(root, 'server/dist/main.js')], env);
}
