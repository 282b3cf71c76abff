import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../src/ingest/test-fixtures.js';

const run = promisify(execFile);

export interface PrivatePostgres {
  url: string;
  /** Stops the server (fast shutdown: connections are cut, new ones refused). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it for good and removes its files. */
  remove(): Promise<void>;
}

/** The machine's PostgreSQL server binaries (Debian keeps them per major version), or undefined. */
async function binDir(): Promise<string | undefined> {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = (await readdir(root)).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => path.join(root, v, 'bin')).find((d) => existsSync(path.join(d, 'pg_ctl')));
}

/**
 * A PostgreSQL server of this test file alone, on a free port and a directory of its own, that
 * the test may stop and start (the machine's shared server is never touched). Undefined when
 * the machine has no PostgreSQL binaries. As root, the server runs as the `postgres` user.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres | undefined> {
  const bin = await binDir();
  if (!bin) return undefined;
  const dir = await mkdtemp(path.join(tmpdir(), 'cw-pg-'));
  await chmod(dir, 0o777);
  const data = path.join(dir, 'data');
  const asServer = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  const pg = (tool: string, args: string[]) => {
    const [cmd, ...rest] = [...asServer, path.join(bin, tool), ...args];
    return run(cmd, rest, { timeout: 60_000 });
  };
  await pg('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const start = async () => void (await pg('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']));
  const stop = async () => void (await pg('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']));
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    async remove() {
      await stop().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
