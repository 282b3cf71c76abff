import { spawn } from 'node:child_process';
import type { Queryable } from '../../platform/db/client.js';

/*
 * PostgreSQL's own pg_dump and pg_restore, when the machine has them. pg_dump reads a server
 * of its own major version or older only, and pg_restore reads archives of its version or
 * older: the job uses pg_dump only when the one on PATH is at least the server's version, and
 * otherwise writes the console's logical dump (logical.ts), which needs no tool at all.
 */

/** The major version of a tool on PATH (`pg_dump (PostgreSQL) 15.4` → 15); undefined when there is none. */
export async function toolMajor(bin: string): Promise<number | undefined> {
  try {
    const out = await run(bin, ['--version'], {}, undefined, 10_000);
    const m = /\)\s*(\d+)/.exec(out);
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

export async function serverMajor(q: Queryable): Promise<number> {
  const [row] = await q.query<{ v: string }>("SELECT current_setting('server_version_num') AS v");
  return Math.floor(Number(row.v) / 10_000);
}

/**
 * A connection string for libpq without its password, which goes in PGPASSWORD instead: a
 * password on a command line is visible to every user of the machine in the process list.
 */
export function libpqTarget(url: string): { dbname: string; env: Record<string, string> } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { dbname: u.toString(), env: password ? { PGPASSWORD: password } : {} };
}

/** Runs a tool; rejects with the end of its error output when it fails. Answers its standard output. */
function run(bin: string, args: string[], env: Record<string, string>, signal?: AbortSignal, timeout?: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], signal, timeout });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-4000)));
    child.stderr.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-2000)));
    child.on('error', reject);
    child.on('close', (code, sig) => (code === 0 ? resolve(out) : reject(new Error(`${bin} ${sig ? `stopped by ${sig}` : `exited ${code}`}: ${err.trim() || 'no message'}`))));
  });
}

/** `pg_dump --format=custom` of the database at url into file; a lock it waits a minute for fails the dump. */
export function pgDump(url: string, file: string, signal?: AbortSignal): Promise<string> {
  const { dbname, env } = libpqTarget(url);
  return run('pg_dump', ['--format=custom', '--no-password', '--lock-wait-timeout=60000', `--file=${file}`, `--dbname=${dbname}`], env, signal);
}

/**
 * `pg_restore` of a custom-format archive into the (empty) database at url, in one transaction
 * that stops at the first error; objects are owned by the restoring user, whoever owned them.
 */
export function pgRestore(url: string, file: string): Promise<string> {
  const { dbname, env } = libpqTarget(url);
  return run('pg_restore', ['--no-password', '--no-owner', '--no-acl', '--exit-on-error', '--single-transaction', `--dbname=${dbname}`, file], env);
}
