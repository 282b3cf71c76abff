import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });

export interface RunningConsole {
  url: string;
  mqttPort: number;
  databaseUrl?: string;
  log: () => string;
  stop(): Promise<void>;
}

/**
 * Starts the real console as production runs it (the compiled `server/dist/main.js`, which
 * `npm run build` makes and `npm run serve` and the Dockerfile start), with demo data, on
 * free ports and a fresh database: a new database on the machine's PostgreSQL when
 * DATABASE_URL is set, a new PGlite directory otherwise; or, for a replica, `databaseUrl`.
 */
export async function startConsole(env: Record<string, string> = {}, opts: { databaseUrl?: string } = {}): Promise<RunningConsole> {
  const port = await freePort();
  const mqttPort = await freePort();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cw-e2e-'));
  // A replica shares another console's database (which that console drops when it stops).
  let databaseUrl: string | undefined = opts.databaseUrl;
  let dbName: string | undefined;
  if (process.env.DATABASE_URL && !databaseUrl) {
    dbName = `cw_e2e_${Math.random().toString(16).slice(2, 10)}`;
    const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await c.connect();
    await c.query(`CREATE DATABASE ${dbName}`);
    await c.end();
    const u = new URL(process.env.DATABASE_URL);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  }
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', 'server/dist/main.js'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      MQTT_PORT: String(mqttPort),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      MQTT_URL: '',
      DEMO: '1',
      LOGIN_CAPTCHA: 'off',
      LOG_LEVEL: 'warn',
      // Tests send hours of readings in seconds, which the evaluator takes for a gateway's buffer
      // and holds (docs/alarms.md "Back-filled readings"); a test of the hold sets it.
      ALARM_BACKFILL_HOLD_S: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`console exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`console did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    url,
    mqttPort,
    databaseUrl,
    log: () => output,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      await rm(dataDir, { recursive: true, force: true });
      if (dbName) {
        const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await c.end();
      }
    },
  };
}
