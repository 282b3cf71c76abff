import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Code, PARAMS, paramNumber, toLocale } from '@coldwatch/contract';
import type { Db } from '../db/client.js';
import { sql, type RawBuilder } from 'kysely';
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

/*
 * Sign-in under attack. Three layers, none of which can keep the rightful user out for good:
 * - one bucket per client address across every sign-in route (LOGIN_RATE_LIMIT calls a
 *   minute: login on both paths, registration, picture codes, QR codes), so that spreading
 *   guesses over routes gains nothing; the QR status poll, asked once a second by a waiting
 *   browser, has its own bucket of QR_POLL_TIMES as many;
 * - wrong passwords counted per (account, address): five in a row lock that address out of
 *   that account for 30 s, doubling up to 15 min. Another address, the rightful user's, is not
 *   affected, so failures from elsewhere cannot lock anyone out;
 * - guesses against one account from many addresses: once the account has had
 *   ACCOUNT_CAPTCHA_AFTER wrong passwords within the last hour, from anywhere, every login of it
 *   needs a correct picture code, LOGIN_CAPTCHA=off or not. A guess then costs a code solved by
 *   a person, tried once; the rightful user passes with one.
 * Every address is the client's as the limits see it: IPv4, or an IPv6 address's /64 (one
 * subscriber's network: counting single IPv6 addresses would hand an attacker 2^64 of them).
 */

/** The address the sign-in limits count: IPv4 (also when mapped into IPv6), or the /64 network of an IPv6 address. */
export function clientAddress(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!ip.includes(':')) return ip;
  const [head, tail] = ip.split('%')[0].split('::');
  const groups = (part: string | undefined) => (part ? part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : []);
  const h = groups(head);
  const t = groups(tail);
  const all = tail === undefined ? h : [...h, ...Array<string>(Math.max(0, 8 - h.length - t.length)).fill('0'), ...t];
  return `${all
    .slice(0, 4)
    .map((g) => parseInt(g || '0', 16).toString(16))
    .join(':')}::/64`;
}

/** The QR status poll's allowance, in multiples of LOGIN_RATE_LIMIT: a waiting browser asks once a second. */
export const QR_POLL_TIMES = 6;
const WINDOW_MS = 60_000;

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;
/** Per app (its config): every module's sign-in routes draw on the same buckets. */
const buckets = new WeakMap<object, { signIn: Limiter; qrPoll: Limiter }>();

/**
 * The per-address buckets of the sign-in routes: `signIn(req)` for every sign-in call,
 * `qrPoll(req)` for the QR status poll; each answers 429 with Retry-After when the address
 * has used its minute's calls. Called first in the handlers (the route options' rateLimit
 * would give every route a bucket of its own).
 */
export function signInLimits(app: FastifyInstance, config: { loginRateLimit: number }) {
  let b = buckets.get(config);
  if (!b) {
    const keyGenerator = (req: FastifyRequest) => clientAddress(req.ip);
    b = {
      signIn: app.createRateLimit({ max: config.loginRateLimit, timeWindow: WINDOW_MS, keyGenerator }),
      qrPoll: app.createRateLimit({ max: config.loginRateLimit * QR_POLL_TIMES, timeWindow: WINDOW_MS, keyGenerator }),
    };
    buckets.set(config, b);
  }
  const take = async (limit: Limiter, req: FastifyRequest) => {
    const r = await limit(req);
    if (!r.isAllowed && r.isExceeded) throw new AppError(Code.FAILED, 'errors.tooMany', 429, undefined, { seconds: Math.max(1, r.ttlInSeconds) });
  };
  const { signIn, qrPoll } = b;
  return { signIn: (req: FastifyRequest) => take(signIn, req), qrPoll: (req: FastifyRequest) => take(qrPoll, req) };
}

