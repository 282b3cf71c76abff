/**
 * The console as production runs it, in a child process: `server/dist/main.js` when it is built,
 * else `server/src/main.ts` under tsx (which also compiles the code as it loads: slower to start),
 * with the heap limit of scripts/start.mjs.
 * Timed from the spawn to the first `/readyz` answering 200 (database, broker and jobs up).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../server/src/ingest/test-fixtures.js';
import { heapFlags } from '../../scripts/start.mjs';

const dist = fileURLToPath(new URL('../../server/dist/main.js', import.meta.url));
const src = fileURLToPath(new URL('../../server/src/main.ts', import.meta.url));

export interface RunningConsole {
  child: ChildProcess;
  base: string;
  mqttUrl: string;
  /** Spawn → /readyz 200. */
  readyMs: number;
  /** What ran: the compiled server or the sources under tsx. */
  build: 'dist' | 'tsx';
  stop(): Promise<void>;
}

export async function startConsole(env: Record<string, string>): Promise<RunningConsole> {
  const [http, mqttPort] = [await freePort(), await freePort()];
  const build = existsSync(dist) ? 'dist' : 'tsx';
  // With the heap limit `npm run serve` gives it (HEAP_MB; HEAP_MB=0: node's default).
  const args = [...heapFlags(process.env), ...(build === 'dist' ? [dist] : ['--import', 'tsx', src])];
  const t0 = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, DEMO: '0', ROOT_PASSWORD: 'storm-root', SIMULATOR: '0', LOG_LEVEL: 'warn', ...env, PORT: String(http), MQTT_PORT: String(mqttPort) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  // A bench that fails midway leaves no console behind.
  const orphan = () => child.kill('SIGKILL');
  process.once('exit', orphan);
  const base = `http://127.0.0.1:${http}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the console exited with ${child.exitCode} before it was ready`);
    if (performance.now() - t0 > 180_000) throw new Error('the console was not ready within 180 s');
    if (await fetch(`${base}/readyz`).then((r) => r.status === 200, () => false)) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    child,
    base,
    mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
    readyMs: Math.round(performance.now() - t0),
    build,
    async stop() {
      process.off('exit', orphan);
      child.kill('SIGTERM');
      await exited;
    },
  };
}
