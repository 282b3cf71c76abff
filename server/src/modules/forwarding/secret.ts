import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { Db } from '../../platform/db/client.js';
import { keyOf } from '../../platform/auth/captcha.js';

/*
 * The forwarding servers' passwords and the platforms' keys, encrypted at rest (AES-256-GCM):
 * the forwarder needs them back in clear to log in, so they cannot be hashed. The key comes
 * from FORWARD_SECRET_KEY when it is set (keep it outside the database, so a copy of the
 * database alone does not reveal the secrets); unset, it is derived from the console's own
 * server secret in the `setting` table (platform/auth/captcha.ts keyOf), which every replica
 * shares, so that the demo and a single console need no set-up. docs/forwarding.md says what
 * changing the variable means: stored secrets must be entered again.
 */

const PREFIX = 'v1';
const keys = new WeakMap<Db, Map<string, Promise<Buffer>>>();

/** The key of this database and variable: the variable's SHA-256, else an HKDF of the server secret. */
export function secretKey(db: Db, fromEnv: string | undefined): Promise<Buffer> {
  const byDb = keys.get(db) ?? new Map<string, Promise<Buffer>>();
  keys.set(db, byDb);
  const name = fromEnv ?? '';
  let k = byDb.get(name);
  if (!k) {
    k = fromEnv ? Promise.resolve(createHash('sha256').update(fromEnv).digest()) : keyOf(db).then((base) => Buffer.from(hkdfSync('sha256', base, Buffer.alloc(0), 'coldwatch forwarding secrets', 32)));
    byDb.set(name, k);
  }
  return k;
}

/** `v1.<iv>.<tag>.<ciphertext>` in base64url; the empty secret stays empty (nothing stored). */
export function seal(key: Buffer, clear: string): string {
  if (!clear) return '';
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([c.update(clear, 'utf8'), c.final()]);
  return [PREFIX, iv.toString('base64url'), c.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

/** The clear secret; throws when the key is not the one it was sealed with (the variable changed). */
export function open(key: Buffer, sealed: string): string {
  if (!sealed) return '';
  const [v, iv, tag, body] = sealed.split('.');
  if (v !== PREFIX || !iv || !tag || body === undefined) throw new Error('forwarding secret: unknown format');
  const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  d.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([d.update(Buffer.from(body, 'base64url')), d.final()]).toString('utf8');
}

/**
 * The key of the console's database under its environment: FORWARD_SECRET_KEY (README,
 * "Configuration"), read here and by the forwarder only, so both always agree.
 */
export const forwardingKey = (db: Db, env: NodeJS.ProcessEnv = process.env) => secretKey(db, env.FORWARD_SECRET_KEY || undefined);