/** Consecutive wrong passwords from one address an account allows before that address is locked out of it. */
export const FREE_FAILURES = 5;
/** The lock after the n-th wrong password beyond FREE_FAILURES: 30 s, doubling, at most 15 min. */
export const lockSeconds = (failures: number) => Math.min(900, 30 * 2 ** Math.max(0, failures - FREE_FAILURES - 1));
/** Wrong passwords on one account within the last hour, from all addresses, after which its logins need a picture code: the default of the "login_verification_after" parameter. */
export const ACCOUNT_CAPTCHA_AFTER = Number(PARAMS.login_verification_after.default);

/**
 * The login verification of /sys/paramsetup (spec §3 "login verification on/off and time"):
 * `always`, every login and registration needs the picture code (LOGIN_CAPTCHA=on forces it for
 * the whole console, the parameter turns it on at run time); `after`, the wrong passwords on an
 * account within an hour after which its logins need one even when off.
 */
export async function loginVerification(db: Db, config: { loginCaptcha: boolean }): Promise<{ always: boolean; after: number }> {
  const rows = await system(db).selectFrom('setting').select(['key', 'value']).where('key', 'in', ['login_verification', 'login_verification_after']).execute();
  const v = new Map(rows.map((r) => [r.key, r.value]));
  return { always: config.loginCaptcha || v.get('login_verification') === 'on', after: paramNumber('login_verification_after', v.get('login_verification_after')) };
}

const failures = (db: Db) => crossTenant(db, 'wrong passwords are counted before any session exists');

/** How an account stands for a login from `address`: seconds this address is still locked out of it, and whether a picture code is required. */
export async function failureState(db: Db, userId: number, address: string, captchaAfter = ACCOUNT_CAPTCHA_AFTER): Promise<{ lockedFor: number; captcha: boolean }> {
  const row = await failures(db)
    .selectFrom('login_failure')
    .select([
      sql<number | null>`max(ceil(extract(epoch from locked_until - now()))) FILTER (WHERE address = ${address} AND locked_until > now())`.as('left'),
      sql<number>`coalesce(sum(failures) FILTER (WHERE last_failed_at > now() - interval '1 hour'), 0)`.as('recent'),
    ])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return { lockedFor: Number(row?.left ?? 0), captcha: Number(row?.recent ?? 0) >= captchaAfter };
}

/** A locked address is refused whatever the password (so guessing from it gains nothing while it lasts). */
export const lockedOut = (seconds: number) => new AppError(Code.LOGIN_FAILED, 'errors.signIn.locked', 429, undefined, { seconds });

/** A wrong password from `address`: counted; from the sixth in a row that address is locked out of the account for a growing time. */
export async function countFailure(db: Db, user: { id: number; customer_id: number }, address: string) {
  const f = failures(db);
  // Rows of addresses quiet for a day are forgotten here (no job needed): their locks are long over.
  await f.deleteFrom('login_failure').where('last_failed_at', '<', sql<Date>`now() - interval '1 day'`).execute();
  const lock = (n: RawBuilder<number>) =>
    sql<Date | null>`CASE WHEN ${n} > ${FREE_FAILURES} THEN now() + least(900, 30 * power(2, greatest(0, ${n} - ${FREE_FAILURES} - 1))) * interval '1 second' END`;
  await f
    .insertInto('login_failure')
    .values({ user_id: user.id, customer_id: user.customer_id, address, failures: 1, locked_until: lock(sql<number>`1`) })
    .onConflict((oc) =>
      oc.columns(['user_id', 'address']).doUpdateSet({
        failures: sql`login_failure.failures + 1`,
        locked_until: lock(sql<number>`login_failure.failures + 1`),
        last_failed_at: sql`now()`,
      }),
    )
    .execute();
}

/** A successful login from `address` clears that address's count (the other addresses' stay: they are not the user's). */
export const clearFailures = (db: Db, userId: number, address: string) =>
  failures(db).deleteFrom('login_failure').where('user_id', '=', userId).where('address', '=', address).execute();

/** A refused login leaves its result-0 row with the caller's address (no session yet, so no customer on it). */
export const logRefusedLogin = (db: Db, req: FastifyRequest, account: string, content: string, via: string) =>
  writeLog(db, req, { module: 'user', method: 'login', content, params: { account, via } }, 0);
