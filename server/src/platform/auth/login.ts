import type { FastifyReply, FastifyRequest } from 'fastify';
import { Code, toLocale } from '@coldwatch/contract';
import type { Db } from '../db/client.js';
import { sql } from 'kysely';
import { crossTenant, system } from '../db/kysely.js';
import { writeLog } from '../audit/audit.js';
import { AppError } from '../http/errors.js';
import { createSession, dropSession, resolveSession, revokeOtherSessions, SESSION_COOKIE, SESSION_TTL_MS } from './session.js';
import type { Scope } from './scope.js';

/** `setting` row: 'on' = a new login ends the account's other sessions (they answer 500104). Default off. */
export const SINGLE_SESSION_KEY = 'single_session';

/**
 * The console's cookies: HTTP-only, same-site lax, and `Secure` whenever the request came over
 * HTTPS — directly, or through a proxy trusted with TRUST_PROXY that says so in X-Forwarded-Proto.
 */
export const cookieOpts = (req: FastifyRequest) => ({ path: '/', httpOnly: true, sameSite: 'lax' as const, secure: req.protocol === 'https' });

/** The account facts every way of logging in checks. */
export interface LoginUser {
  id: number;
  account: string;
  customer_id: number;
  status: number;
  customer_status: number;
  locale: string | null;
}

/** A cancelled customer or account may not log in (spec §4), whatever the way in. */
export function refuseCancelled(user: LoginUser) {
  if (user.customer_status !== 1) throw new AppError(Code.LOGIN_FAILED, 'errors.login.cancelled');
  if (user.status !== 1) throw new AppError(Code.LOGIN_FAILED, 'errors.login.accountCancelled');
}

/**
 * Opens the browser's session for a user that has proved who it is (password, or a QR code
 * its phone confirmed), the one way every login ends:
 * - a live session of the same account in this browser: with `refuseSame` it is §8 500105
 *   (password login), else kept as it is (QR polling);
 * - a session of another account in this browser ends: its cookie is replaced;
 * - with `single_session` on, the account's other sessions end (§8 500104);
 * - the login is written to the system log, and the answer's language is the user's stored one.
 */
export async function openSession(db: Db, req: FastifyRequest, reply: FastifyReply, user: LoginUser, how: { via: 'password' | 'qrcode'; refuseSame: boolean }) {
  const held = req.cookies[SESSION_COOKIE];
  const current = held ? await resolveSession(db, held) : undefined;
  if (current?.userId === user.id && how.refuseSame) throw new AppError(Code.ALREADY_LOGGED_IN, 'errors.alreadyLoggedIn');
  if (current?.userId !== user.id) {
    if (current) await dropSession(db, held!);
    const token = await createSession(db, user.id, user.customer_id);
    if ((await system(db).selectFrom('setting').select('value').where('key', '=', SINGLE_SESSION_KEY).executeTakeFirst())?.value === 'on') await revokeOtherSessions(db, user.id, token);
    reply.setCookie(SESSION_COOKIE, token, { ...cookieOpts(req), maxAge: SESSION_TTL_MS / 1000 });
  }
  req.scope = { userId: user.id, account: user.account, customerId: user.customer_id } as Scope;
  await writeLog(db, req, { module: 'user', method: 'login', content: `login${how.via === 'qrcode' ? ' by QR code' : ''}: ${user.account}`, params: { account: user.account, via: how.via } }, 1);
  return toLocale(user.locale) ?? req.locale;
}

/** The per-address limit of a sign-in route: `times` the configured calls per minute. */
export const signInLimit = (config: { loginRateLimit: number }, times = 1) => ({ max: config.loginRateLimit * times, timeWindow: 60_000 });

/** Consecutive wrong passwords an account may have before it is locked. */
export const FREE_FAILURES = 5;
/** The lock after the n-th wrong password beyond FREE_FAILURES: 30 s, doubling, at most 15 min. */
export const lockSeconds = (failures: number) => Math.min(900, 30 * 2 ** Math.max(0, failures - FREE_FAILURES - 1));

const accounts = (db: Db) => crossTenant(db, 'the login lockout is kept on the account before any session exists');

/** A locked account is refused whatever the password (so guessing gains nothing while it lasts). */
export async function refuseLocked(db: Db, userId: number) {
  const row = await accounts(db)
    .selectFrom('app_user')
    .select(sql<number>`ceil(extract(epoch from locked_until - now()))::int`.as('left'))
    .where('id', '=', userId)
    .where('locked_until', '>', sql<Date>`now()`)
    .executeTakeFirst();
  if (row) throw new AppError(Code.LOGIN_FAILED, 'errors.login.locked', 429, undefined, { seconds: row.left });
}

/** A wrong password: counted; from the sixth in a row the account is locked for a growing time. */
export async function countFailure(db: Db, userId: number) {
  await accounts(db)
    .updateTable('app_user')
    .set((eb) => ({
      failed_logins: eb('failed_logins', '+', 1),
      locked_until: sql<Date | null>`CASE WHEN failed_logins + 1 > ${FREE_FAILURES}
        THEN now() + least(900, 30 * power(2, greatest(0, failed_logins + 1 - ${FREE_FAILURES} - 1))) * interval '1 second' ELSE locked_until END`,
    }))
    .where('id', '=', userId)
    .execute();
}

/** A successful login clears the count. */
export const clearFailures = (db: Db, userId: number) =>
  accounts(db).updateTable('app_user').set({ failed_logins: 0, locked_until: null }).where('id', '=', userId).where('failed_logins', '>', 0).execute();

/** A refused login leaves its result-0 row (no session yet, so no customer on it). */
export const logRefusedLogin = (db: Db, account: string, content: string, via: string) =>
  writeLog(db, undefined, { module: 'user', method: 'login', content, params: { account, via } }, 0);
