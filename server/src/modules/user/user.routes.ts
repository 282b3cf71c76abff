import { z } from 'zod';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import {
  AVATAR_MAX_BYTES,
  Code,
  IMAGE_EXTENSIONS,
  PASSWORD_RESET_OK,
  SIGNATURE_MAX_BYTES,
  imageKind,
  loginBody,
  passwordChangeBody,
  personalBody,
  translate,
  toLocale,
  userAddBody,
  userUpdateBody,
  ALL_FUNCS,
} from '@coldwatch/contract';
import type { Module } from '../index.js';
import { AppError, noPermission, notFound } from '../../platform/http/errors.js';
import { ok } from '../../platform/http/envelope.js';
import { idsQuery, pageQuery } from '../../platform/http/paging.js';
import { hashPassword, verifyPassword } from '../../platform/auth/password.js';
import { checkCaptcha, createCaptcha } from '../../platform/auth/captcha.js';
import {
  createSession,
  dropSession,
  endUserSessions,
  resolveSession,
  revokeOtherSessions,
  SESSION_COOKIE,
  SESSION_TTL_MS,
} from '../../platform/auth/session.js';
import { canSee } from '../../platform/auth/scope.js';
import { ROOT_USER_ID } from '../../platform/auth/funcs.js';
import { mutate, writeLog } from '../../platform/audit/audit.js';
import { menuFor } from '../resource/menu.service.js';
import * as repo from './user.repository.js';
import * as svc from './user.service.js';

const CAPTCHA_COOKIE = 'cw_captcha';
/** `setting` row: 'on' = a new login ends the account's other sessions (they answer 500104). Default off. */
export const SINGLE_SESSION_KEY = 'single_session';

const id = z.coerce.number().int().positive();
const pageFilters = pageQuery({
  account: z.string().trim().max(50).optional(),
  name: z.string().trim().max(50).optional(),
  mobile: z.string().trim().max(20).optional(),
  status: z.coerce.number().int().min(0).max(1).optional(),
  customerId: z.coerce.number().int().positive().optional(),
  roleId: z.coerce.number().int().positive().optional(),
});

/** Reads one uploaded image: JPG/JPEG/PNG by extension and by its first bytes, below maxBytes. */
async function readImage(req: FastifyRequest, maxBytes: number): Promise<{ data: Buffer; mime: string }> {
  if (!req.isMultipart()) throw new AppError(Code.FAILED, 'errors.upload.noFile');
  const part = await req.file({ limits: { fileSize: maxBytes - 1, files: 1 }, throwFileSizeLimit: false });
  if (!part) throw new AppError(Code.FAILED, 'errors.upload.noFile');
  const data = await part.toBuffer();
  if (part.file.truncated) throw new AppError(Code.FAILED, maxBytes === AVATAR_MAX_BYTES ? 'errors.upload.tooLarge2m' : 'errors.upload.tooLarge500k');
  const ext = (part.filename.split('.').pop() ?? '').toLowerCase();
  const kind = imageKind(data);
  if (!(IMAGE_EXTENSIONS as readonly string[]).includes(ext) || !kind) throw new AppError(Code.FAILED, 'errors.upload.imageType');
  return { data, mime: kind === 'png' ? 'image/png' : 'image/jpeg' };
}

/**
 * Login, logout, captcha, users (`/service/user/*`, spec §3/§5/§8 User), the caller's own
 * pages (`/service/mine/*`) and the digital signature (`/service/share/signature/*`).
 */
