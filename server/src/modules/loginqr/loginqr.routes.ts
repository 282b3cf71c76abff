import { z } from 'zod';
import QRCode from 'qrcode';
import { Code, toLocale } from '@coldwatch/contract';
import type { Module } from '../index.js';
import type { Db } from '../../platform/db/client.js';
import { mutate, writeLog } from '../../platform/audit/audit.js';
import { ok } from '../../platform/http/envelope.js';
import { AppError } from '../../platform/http/errors.js';
import { createSession, dropSession, resolveSession, revokeOtherSessions, SESSION_COOKIE, SESSION_TTL_MS } from '../../platform/auth/session.js';
import { findById, publicUser } from '../user/user.repository.js';
import { SINGLE_SESSION_KEY } from '../user/user.routes.js';
import * as repo from './loginqr.repository.js';

/** What the code encodes: the mobile client reads the key after this prefix and confirms it. */
export const QR_PREFIX = 'coldwatch-login:';

const keyQuery = z.object({ key: z.string().trim().min(1).max(64) });

async function issue(db: Db) {
  const { key, expiresAt } = await repo.create(db);
  const qrcode = await QRCode.toDataURL(`${QR_PREFIX}${key}`, { errorCorrectionLevel: 'M', margin: 1, width: 240 });
  return { key, qrcode, expiresAt };
}

/**
 * Login by QR code (spec §2/§4/§9): the browser shows a key valid five minutes, a signed-in
 * mobile client confirms it, and the browser, polling the key's status, is logged in once.
 */
export const loginQrRoutes: Module = (app, { db }) => {
  const tags = ['mine'];
  const cookieOpts = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: false };

  app.get('/service/mine/loginQrcode/get', { config: { public: true }, schema: { tags } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return ok(await issue(db), req.locale);
  });

  app.get('/service/mine/loginQrcode/refresh', { config: { public: true }, schema: { querystring: z.object({ key: z.string().trim().max(64).optional() }), tags } }, async (req, reply) => {
    if (req.query.key) await repo.expire(db, req.query.key);
    reply.header('cache-control', 'no-store');
    return ok(await issue(db), req.locale);
  });

  /** Called by the signed-in mobile client with the key it scanned: the browser showing it may log in as this user. */
  app.post('/service/mine/loginQrcode/confirm', { schema: { querystring: keyQuery, tags } }, async (req) => {
    const { key } = req.query;
    await mutate(db, req, { module: 'loginQr', method: 'confirm', content: `confirm login QR for ${req.scope.account}`, params: { key: `${key.slice(0, 6)}…` } }, async (q) => {
      const row = await repo.find(q, key);
      if (!row) throw new AppError(Code.FAILED, 'errors.loginQr.unknown');
      if (row.status !== 'waiting') throw new AppError(Code.FAILED, 'errors.loginQr.used');
      if (row.expired || !(await repo.confirm(q, key, req.scope.userId))) throw new AppError(Code.FAILED, 'errors.loginQr.expired');
    });
    return ok({ status: 'confirmed' as const }, req.locale);
  });

  /** Polled by the waiting browser: waiting | expired | confirmed; on confirmed the browser is logged in (once). */
  app.get('/service/mine/loginQrcode/status', { config: { public: true }, schema: { querystring: keyQuery, tags } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const { key } = req.query;
    const row = await repo.find(db, key);
    if (!row) throw new AppError(Code.FAILED, 'errors.loginQr.unknown');
    if (row.status === 'waiting' && !row.expired) return ok({ status: 'waiting' as const, user: null }, req.locale);
    const userId = row.status === 'confirmed' ? await repo.claim(db, key) : undefined;
    if (userId === undefined) return ok({ status: 'expired' as const, user: null }, req.locale);
    const user = await findById(db, userId);
    if (!user || user.status !== 1 || user.customer_status !== 1) {
      await writeLog(db, undefined, { module: 'user', method: 'login', content: `login by QR code refused: ${user?.account ?? userId}`, params: { account: user?.account, via: 'qrcode' } }, 0);
      throw new AppError(Code.LOGIN_FAILED, user && user.customer_status !== 1 ? 'errors.login.cancelled' : 'errors.login.accountCancelled');
    }
    // As the password login: a session of another account held by this browser ends (its
    // cookie is replaced); one of the same account is kept; with single_session on, the
    // account's other sessions (the confirming phone's too) end with 500104.
    const held = req.cookies[SESSION_COOKIE];
    const current = held ? await resolveSession(db, held) : undefined;
    if (current?.userId !== user.id) {
      if (current) await dropSession(db, held!);
      const token = await createSession(db, user.id, user.customer_id);
      const single = await db.one<{ value: string }>('SELECT value FROM setting WHERE key = $1', [SINGLE_SESSION_KEY]);
      if (single?.value === 'on') await revokeOtherSessions(db, user.id, token);
      reply.setCookie(SESSION_COOKIE, token, { ...cookieOpts, maxAge: SESSION_TTL_MS / 1000 });
    }
    req.scope = { userId: user.id, account: user.account, customerId: user.customer_id } as any;
    await writeLog(db, req, { module: 'user', method: 'login', content: `login by QR code: ${user.account}`, params: { account: user.account, via: 'qrcode' } }, 1);
    return ok({ status: 'confirmed' as const, user: publicUser(user) }, toLocale(user.locale) ?? req.locale);
  });
};
