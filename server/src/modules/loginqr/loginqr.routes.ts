import QRCode from 'qrcode';
import { authApi, Code, loginQrApi } from '@coldwatch/contract';
import type { Module } from '../index.js';
import type { Db } from '../../platform/db/client.js';
import { mutate } from '../../platform/audit/audit.js';
import { AppError } from '../../platform/http/errors.js';
import { said, serve } from '../../platform/http/route.js';
import { logRefusedLogin, openSession, refuseCancelled, signInLimit } from '../../platform/auth/login.js';
import { findById, publicUser } from '../user/user.repository.js';
import * as repo from './loginqr.repository.js';

/** What the code encodes: the mobile client reads the key after this prefix and confirms it. */
export const QR_PREFIX = 'coldwatch-login:';

async function issue(db: Db) {
  const { key, expiresAt } = await repo.create(db);
  const qrcode = await QRCode.toDataURL(`${QR_PREFIX}${key}`, { errorCorrectionLevel: 'M', margin: 1, width: 240 });
  return { key, qrcode, expiresAt };
}

/**
 * Login by QR code (spec §2/§4/§9): the browser shows a key valid five minutes, a signed-in
 * mobile client confirms it, and the browser, polling the key's status, is logged in once.
 */
export const loginQrRoutes: Module = (app, { db, config }) => {
  const limited = { public: true, rateLimit: signInLimit(config) };
  serve(app, loginQrApi.get, limited, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return issue(db);
  });

  serve(app, loginQrApi.refresh, limited, async (req, reply) => {
    if (req.query.key) await repo.expire(db, req.query.key);
    reply.header('cache-control', 'no-store');
    return issue(db);
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

  /** Polled by the waiting browser: waiting | expired | confirmed; on confirmed the browser is logged in (once). */
  // Polled once a second by a waiting browser: six times the sign-in limit.
  serve(app, authApi.qrStatus, { public: true, rateLimit: signInLimit(config, 6) }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const { key } = req.query;
    const row = await repo.find(db, key);
    if (!row) throw new AppError(Code.FAILED, 'errors.loginQr.unknown');
    if (row.status === 'waiting' && !row.expired) return { status: 'waiting' as const, user: null };
    const userId = row.status === 'confirmed' ? await repo.claim(db, key) : undefined;
    if (userId === undefined) return { status: 'expired' as const, user: null };
    const user = await findById(db, userId);
    try {
      if (!user) throw new AppError(Code.LOGIN_FAILED, 'errors.login.accountCancelled');
      refuseCancelled(user);
    } catch (err) {
      await logRefusedLogin(db, user?.account ?? String(userId), `login by QR code refused: ${user?.account ?? userId}`, 'qrcode');
      throw err;
    }
    // A session of the same account in this browser is kept (the poll may repeat); see openSession.
    const locale = await openSession(db, req, reply, user, { via: 'qrcode', refuseSame: false });
    return said({ status: 'confirmed' as const, user: publicUser(user) }, 'errors.ok', locale);
  });
};
