import { randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../../platform/db/client.js';

/** Spec §9: a login QR code is valid five minutes. */
export const LOGIN_QR_TTL_MS = 5 * 60_000;

export type QrState = 'waiting' | 'confirmed' | 'used';

export interface QrRow {
  key: string;
  status: QrState;
  user_id: number | null;
  expired: boolean;
}

/** A new waiting key; expiry is taken from the database clock, the same clock every check uses. */
export async function create(db: Db): Promise<{ key: string; expiresAt: number }> {
  // Keys live five minutes; anything older than a day is gone for good.
  await db.query(`DELETE FROM login_qr WHERE expires_at < now() - interval '1 day'`);
  const key = randomBytes(24).toString('base64url');
  const row = await db.one<{ expiresAt: number }>(
    `INSERT INTO login_qr (key, expires_at) VALUES ($1, now() + $2 * interval '1 millisecond')
     RETURNING (extract(epoch from expires_at) * 1000)::bigint AS "expiresAt"`,
    [key, LOGIN_QR_TTL_MS],
  );
  return { key, expiresAt: row!.expiresAt };
}

export const find = (q: Queryable, key: string) =>
  q.query<QrRow>('SELECT key, status, user_id, expires_at <= now() AS expired FROM login_qr WHERE key = $1', [key]).then((r) => r[0]);

/** Ends a waiting key at once (refresh): it can be neither confirmed nor used afterwards. */
export const expire = (db: Db, key: string) => db.query(`UPDATE login_qr SET expires_at = now() WHERE key = $1 AND status = 'waiting' AND expires_at > now()`, [key]);

/** A signed-in user takes a waiting, unexpired key; false when the key was not in that state. */
export async function confirm(q: Queryable, key: string, userId: number): Promise<boolean> {
  const rows = await q.query(`UPDATE login_qr SET status = 'confirmed', user_id = $2 WHERE key = $1 AND status = 'waiting' AND expires_at > now() RETURNING key`, [key, userId]);
  return rows.length > 0;
}

/** Single use: the first poll after confirmation claims the key; later polls find it used. */
export async function claim(db: Db, key: string): Promise<number | undefined> {
  const row = await db.one<{ user_id: number }>(
    `UPDATE login_qr SET status = 'used' WHERE key = $1 AND status = 'confirmed' AND expires_at > now() RETURNING user_id`,
    [key],
  );
  return row?.user_id;
}
