import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Gateway secrets are 256 random bits issued by the console, never chosen by a person, so
 * a slow password hash buys nothing against guessing; a plain SHA-256 keeps every MQTT
 * CONNECT and HTTP request cheap. The prefix names the scheme so it can change later.
 */
const PREFIX = 'sha256:';

/** A new secret for a gateway: 64 hex characters (safe in shells, URLs and password files), shown to the user once. */
export function generateGatewaySecret(): string {
  return randomBytes(32).toString('hex');
}

/** What gateway.secret_hash stores for a secret. */
export function hashGatewaySecret(secret: string): string {
  return PREFIX + createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time check of a presented secret against gateway.secret_hash. */
export function verifyGatewaySecret(stored: string | null | undefined, secret: string | Buffer | null | undefined): boolean {
  if (!stored || !stored.startsWith(PREFIX) || secret == null) return false;
  const presented = Buffer.from(hashGatewaySecret(typeof secret === 'string' ? secret : secret.toString('utf8')));
  const expected = Buffer.from(stored);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}
