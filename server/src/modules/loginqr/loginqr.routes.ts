import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import QRCode from 'qrcode';
import { authApi, Code, loginQrApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import type { Db } from '../../platform/db/client.js';
import { mutate } from '../../platform/audit/audit.js';
import { AppError } from '../../platform/http/errors.js';
import { said, serve } from '../../platform/http/route.js';
import { cookieOpts, logRefusedLogin, openSession, refuseCancelled, signInLimits } from '../../platform/auth/login.js';
import { findById, publicUser } from '../user/user.repository.js';
import * as repo from './loginqr.repository.js';

/** What the code encodes: the mobile client reads the key after this prefix and confirms it. */
export const QR_PREFIX = 'coldwatch-login:';

/**
 * The secret of the browser a code was issued to. Strict same-site and limited to the QR
 * calls: no other site can make the browser send it, and no other call carries it.
 */
export const QR_COOKIE = 'cw_qr';
const QR_COOKIE_PATH = '/service/mine/loginQrcode';

/**
 * A new code, bound to the asking browser by a fresh secret in its cookie. Fresh each time, never
 * taken from the request: a secret planted in the browser beforehand must not bind its codes.
 * One browser holds one waiting code: a newer one (refresh, another tab) takes the binding.
 */
async function issue(db: Db, req: FastifyRequest, reply: FastifyReply) {
  const secret = randomBytes(32).toString('base64url');
  const { key, expiresAt } = await repo.create(db, secret);
  const qrcode = await QRCode.toDataURL(`${QR_PREFIX}${key}`, { errorCorrectionLevel: 'M', margin: 1, width: 240 });
  reply.setCookie(QR_COOKIE, secret, { ...cookieOpts(req), sameSite: 'strict', path: QR_COOKIE_PATH, maxAge: repo.LOGIN_QR_TTL_MS / 1000 });
  reply.header('cache-control', 'no-store');
  return { key, qrcode, expiresAt };
}

/**
 * Login by QR code (spec §2/§4/§9): the browser shows a key valid five minutes, a signed-in
 * mobile client confirms it, and the browser that asked for the key, polling its status, is
 * logged in once. The key is in the picture for anyone who sees the screen; what logs in is the
 * key together with the asking browser's secret.
 */
export const loginQrRoutes: Module = (app, { db, config }) => {
  const limits = signInLimits(app, config);
  serve(app, loginQrApi.get, { public: true }, async (req, reply) => {
    await limits.signIn(req);
    return issue(db, req, reply);
  });

  serve(app, loginQrApi.refresh, { public: true }, async (req, reply) => {
    await limits.signIn(req);
    // Only the browser showing a code may end it: to others a key is just a string.
    const secret = req.cookies[QR_COOKIE];
    if (req.query.key && secret) await repo.expire(db, req.query.key, secret);
    return issue(db, req, reply);
  });

  /** Called by the signed-in mobile client with the key it scanned: the browser showing it may log in as this user. */
  serve(app, loginQrApi.confirm, {}, async (req) => {
    const { key } = req.query;
    await mutate(db, req, { module: 'loginQr', method: 'confirm', content: `confirm login QR for ${req.scope.account}`, params: { key: `${key.slice(0, 6)}…` } }, async (q) => {
      const row = await repo.find(q, key);
      if (!row) throw new AppError(Code.FAILED, 'errors.loginQr.unknown');
      if (row.status !== 'waiting') throw new AppError(Code.FAILED, 'errors.loginQr.used');
      if (row.expired || !(await repo.confirm(q, key, req.scope))) throw new AppError(Code.FAILED, 'errors.loginQr.expired');
    });
    return { status: 'confirmed' as const };
  });

  /**
   * Polled by the browser that asked for the key: waiting | expired | confirmed; on confirmed it
   * is logged in (once). Any other caller is told the key is unknown, whatever its state: it
   * learns neither that the key exists nor that it was confirmed, and its polls change nothing
   * (the owner's login is not spent by them).
   */
  serve(app, authApi.qrStatus, { public: true }, async (req, reply) => {
    await limits.qrPoll(req);
    reply.header('cache-control', 'no-store');
    const { key } = req.query;
    const secret = req.cookies[QR_COOKIE];
    const row = await repo.findOwn(db, key, secret);
    if (!row || !secret) throw new AppError(Code.FAILED, 'errors.loginQr.unknown');
    if (row.status === 'waiting' && !row.expired) return { status: 'waiting' as const, user: null };
    const userId = row.status === 'confirmed' ? await repo.claim(db, key, secret) : undefined;
    reply.clearCookie(QR_COOKIE, { path: QR_COOKIE_PATH });
    if (userId === undefined) return { status: 'expired' as const, user: null };
    const user = await findById(db, userId);
    try {
      if (!user) throw new AppError(Code.LOGIN_FAILED, 'errors.login.accountCancelled');
      refuseCancelled(user);
    } catch (err) {
      await logRefusedLogin(db, req, user?.account ?? String(userId), `login by QR code refused: ${user?.account ?? userId}`, 'qrcode');
      throw err;
    }
    // A session of the same account in this browser is kept (the poll may repeat); see openSession.
    const locale = await openSession(db, req, reply, user, { via: 'qrcode', refuseSame: false });
    return said({ status: 'confirmed' as const, user: publicUser(user) }, 'errors.ok', locale);
  });
};
