// `npm start` as a user (or a supervisor) runs it: killing its whole process group, even with
// SIGKILL, must not leave the server behind holding the ports.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './support/console.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function answers(url: string) {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(1000) })).ok;
  } catch {
    return false;
  }
}

describe('npm start', () => {
  let dataDir = '';
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('stops the server when its process group is killed with SIGKILL', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'cw-start-'));
    const port = await freePort();
    const launcher = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: root,
      detached: true, // its own process group, as a terminal or a supervisor gives it
      stdio: 'ignore',
      env: {
        ...process.env,
        PORT: String(port),
        MQTT_PORT: '0',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        MQTT_URL: '',
        DEMO: '0',
        SIMULATOR: '0',
        ROOT_PASSWORD: 'start-test-root',
        LOG_LEVEL: 'warn',
      },
    });
    const health = `http://127.0.0.1:${port}/healthz`;
    const deadline = Date.now() + 120_000;
    while (!(await answers(health))) {
      expect(Date.now(), 'the console did not start').toBeLessThan(deadline);
      await sleep(300);
    }

    process.kill(-launcher.pid!, 'SIGKILL');
    const gone = Date.now() + 25_000;
    while (await answers(health)) {
      expect(Date.now(), 'the server outlived its launcher').toBeLessThan(gone);
      await sleep(300);
    }
  });
});
