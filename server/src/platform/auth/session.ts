import { randomBytes } from 'node:crypto';
import { governedCustomers, ROOT_USER_ID, userFuncs } from './funcs.js';
import { USER_TYPE } from '@coldwatch/contract';
import type { Db, Queryable } from '../db/client.js';
import type { Scope } from './scope.js';
import { isPlatform } from './scope.js';

export const SESSION_COOKIE = 'cw_session';
export const SESSION_TTL_MS = 12 * 3600_000;

export async function createSession(db: Db, userId: number, customerId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.query('DELETE FROM user_session WHERE expires_at < now()');
  await db.query('INSERT INTO user_session(token, user_id, customer_id, expires_at) VALUES ($1, $2, $3, $4)', [
    token,
    userId,
    customerId,
    new Date(Date.now() + SESSION_TTL_MS),
  ]);
  return token;
}

export async function dropSession(db: Db, token: string) {
  await db.query('DELETE FROM user_session WHERE token = $1', [token]);
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
}

/** Resolves a session token to the caller's scope; undefined when expired, unknown or cancelled. */
export async function resolveSession(db: Db, token: string | undefined): Promise<Scope | undefined> {
  if (!token) return undefined;
  const row = await db.one<SessionRow>(
    `SELECT s.user_id, u.account, u.name, u.customer_id, u.user_type, u.is_admin, u.status AS user_status, u.proxy_customer_id, s.revoked,
            c.status AS customer_status, s.expires_at
       FROM user_session s JOIN app_user u ON u.id = s.user_id JOIN customer c ON c.id = u.customer_id
      WHERE s.token = $1`,
    [token],
  );
  if (!row || row.revoked || row.expires_at.getTime() < Date.now() || row.user_status !== 1 || row.customer_status !== 1) return undefined;
  // Sliding expiry: an active user stays signed in; touch at most once a minute.
  if (row.expires_at.getTime() - Date.now() < SESSION_TTL_MS - 60_000) {
    await db.query('UPDATE user_session SET expires_at = $2 WHERE token = $1', [token, new Date(Date.now() + SESSION_TTL_MS)]);
  }
  const scope: Scope = {
    userId: row.user_id,
    account: row.account,
    name: row.name,
    customerId: row.customer_id,
    userType: row.user_type,
    isAdmin: row.is_admin,
    customerIds: [row.customer_id],
    sceneIds: null,
    funcs: new Set(),
  };
  if (isPlatform(scope)) scope.customerIds = null;
  else if (row.user_type === USER_TYPE.proxy) {
    // A proxy sees its own customer and the customers its roles govern; the one it switched to is its current customer.
    const governed = await governedCustomers(db, row.user_id);
    scope.customerIds = [...new Set([row.customer_id, ...governed])];
    if (row.proxy_customer_id && governed.includes(row.proxy_customer_id)) scope.customerId = row.proxy_customer_id;
  }
  if (!isPlatform(scope) && row.user_id !== ROOT_USER_ID) scope.sceneIds = await sceneLimit(db, row.user_id);
  scope.funcs = new Set(await userFuncs(db, row.user_id, row.user_type));
  return scope;
}

/**
 * A user's scene limit (docs/permissions.md "Scene limit"): its own user_scene rows plus the
 * role_scene rows of its active roles, closed over every scene below them, in one query.
 * null when it has no such rows (not limited). The customer filter (scopeWhere) still applies
 * beside it, so a scene of another customer in these rows grants nothing.
 */
export async function sceneLimit(db: Queryable, userId: number): Promise<number[] | null> {
  const rows = await db.query<{ id: number }>(
    `WITH RECURSIVE lim AS (
       SELECT us.scene_id AS id FROM user_scene us WHERE us.user_id = $1
       UNION
       SELECT rs.scene_id FROM role_scene rs JOIN user_role ur ON ur.role_id = rs.role_id JOIN role r ON r.id = rs.role_id
        WHERE ur.user_id = $1 AND r.status = 1
     ), sub AS (
       SELECT id FROM lim
       UNION
       SELECT s.id FROM scene s JOIN sub ON s.parent_id = sub.id
     )
     SELECT id FROM sub ORDER BY id`,
    [userId],
  );
  return rows.length ? rows.map((r) => r.id) : null;
}

/** Why a session token no longer works, when it was ended on purpose: 'conflict' = the account logged in elsewhere (spec §8 500104). */
export async function revokedReason(db: Db, token: string | undefined): Promise<string | undefined> {
  if (!token) return undefined;
  const row = await db.one<{ revoked: string | null }>('SELECT revoked FROM user_session WHERE token = $1', [token]);
  return row?.revoked ?? undefined;
}

/** Ends every session of a user (deleted, cancelled, password reset), or all but one (password change keeps the caller's). */
export async function endUserSessions(q: Queryable, userIds: number | number[], exceptToken?: string) {
  await q.query('DELETE FROM user_session WHERE user_id = ANY($1::int[]) AND token <> $2', [([] as number[]).concat(userIds), exceptToken ?? '']);
}

/** Single-session login: the account's other live sessions are marked revoked, so their next call answers 500104. */
export async function revokeOtherSessions(q: Queryable, userId: number, keepToken: string, reason = 'conflict') {
  await q.query('UPDATE user_session SET revoked = $3 WHERE user_id = $1 AND token <> $2 AND revoked IS NULL', [userId, keepToken, reason]);
}