export const userRoutes: Module = async (app, { db, config }) => {
  const cookieOpts = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: false };
  /** Reads the upload outside any transaction; a refused file still leaves its result-0 system-log row. */
  const readLogged = async (req: FastifyRequest, maxBytes: number, entry: { module: string; method: string; content: string }) => {
    try {
      return await readImage(req, maxBytes);
    } catch (err) {
      await writeLog(db, req, entry, 0).catch(() => undefined);
      throw err;
    }
  };
  // Uploads (avatar, signature); limits are set per call.
  await app.register(multipart, { throwFileSizeLimit: false, limits: { files: 1, fields: 10 } });

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
    const user = await repo.findByAccount(db, body.account);
    if (!user) throw new AppError(Code.ACCOUNT_NOT_FOUND, 'errors.login.accountNotFound');
    if (!(await verifyPassword(user.password_hash, body.password))) {
      await writeLog(db, undefined, { module: 'user', method: 'login', content: `login failed: ${body.account}`, params: { account: body.account } }, 0);
      throw new AppError(Code.PASSWORD_ERROR, 'errors.login.passwordError');
    }
    if (user.customer_status !== 1) throw new AppError(Code.LOGIN_FAILED, 'errors.login.cancelled');
    if (user.status !== 1) throw new AppError(Code.LOGIN_FAILED, 'errors.login.accountCancelled');
    // Spec §8 500105: this browser already holds a live session of the same account; it is kept.
    const held = req.cookies[SESSION_COOKIE] as string | undefined;
    if (held) {
      const current = await resolveSession(db, held);
      if (current?.userId === user.id) throw new AppError(Code.ALREADY_LOGGED_IN, 'errors.alreadyLoggedIn');
      // Another account's session in this browser ends: the cookie is about to be replaced.
      if (current) await dropSession(db, held);
    }
    const token = await createSession(db, user.id, user.customer_id);
    // Login conflict (spec §8 500104): with single_session on, the account's other sessions end.
    const single = await db.one<{ value: string }>('SELECT value FROM setting WHERE key = $1', [SINGLE_SESSION_KEY]);
    if (single?.value === 'on') await revokeOtherSessions(db, user.id, token);
    reply.setCookie(SESSION_COOKIE, token, { ...cookieOpts, maxAge: SESSION_TTL_MS / 1000 });
    reply.clearCookie(CAPTCHA_COOKIE, { path: '/' });
    req.scope = { userId: user.id, account: user.account, customerId: user.customer_id } as any;
    await writeLog(db, req, { module: 'user', method: 'login', content: `login: ${user.account}`, params: { account: body.account } }, 1);
    const locale = toLocale(user.locale) ?? req.locale;
    return ok({ user: repo.publicUser(user) }, locale);
  };
  app.post('/service/user/login', { config: { public: true }, schema: { body: loginBody, tags: ['user'] } }, login);
  app.post('/api/home/login', { config: { public: true }, schema: { body: loginBody, tags: ['user'] } }, login);

  app.get('/service/user/logout', { config: { public: true }, schema: { tags: ['user'] } }, async (req, reply) => {
    const token = req.cookies[SESSION_COOKIE];
    if (token) await dropSession(db, token);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return ok(null, req.locale);
  });

  // ---- Users (/user/userinfo) ----
  const tags = ['user'];

  app.get('/service/user/page', { config: { funcs: ['viewUser'] }, schema: { querystring: pageFilters, tags } }, async (req) =>
    ok(await repo.page(db, req.scope, req.query), req.locale),
  );

  app.get('/service/user/detail', { config: { funcs: ['viewUser'] }, schema: { querystring: z.object({ id }), tags } }, async (req) =>
    ok(await repo.detail(db, req.scope, req.query.id), req.locale),
  );

  app.post('/service/user/add', { config: { funcs: ['newUser'] }, attachValidation: true, schema: { body: userAddBody, tags } }, async (req) => {
    const invalid = svc.userValidationError(req);
    const { password, ...params } = (req.body ?? {}) as Partial<typeof req.body>;
    // A refusal (412/414 included) leaves its result-0 row in the system log.
    const r = await mutate(db, req, { module: 'user', method: 'add', content: `add user ${params.account ?? ''}`, params }, async (q) => {
      if (invalid) throw invalid;
      return svc.addUser(q, req.scope, req.body);
    });
    return ok(r, req.locale);
  });

  app.put('/service/user/update', { config: { funcs: ['editUser'] }, attachValidation: true, schema: { body: userUpdateBody, tags } }, async (req) => {
    const invalid = svc.userValidationError(req);
    const r = await mutate(db, req, { module: 'user', method: 'update', content: `update user ${req.body?.id ?? ''}`, params: req.body }, async (q) => {
      if (invalid) throw invalid;
      return svc.updateUser(q, req.scope, req.body);
    });
    return ok(r, req.locale);
  });

  app.delete('/service/user/del', { config: { funcs: ['removeUser'] }, schema: { querystring: idsQuery, tags } }, async (req) => {
    const { ids } = req.query;
    const r = await mutate(db, req, { module: 'user', method: 'del', content: `delete users ${ids.join(',')}`, params: { ids } }, (q) => svc.removeUsers(q, req.scope, ids));
    return ok(r, req.locale);
  });

  app.put(
    '/service/user/status',
    { config: { funcs: ['editUser'] }, schema: { querystring: idsQuery.extend({ status: z.enum(['0', '1'], { error: 'errors.user.statusEmpty' }) }), tags } },
    async (req) => {
      const { ids } = req.query;
      const status = Number(req.query.status) as 0 | 1;
      const r = await mutate(db, req, { module: 'user', method: 'status', content: `set status ${status} of users ${ids.join(',')}`, params: { ids, status } }, (q) =>
        svc.setStatus(q, req.scope, ids, status),
      );
      return ok(r, req.locale);
    },
  );

  /** Spec §8 "Password reset 200 = reset success": result.code 200 and the temporary password, shown once. */
  app.put('/service/user/resetPassword', { config: { funcs: ['editUser'] }, schema: { querystring: z.object({ id }), tags } }, async (req) => {
    const r = await mutate(db, req, { module: 'user', method: 'resetPassword', content: `reset password of user ${req.query.id}`, params: { id: req.query.id } }, (q) =>
      svc.resetPassword(q, req.scope, req.query.id),
    );
    return { state: { code: Code.OK, msg: translate('errors.user.resetSuccess', req.locale) }, result: { code: PASSWORD_RESET_OK, ...r } };
  });

  // ---- The caller's own pages (/personal/material, /material) ----
  const mineTags = ['mine'];

  const info = async (req: FastifyRequest) => {
    const user = await repo.findById(db, req.scope.userId);
    if (!user) throw notFound();
    const switchScope = user.user_type === -1 ? await repo.switchScope(db, user.id, req.scope.customerId) : [];
    return ok({ user: repo.publicUser(user), scope: { customer_id: req.scope.customerId, type: user.user_type }, switchScope, guide_on: user.guide_on }, req.locale);
  };
  app.get('/service/mine/info', { schema: { tags: mineTags } }, info);
  app.get('/service/mine/me', { schema: { tags: mineTags } }, info);

  /** Page info of spec §4: funcs, the auth map, the user, its type and its menu; the login guard logs out when funcs is empty. */
  app.get('/service/mine/pageInfo', { schema: { tags: mineTags } }, async (req) => {
    const user = await repo.findById(db, req.scope.userId);
    if (!user) throw notFound();
    const funcs = ALL_FUNCS.filter((f) => req.scope.funcs.has(f));
    const isRoot = user.id === ROOT_USER_ID;
    return ok(
      {
        funcs,
        auths: Object.fromEntries(funcs.map((f) => [f, true])),
        userRsp: repo.publicUser(user),
        userType: user.user_type,
        isRoot,
        menu: await menuFor(db, req.scope, isRoot),
      },
      req.locale,
    );
  });

  app.put('/service/mine/guide', { schema: { querystring: z.object({ on: z.enum(['0', '1']) }), tags: mineTags } }, async (req) => {
    await mutate(db, req, { module: 'mine', method: 'guide', content: `guide ${req.query.on} for ${req.scope.account}`, params: req.query }, (q) =>
      q.query('UPDATE app_user SET guide_on = $2 WHERE id = $1', [req.scope.userId, req.query.on === '1']),
    );
    return ok(null, req.locale);
  });

  /** Stores the chosen interface language: the second source after the cookie (spec §1). */
  app.put('/service/mine/locale', { schema: { querystring: z.object({ lang: z.enum(['zh-CN', 'en-US', 'zh_CN', 'en_US']) }), tags: mineTags } }, async (req, reply) => {
    const lang = toLocale(req.query.lang)!;
    await mutate(db, req, { module: 'mine', method: 'locale', content: `locale ${lang} for ${req.scope.account}`, params: { lang } }, (q) =>
      q.query('UPDATE app_user SET locale = $2 WHERE id = $1', [req.scope.userId, lang]),
    );
    reply.setCookie('lang', lang, { path: '/', sameSite: 'lax', maxAge: 365 * 86400 });
    return { state: { code: Code.OK, msg: translate('errors.ok', lang) }, result: { lang } };
  });

  app.put('/service/mine/personal', { attachValidation: true, schema: { body: personalBody, tags: mineTags } }, async (req) => {
    const invalid = svc.userValidationError(req);
    const r = await mutate(db, req, { module: 'mine', method: 'personal', content: `update profile of ${req.scope.account}`, params: req.body }, async (q) => {
      if (invalid) throw invalid;
      return svc.updatePersonal(q, req.scope, req.body);
    });
    return ok(r, req.locale);
  });

  app.put('/service/mine/password', { schema: { body: passwordChangeBody, tags: mineTags } }, async (req) => {
    const token = req.cookies[SESSION_COOKIE];
    const r = await mutate(db, req, { module: 'mine', method: 'password', content: `change password of ${req.scope.account}`, params: {} }, async (q) => {
      const [u] = await q.query<{ password_hash: string }>('SELECT password_hash FROM app_user WHERE id = $1 FOR UPDATE', [req.scope.userId]);
      if (!u || !(await verifyPassword(u.password_hash, req.body.oldPassword))) throw new AppError(Code.FAILED, 'errors.user.oldPasswordIncorrect');
      await q.query('UPDATE app_user SET password_hash = $2 WHERE id = $1', [req.scope.userId, await hashPassword(req.body.newPassword)]);
      // The user's other sessions end; this one stays.
      await endUserSessions(q, req.scope.userId, token);
      return { id: req.scope.userId };
    });
    return ok(r, req.locale);
  });

  /** Avatar upload (multipart, one file): JPG, JPEG or PNG under 2 MB, checked by its first bytes too. */
  app.post('/service/mine/upload', { schema: { tags: mineTags } }, async (req) => {
    const entry = { module: 'mine', method: 'upload', content: `upload avatar of ${req.scope.account}` };
    const img = await readLogged(req, AVATAR_MAX_BYTES, entry);
    const r = await mutate(db, req, { ...entry, params: { size: img.data.length, mime: img.mime } }, async (q) => {
      const me = (await repo.findById(q, req.scope.userId))!;
      const saved = await repo.saveFile(q, me, 'avatar', img.mime, img.data);
      return { ...saved, avatar: repo.avatarUrl({ id: me.id, avatar: String(saved.id) }) };
    });
    return ok(r, req.locale);
  });

  /** The avatar image of the caller, or (`?id=`) of a user in its scope; 404 when there is none. */
  app.get('/service/mine/avatar', { schema: { querystring: z.object({ id: id.optional(), v: z.string().optional() }), tags: mineTags } }, async (req, reply) => {
    const userId = req.query.id ?? req.scope.userId;
    if (userId !== req.scope.userId) await repo.scopedUser(db, req.scope, userId);
    const f = await repo.getFile(db, userId, 'avatar');
    if (!f) throw notFound();
    reply.type(f.mime).header('cache-control', 'private, max-age=86400');
    return f.data;
  });

  // ---- Digital signature for reports (spec §3 User) ----
  /** The caller's own, or with `?userId=` (needs editUser) a user in its scope. */
  const signatureOwner = async (req: FastifyRequest, userId: number | undefined, write: boolean) => {
    if (!userId || userId === req.scope.userId) return (await repo.findById(db, req.scope.userId))!;
    if (!req.scope.funcs.has(write ? 'editUser' : 'viewUser')) throw noPermission();
    const u = await repo.scopedUser(db, req.scope, userId);
    if (!canSee(req.scope, u.customer_id)) throw notFound();
    return u;
  };

  app.post('/service/share/signature/save', { schema: { querystring: z.object({ userId: id.optional() }), tags: mineTags } }, async (req) => {
    const owner = await signatureOwner(req, req.query.userId, true);
    const entry = { module: 'mine', method: 'signature', content: `save signature of ${owner.account}`, params: { userId: owner.id } };
    const img = await readLogged(req, SIGNATURE_MAX_BYTES, entry);
    const r = await mutate(db, req, { ...entry, params: { ...entry.params, size: img.data.length } }, (q) => repo.saveFile(q, owner, 'signature', img.mime, img.data));
    return ok(r, req.locale);
  });

  app.get('/service/share/signature/detail', { schema: { querystring: z.object({ userId: id.optional() }), tags: mineTags } }, async (req) => {
    const owner = await signatureOwner(req, req.query.userId, false);
    const f = await repo.getFile(db, owner.id, 'signature');
    return ok(
      f
        ? { userId: owner.id, signature: `data:${f.mime};base64,${f.data.toString('base64')}`, mime: f.mime, size: f.size, updatedAt: new Date(f.created_at).getTime() }
        : { userId: owner.id, signature: null, mime: null, size: 0, updatedAt: null },
      req.locale,
    );
  });
};
