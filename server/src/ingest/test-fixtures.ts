/** Shared by the ingest tests: enrolment rows, free ports and a private Mosquitto. */
import net from 'node:net';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Db } from '../platform/db/client.js';
import { generateGatewaySecret, hashGatewaySecret } from './secret.js';

export interface Enrolled {
  sn: string;
  secret: string;
  gatewayId: number;
  customerId: number;
  sensors: { dev: string; id: number }[];
}

const hex = (n: number) => randomBytes(n).toString('hex').toUpperCase();

/** A scene, a carrier, a gateway and `count` sensors of one customer. */
export async function enrol(db: Db, customerId: number, count = 2): Promise<Enrolled> {
  const sn = hex(6);
  const secret = generateGatewaySecret();
  const scene = await db.one<{ id: number }>(`INSERT INTO scene (customer_id, code, label) VALUES ($1, $2, 'Ward') RETURNING id`, [customerId, `S${hex(6)}`]);
  const carrier = await db.one<{ id: number }>(`INSERT INTO carrier (customer_id, scene_id, name, type) VALUES ($1, $2, $3, 2) RETURNING id`, [customerId, scene!.id, `Fridge ${hex(3)}`]);
  const gw = await db.one<{ id: number }>(`INSERT INTO gateway (customer_id, sn, name, secret_hash, carrier_id) VALUES ($1, $2, $2, $3, $4) RETURNING id`, [
    customerId,
    sn,
    hashGatewaySecret(secret),
    carrier!.id,
  ]);
  const sensors = [];
  for (let i = 0; i < count; i++) {
    const dev = `T${hex(4)}`;
    const s = await db.one<{ id: number }>(`INSERT INTO sensor (customer_id, dev_no, type, gateway_id, carrier_id) VALUES ($1, $2, 'th', $3, $4) RETURNING id`, [
      customerId,
      dev,
      gw!.id,
      carrier!.id,
    ]);
    sensors.push({ dev, id: s!.id });
  }
  return { sn, secret, gatewayId: gw!.id, customerId, sensors };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, timeoutMs = 5000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const c = net.connect(port, '127.0.0.1', () => (c.end(), resolve(true)));
      c.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nothing listens on ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface Mosquitto {
  url: string;
  port: number;
  dir: string;
  /** A graceful restart (SIGTERM, which saves the persistence file, then a new process on the same port and files). */
  restart(): Promise<void>;
  /** What the broker logged (with `log: true`): connects, take-overs, disconnects. */
  log(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * A Mosquitto of this test file alone, on a free port. `users` become its password file; with
 * `log` it writes its log (connections and take-overs) for `log()`.
 */
export async function startMosquitto(opts: { anonymous?: boolean; users?: Record<string, string>; acl?: string; persistence?: boolean; log?: boolean; brokerDefaults?: boolean } = {}): Promise<Mosquitto> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cw-mosq-'));
  // Started as root, Mosquitto drops to its own user before it reads the password and ACL files
  // (and writes its persistence file and its log into the directory).
  await chmod(dir, opts.persistence || opts.log ? 0o777 : 0o755);
  const logFile = path.join(dir, 'mosquitto.log');
  const port = await freePort();
  const lines = [
    `listener ${port} 127.0.0.1`,
    `allow_anonymous ${opts.anonymous === false ? 'false' : 'true'}`,
    // As in production (docs/ingest.md): sessions, subscriptions and queued messages outlive a restart.
    ...(opts.persistence ? ['persistence true', `persistence_location ${dir}/`] : ['persistence false']),
    // A stopped console's sessions must keep everything published meanwhile (docs/ingest.md);
    // `brokerDefaults` leaves Mosquitto's own limits (20 in flight, 1,000 queued per session).
    ...(opts.brokerDefaults ? [] : ['max_queued_messages 0']),
    ...(opts.log ? [`log_dest file ${logFile}`, 'log_type all', 'connection_messages true'] : ['log_dest none']),
  ];
  if (opts.users) {
    const file = path.join(dir, 'passwd');
    await writeFile(file, '');
    for (const [u, p] of Object.entries(opts.users)) execFileSync('mosquitto_passwd', ['-b', file, u, p]);
    await chmod(file, 0o644);
    lines.push(`password_file ${file}`);
  }
  if (opts.acl) {
    await writeFile(path.join(dir, 'acl'), opts.acl);
    lines.push(`acl_file ${path.join(dir, 'acl')}`);
  }
  await writeFile(path.join(dir, 'mosquitto.conf'), lines.join('\n') + '\n');
  const run = () => spawn('mosquitto', ['-c', path.join(dir, 'mosquitto.conf')], { stdio: 'ignore' });
  const end = async (c: ChildProcess) => {
    if (c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    await exited;
  };
  let child: ChildProcess = run();
  await waitForPort(port);
  return {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    dir,
    async restart() {
      await end(child);
      child = run();
      await waitForPort(port);
    },
    log: () => readFile(logFile, 'utf8').catch(() => ''),
    async stop() {
      await end(child);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export const until = async (check: () => Promise<boolean>, what: string, timeoutMs = 10_000) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};
