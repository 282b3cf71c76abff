import { createHash, randomBytes } from 'node:crypto';
import { cutToUserType, governedSql, roleFuncsSql, ROOT_USER_ID } from './funcs.js';
import { toLocale, USER_TYPE } from '@coldwatch/contract';
import { sql, type Expression } from 'kysely';
import type { Db, Queryable } from '../db/client.js';
import { crossTenant } from '../db/kysely.js';
import type { Scope } from './scope.js';
import { isPlatform } from './scope.js';
import { sessionCacheOf } from './session-cache.js';

export const SESSION_COOKIE = 'cw_session';

/** Sessions are found by their token, before any scope exists: the token is the credential. */
const sessions = (q: Queryable) => crossTenant(q, 'a session is resolved by its token before a scope exists');
export const SESSION_TTL_MS = 12 * 3600_000;

/**
 * The database keeps a session's SHA-256, never the token itself: a copy of the table (a
 * backup, a replica, a leaked dump) does not let anyone sign in.
 */
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new session; answers the token for the cookie (only its hash is stored). */
export async function createSession(db: Db, userId: number, customerId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const k = sessions(db);
  await k.deleteFrom('user_session').where('expires_at', '<', sql<Date>`now()`).execute();
  await k.insertInto('user_session').values({ token: tokenHash(token), user_id: userId, customer_id: customerId, expires_at: new Date(Date.now() + SESSION_TTL_MS) }).execute();
  return token;
}

export async function dropSession(db: Db, token: string) {
  await sessions(db).deleteFrom('user_session').where('token', '=', tokenHash(token)).execute();
}

/**
 * Resolves a session token to the caller's scope; undefined when expired, unknown or cancelled.
 * One statement (docs/performance.md "Signed-in API"): the session, its user and customer, the
 * functions of its roles, the customers a proxy governs and the scene limit. On PostgreSQL the
 * row is kept in memory until anything it was read from changes (session-cache.ts, migration
 * 0029), so a role, user or customer change still holds from the very next request.
 */
export async function resolveSession(db: Db, token: string | undefined): Promise<Scope | undefined> {
  if (!token) return undefined;
  const hash = tokenHash(token);
  const cache = sessionCacheOf<SessionRow>(db);
  let row = cache?.get(hash);
  if (!row) {
    const readAt = cache?.now ?? 0;
    row = await readSession(db, hash);
    if (row) cache?.keep(hash, row, readAt);
  }
  if (!row || row.revoked || row.expires_at.getTime() < Date.now() || row.user_status !== 1 || row.customer_status !== 1) return undefined;
  // Sliding expiry: an active user stays signed in; touch at most once a minute.
  if (row.expires_at.getTime() - Date.now() < SESSION_TTL_MS - 60_000) {
    const expires = new Date(Date.now() + SESSION_TTL_MS);
    await sessions(db).updateTable('user_session').set({ expires_at: expires }).where('token', '=', hash).execute();
    row.expires_at = expires;
  }
  const scope: Scope = {
    userId: row.user_id,
    account: row.account,
    name: row.name,
    customerId: row.customer_id,
    homeCustomerId: row.customer_id,
    userType: row.user_type,
    isAdmin: row.is_admin,
    customerIds: [row.customer_id],
    sceneIds: row.scene_ids?.length ? row.scene_ids : null,
    funcs: new Set(cutToUserType(row.funcs, row.user_id, row.user_type)),
    locale: toLocale(row.locale) ?? null,
  };
  if (isPlatform(scope)) scope.customerIds = null;
  else if (row.governed) {
    // A proxy sees its own customer and the customers its roles govern; the one it switched to is its current customer.
    scope.customerIds = [...new Set([row.customer_id, ...row.governed])];
    if (row.proxy_customer_id && row.governed.includes(row.proxy_customer_id)) scope.customerId = row.proxy_customer_id;
  }
  return scope;
}

async function readSession(db: Db, hash: string): Promise<SessionRow | undefined> {
  const uid = sql.ref<number>('s.user_id');
  const { rows } = await sql<SessionRow>`
    SELECT s.user_id, u.account, u.name, u.customer_id, u.user_type, u.is_admin, u.status AS user_status, u.locale,
           u.proxy_customer_id, s.revoked, c.status AS customer_status, s.expires_at,
           ${roleFuncsSql(uid)} AS funcs,
           CASE WHEN u.user_type = ${USER_TYPE.proxy} THEN ${governedSql(uid)} END AS governed,
           CASE WHEN u.user_type NOT IN (${USER_TYPE.platformUser}, ${USER_TYPE.platformAdmin}) AND s.user_id <> ${ROOT_USER_ID}
                THEN ${sceneLimitSql(uid)} END AS scene_ids
      FROM user_session s JOIN app_user u ON u.id = s.user_id JOIN customer c ON c.id = u.customer_id
     WHERE s.token = ${hash}`.execute(sessions(db));
  return rows[0];
}

interface SessionRow {
  user_id: number;
  account: string;
  name: string;
  customer_id: number;
  user_type: number;
  is_admin: boolean;
  user_status: number;
  proxy_customer_id: number | null;
  revoked: string | null;
  customer_status: number;
  expires_at: Date;
  funcs: string[];
  governed: number[] | null;
  scene_ids: number[] | null;
  locale: string | null;
}

/**
 * A user's scene limit (docs/permissions.md "Scene limit"): its own user_scene rows plus the
 * role_scene rows of its active roles, closed over every scene below them, as int[] (empty when
 * it has no such rows: not limited). The customer scope (platform/db/scoped.ts) still applies
 * beside it, so a scene of another customer in these rows grants nothing.
 */
const sceneLimitSql = (userId: Expression<number>) =>
  sql<number[]>`(WITH RECURSIVE lim AS (
       SELECT us.scene_id AS id FROM user_scene us WHERE us.user_id = ${userId}
       UNION
       SELECT rs.scene_id FROM role_scene rs JOIN user_role ur ON ur.role_id = rs.role_id JOIN role r ON r.id = rs.role_id
        WHERE ur.user_id = ${userId} AND r.status = 1
     ), sub AS (
       SELECT id FROM lim
       UNION
       SELECT s.id FROM scene s JOIN sub ON s.parent_id = sub.id
     )
     SELECT coalesce(array_agg(id ORDER BY id), '{}') FROM sub)`;

/** Why a session token no longer works, when it was ended on purpose: 'conflict' = the account logged in elsewhere (spec §8 500104). */
export async function revokedReason(db: Db, token: string | undefined): Promise<string | undefined> {
  if (!token) return undefined;
  const row = await sessions(db).selectFrom('user_session').select('revoked').where('token', '=', tokenHash(token)).executeTakeFirst();
  return row?.revoked ?? undefined;
}

/** Ends every session of a user (deleted, cancelled, password reset), or all but one (password change keeps the caller's). */
export async function endUserSessions(q: Queryable, userIds: number | number[], exceptToken?: string) {
  await sessions(q).deleteFrom('user_session').where('user_id', 'in', ([] as number[]).concat(userIds)).where('token', '<>', exceptToken ? tokenHash(exceptToken) : '').execute();
}

/** Single-session login: the account's other live sessions are marked revoked, so their next call answers 500104. */
export async function revokeOtherSessions(q: Queryable, userId: number, keepToken: string, reason = 'conflict') {
  await sessions(q).updateTable('user_session').set({ revoked: reason }).where('user_id', '=', userId).where('token', '<>', tokenHash(keepToken)).where('revoked', 'is', null).execute();
}
