import type { FastifyReply, FastifyRequest } from 'fastify';
import { authApi, Code } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { AppError } from '../../platform/http/errors.js';
import { said, serve } from '../../platform/http/route.js';
import { verifyPassword } from '../../platform/auth/password.js';
import { CAPTCHA_COOKIE, checkCaptcha, createCaptcha } from '../../platform/auth/captcha.js';
import { dropSession, SESSION_COOKIE } from '../../platform/auth/session.js';
import { clearFailures, clientAddress, cookieOpts, countFailure, failureState, lockedOut, logRefusedLogin, loginVerification, openSession, refuseCancelled, signInLimits } from '../../platform/auth/login.js';
import * as repo from './user.repository.js';

/** Captcha, login and logout (spec §2 login page, §8 500101/500105/5001xx). */
export const loginRoutes: Module = (app, { db, config }) => {
  const limits = signInLimits(app, config);
  /** A request the browser says comes from the console's own pages (Sec-Fetch-Site, else Origin/Referer against Host). */
  const sameOrigin = (req: FastifyRequest) => {
    const site = req.headers['sec-fetch-site'];
    if (site) return site === 'same-origin' || site === 'none';
    const from = req.headers.origin ?? req.headers.referer;
    if (!from) return false;
    try {
      return new URL(String(from)).host === req.headers.host;
    } catch {
      return false;
    }
  };
  serve(app, authApi.captcha, { public: true }, async (req, reply) => {
    await limits.signIn(req);
    const c = await createCaptcha(db);
    reply.setCookie(CAPTCHA_COOKIE, c.id, { ...cookieOpts(req), maxAge: c.maxAgeS });
    reply.header('cache-control', 'no-store').type('image/svg+xml');
    return c.svg;
  });

  serve(app, authApi.options, { public: true }, async () => ({ captcha: (await loginVerification(db, config)).always }));

  for (const def of [authApi.login, authApi.homeLogin]) {
    serve(app, def, { public: true }, async (req, reply) => {
      await limits.signIn(req);
      const body = req.body;
      const address = clientAddress(req.ip);
      const captcha = async () => {
        if (!body.code) throw new AppError(Code.LOGIN_FAILED, 'errors.login.emptyCode');
        if (!(await checkCaptcha(db, req.cookies[CAPTCHA_COOKIE], body.code))) throw new AppError(Code.LOGIN_FAILED, 'errors.login.captchaError');
      };
      // The login verification of /sys/paramsetup (LOGIN_CAPTCHA=on forces it).
      const verify = await loginVerification(db, config);
      if (verify.always) await captcha();
      const user = await repo.findByAccount(db, body.account);
      if (!user) throw new AppError(Code.ACCOUNT_NOT_FOUND, 'errors.login.accountNotFound');
      const state = await failureState(db, user.id, address, verify.after);
      if (state.lockedFor > 0) throw lockedOut(state.lockedFor);
      // Under attack from many addresses the account asks every caller for a picture code, even
      // with the verification off; the details name the field, so a form without it can show it.
      if (state.captcha && !verify.always) {
        if (!body.code) throw new AppError(Code.LOGIN_FAILED, 'errors.signIn.captchaRequired', 200, { code: 'errors.signIn.captchaRequired' });
        await captcha();
      }
      if (!(await verifyPassword(user.password_hash, body.password))) {
        await countFailure(db, user, address);
        await logRefusedLogin(db, req, body.account, `login failed: ${body.account}`, 'password');
        throw new AppError(Code.PASSWORD_ERROR, 'errors.login.passwordError');
      }
      await clearFailures(db, user.id, address);
      refuseCancelled(user);
      // Spec §8 500105: this browser already holds a live session of the same account; it is kept.
      const locale = await openSession(db, req, reply, user, { via: 'password', refuseSame: true });
      reply.clearCookie(CAPTCHA_COOKIE, { path: '/' });
      return said({ user: repo.publicUser(user) }, 'errors.ok', locale);
    });
  }

  const logout = async (req: FastifyRequest, reply: FastifyReply) => {
    const token = req.cookies[SESSION_COOKIE];
    if (token) await dropSession(db, token);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return null;
  };
  serve(app, authApi.logoutPost, { public: true }, logout);
  // The spec's GET stays as an alias, but only for the console's own pages: a link or an image
  // on another site must not be able to sign a user out.
  serve(app, authApi.logout, { public: true }, async (req, reply) => {
    if (!sameOrigin(req)) throw new AppError(Code.NO_PERMISSION, 'errors.crossSite', 403);
    return logout(req, reply);
  });
};
