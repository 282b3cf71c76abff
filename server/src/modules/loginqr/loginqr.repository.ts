import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Queryable } from '../../platform/db/client.js';
import { crossTenant } from '../../platform/db/kysely.js';
import { msOf } from '../../platform/db/query.js';

/** Spec §9: a login QR code is valid five minutes. */
export const LOGIN_QR_TTL_MS = 5 * 60_000;

export type QrState = 'waiting' | 'confirmed' | 'used';

/** Before any session the key itself is the credential: no customer scope exists yet. */
const keys = (q: Queryable) => crossTenant(q, 'login QR keys are read before a session exists');

/** What a code keeps of its browser's secret: the secret itself never reaches the database. */
export const secretHash = (secret: string) => createHash('sha256').update(secret).digest('hex');

/**
 * A new waiting key bound to the browser holding `secret` (only its hash is kept); expiry is
 * taken from the database clock, the same clock every check uses.
 */
export async function create(q: Queryable, secret: string): Promise<{ key: string; expiresAt: number }> {
  const k = keys(q);
  // Keys live five minutes; anything older than a day is gone for good (the cache retention job also clears them).
  await k.deleteFrom('login_qr').where('expires_at', '<', sql<Date>`now() - interval '1 day'`).execute();
  const key = randomBytes(24).toString('base64url');
  return k
    .insertInto('login_qr')
    .values({ key, secret_hash: secretHash(secret), expires_at: sql<Date>`now() + ${LOGIN_QR_TTL_MS} * interval '1 millisecond'` })
    .returning(msOf('expires_at').as('expiresAt'))
    .executeTakeFirstOrThrow()
    .then((r) => ({ key, expiresAt: r.expiresAt }));
}

/** The phone's view of a key (it confirms what it scanned): found by the key alone. */
export const find = (q: Queryable, key: string) =>
  keys(q)
    .selectFrom('login_qr')
    .select(['key', sql<QrState>`status`.as('status'), 'user_id', sql<boolean>`expires_at <= now()`.as('expired')])
    .where('key', '=', key)
    .executeTakeFirst();

/**
 * The browser's view of its key: found only with the secret of the browser that asked for it.
 * To any other caller the key does not exist, whatever its state.
 */
export const findOwn = (q: Queryable, key: string, secret: string | undefined) =>
  secret
    ? keys(q)
        .selectFrom('login_qr')
        .select(['key', sql<QrState>`status`.as('status'), 'user_id', sql<boolean>`expires_at <= now()`.as('expired')])
        .where('key', '=', key)
        .where('secret_hash', '=', secretHash(secret))
        .executeTakeFirst()
    : Promise.resolve(undefined);

const waiting = sql<boolean>`status = 'waiting' AND expires_at > now()`;

/** Ends a waiting key at once (refresh by the browser that holds it): it can be neither confirmed nor used afterwards. */
export const expire = (q: Queryable, key: string, secret: string) =>
  keys(q).updateTable('login_qr').set({ expires_at: sql<Date>`now()` }).where('key', '=', key).where('secret_hash', '=', secretHash(secret)).where(waiting).execute();

/** A signed-in user takes a waiting, unexpired key; false when the key was not in that state. */
export async function confirm(q: Queryable, key: string, user: { userId: number; customerId: number }): Promise<boolean> {
  const rows = await keys(q)
    .updateTable('login_qr')
    .set({ status: 'confirmed', user_id: user.userId, customer_id: user.customerId })
    .where('key', '=', key)
    .where(waiting)
    .returning('key')
    .execute();
  return rows.length > 0;
}

/** Single use: the owner's first poll after confirmation claims the key; later polls find it used. */
export async function claim(q: Queryable, key: string, secret: string): Promise<number | undefined> {
  const row = await keys(q)
    .updateTable('login_qr')
    .set({ status: 'used' })
    .where('key', '=', key)
    .where('secret_hash', '=', secretHash(secret))
    .where(sql<boolean>`status = 'confirmed' AND expires_at > now()`)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id ?? undefined;
}
