import { z } from 'zod';
import { Code, loginBody, translate, toLocale, ALL_FUNCS } from '@coldwatch/contract';
import type { Module } from '../index.js';
import { AppError } from '../../platform/http/errors.js';
import { ok } from '../../platform/http/envelope.js';
import { verifyPassword } from '../../platform/auth/password.js';
import { checkCaptcha, createCaptcha } from '../../platform/auth/captcha.js';
import { createSession, dropSession, SESSION_COOKIE, SESSION_TTL_MS } from '../../platform/auth/session.js';
import { writeLog } from '../../platform/audit/audit.js';
import { findByAccount, findById, publicUser } from './user.repository.js';

const CAPTCHA_COOKIE = 'cw_captcha';

/** Login, logout, captcha, the caller's own info and the page-info call of spec §4/§7. */
export const userRoutes: Module = (app, { db, config }) => {
  const cookieOpts = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: false };

  app.get('/service/user/captcha', { config: { public: true }, schema: { tags: ['user'] } }, async (req, reply) => {
    const c = await createCaptcha(db);
    reply.setCookie(CAPTCHA_COOKIE, c.id, { ...cookieOpts, maxAge: 300 });
    reply.header('cache-control', 'no-store').type('image/svg+xml');
    return c.svg;
  });

  app.get('/service/user/loginOptions', { config: { public: true }, schema: { tags: ['user'] } }, async (req) =>
    ok({ captcha: config.loginCaptcha }, req.locale),
  );

  const login = async (req: any, reply: any) => {
    const body = req.body as z.infer<typeof loginBody>;
    if (config.loginCaptcha) {
      if (!body.code) throw new AppError(Code.LOGIN_FAILED, 'errors.login.emptyCode');
      if (!(await checkCaptcha(db, req.cookies[CAPTCHA_COOKIE], body.code))) throw new AppError(Code.LOGIN_FAILED, 'errors.login.captchaError');
    }
    const user = await findByAccount(db, body.account);
    if (!user) throw new AppError(Code.ACCOUNT_NOT_FOUND, 'errors.login.accountNotFound');
    if (!(await verifyPassword(user.password_hash, body.password))) {
      await writeLog(db, undefined, { module: 'user', method: 'login', content: `login failed: ${body.account}`, params: { account: body.account } }, 0);
      throw new AppError(Code.PASSWORD_ERROR, 'errors.login.passwordError');
    }
    if (user.status !== 1 || user.customer_status !== 1) throw new AppError(Code.LOGIN_FAILED, 'errors.login.cancelled');
    const token = await createSession(db, user.id, user.customer_id);
    reply.setCookie(SESSION_COOKIE, token, { ...cookieOpts, maxAge: SESSION_TTL_MS / 1000 });
    reply.clearCookie(CAPTCHA_COOKIE, { path: '/' });
    req.scope = { userId: user.id, account: user.account, customerId: user.customer_id } as any;
    await writeLog(db, req, { module: 'user', method: 'login', content: `login: ${user.account}`, params: { account: body.account } }, 1);
    const locale = toLocale(user.locale) ?? req.locale;
    return ok({ user: publicUser(user) }, locale);
  };
  app.post('/service/user/login', { config: { public: true }, schema: { body: loginBody, tags: ['user'] } }, login);
  app.post('/api/home/login', { config: { public: true }, schema: { body: loginBody, tags: ['user'] } }, login);

  app.get('/service/user/logout', { config: { public: true }, schema: { tags: ['user'] } }, async (req, reply) => {
    const token = req.cookies[SESSION_COOKIE];
    if (token) await dropSession(db, token);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return ok(null, req.locale);
  });

  app.get('/service/mine/info', { schema: { tags: ['mine'] } }, async (req) => {
    const user = await findById(db, req.scope.userId);
    if (!user) throw new AppError(404, 'errors.notFound', 404);
    return ok({ user: publicUser(user), scope: { customer_id: user.customer_id, type: user.user_type }, switchScope: [], guide_on: user.guide_on }, req.locale);
  });

  /** Page info of spec §4: funcs, the auth map and the user; the login guard logs out when funcs is empty. */
  app.get('/service/mine/pageInfo', { schema: { tags: ['mine'] } }, async (req) => {
    const user = await findById(db, req.scope.userId);
    if (!user) throw new AppError(404, 'errors.notFound', 404);
    const funcs = ALL_FUNCS.filter((f) => req.scope.funcs.has(f));
    return ok({ funcs, auths: Object.fromEntries(funcs.map((f) => [f, true])), userRsp: publicUser(user), userType: user.user_type }, req.locale);
  });

  app.put('/service/mine/guide', { schema: { querystring: z.object({ on: z.enum(['0', '1']) }), tags: ['mine'] } }, async (req) => {
    await db.query('UPDATE app_user SET guide_on = $2 WHERE id = $1', [req.scope.userId, req.query.on === '1']);
    return ok(null, req.locale);
  });

  /** Stores the chosen interface language: the second source after the cookie (spec §1). */
  app.put('/service/mine/locale', { schema: { querystring: z.object({ lang: z.enum(['zh-CN', 'en-US', 'zh_CN', 'en_US']) }), tags: ['mine'] } }, async (req, reply) => {
    const lang = toLocale(req.query.lang)!;
    await db.query('UPDATE app_user SET locale = $2 WHERE id = $1', [req.scope.userId, lang]);
    reply.setCookie('lang', lang, { path: '/', sameSite: 'lax', maxAge: 365 * 86400 });
    return { state: { code: Code.OK, msg: translate('errors.ok', lang) }, result: { lang } };
  });
};
