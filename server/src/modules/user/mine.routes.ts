import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { ALL_FUNCS, AVATAR_MAX_BYTES, Code, SIGNATURE_MAX_BYTES, mineApi, toLocale } from '@coldwatch/contract';
import { readImageLogged } from '../../platform/http/upload.js';
import type { Module } from '../../deps.js';
import { AppError, noPermission, notFound } from '../../platform/http/errors.js';
import { said, serve } from '../../platform/http/route.js';
import { hashPassword, verifyPassword } from '../../platform/auth/password.js';
import { endUserSessions, SESSION_COOKIE } from '../../platform/auth/session.js';
import { canSee } from '../../platform/auth/scope.js';
import { ROOT_USER_ID } from '../../platform/auth/funcs.js';
import { mutate, refusedLogged } from '../../platform/audit/audit.js';
import { menuFor } from '../resource/menu.service.js';
import * as repo from './user.repository.js';
import * as svc from './user.service.js';

/** The caller's own pages (`/personal/material`, `/material`, spec §3 User) and the report signature. */
export const mineRoutes: Module = async (app, { db }) => {
  const readLogged = (req: FastifyRequest, maxBytes: number, entry: { module: string; method: string; content: string }) =>
    readImageLogged(db, req, maxBytes, maxBytes === AVATAR_MAX_BYTES ? 'errors.upload.tooLarge2m' : 'errors.upload.tooLarge500k', entry);
  // Uploads (avatar, signature); limits are set per call.
  await app.register(multipart, { throwFileSizeLimit: false, limits: { files: 1, fields: 10 } });

  const info = async (req: FastifyRequest) => {
    const user = await repo.findById(db, req.scope.userId);
    if (!user) throw notFound();
    const switchScope = user.user_type === -1 ? await repo.switchScope(db, user.id, req.scope.customerId) : [];
    return { user: repo.publicUser(user), scope: { customer_id: req.scope.customerId, type: user.user_type }, switchScope, guide_on: user.guide_on };
  };
  serve(app, mineApi.info, {}, info);
  serve(app, mineApi.me, {}, info);

  /** Page info of spec §4: funcs, the auth map, the user, its type and its menu; the login guard logs out when funcs is empty. */
  serve(app, mineApi.pageInfo, {}, async (req) => {
    const user = await repo.findById(db, req.scope.userId);
    if (!user) throw notFound();
    const funcs = ALL_FUNCS.filter((f) => req.scope.funcs.has(f));
    const isRoot = user.id === ROOT_USER_ID;
    return { funcs, auths: Object.fromEntries(funcs.map((f) => [f, true])), userRsp: repo.publicUser(user), userType: user.user_type, isRoot, menu: await menuFor(db, req.scope, isRoot) };
  });

  serve(app, mineApi.guide, {}, async (req) => {
    await mutate(db, req, { module: 'mine', method: 'guide', content: `guide ${req.query.on} for ${req.scope.account}`, params: req.query }, (q) =>
      repo.setOwn(q, req.scope, { guide_on: req.query.on === '1' }),
    );
    return null;
  });

  /** Stores the chosen interface language: the second source after the cookie (spec §1). */
  serve(app, mineApi.locale, {}, async (req, reply) => {
    const lang = toLocale(req.query.lang)!;
    await mutate(db, req, { module: 'mine', method: 'locale', content: `locale ${lang} for ${req.scope.account}`, params: { lang } }, (q) => repo.setOwn(q, req.scope, { locale: lang }));
    reply.setCookie('lang', lang, { path: '/', sameSite: 'lax', maxAge: 365 * 86400 });
    return said({ lang }, 'errors.ok', lang);
  });

  serve(app, mineApi.personal, { attachValidation: true }, async (req) => {
    const invalid = svc.userValidationError(req);
    return mutate(db, req, { module: 'mine', method: 'personal', content: `update profile of ${req.scope.account}`, params: req.body }, async (q) => {
      if (invalid) throw invalid;
      return svc.updatePersonal(q, req.scope, req.body);
    });
  });

  serve(app, mineApi.password, {}, async (req) => {
    const token = req.cookies[SESSION_COOKIE];
    return mutate(db, req, { module: 'mine', method: 'password', content: `change password of ${req.scope.account}`, params: {} }, async (q) => {
      const hash = await repo.lockPasswordHash(q, req.scope);
      if (!hash || !(await verifyPassword(hash, req.body.oldPassword))) throw new AppError(Code.FAILED, 'errors.user.oldPasswordIncorrect');
      await repo.setOwn(q, req.scope, { password_hash: await hashPassword(req.body.newPassword) });
      // The user's other sessions end; this one stays.
      await endUserSessions(q, req.scope.userId, token);
      return { id: req.scope.userId };
    });
  });

  /** Avatar upload (multipart, one file): JPG, JPEG or PNG under 2 MB, checked by its first bytes too. */
  serve(app, mineApi.upload, {}, async (req) => {
    const entry = { module: 'mine', method: 'upload', content: `upload avatar of ${req.scope.account}` };
    const img = await readLogged(req, AVATAR_MAX_BYTES, entry);
    return mutate(db, req, { ...entry, params: { size: img.data.length, mime: img.mime } }, async (q) => {
      const me = (await repo.findById(q, req.scope.userId))!;
      const saved = await repo.saveFile(q, me, 'avatar', img.mime, img.data);
      return { ...saved, avatar: repo.avatarUrl({ id: me.id, avatar: String(saved.id) }) };
    });
  });

  /** The avatar image of the caller, or (`?id=`) of a user in its scope; 404 when there is none. */
  serve(app, mineApi.avatar, {}, async (req, reply) => {
    const userId = req.query.id ?? req.scope.userId;
    if (userId !== req.scope.userId) await repo.scopedUser(db, req.scope, userId);
    const f = await repo.getFile(db, userId, 'avatar');
    if (!f) throw notFound();
    // Served as the image it was checked to be, never sniffed as something else, never rendered as a page.
    reply.type(f.mime).header('cache-control', 'private, max-age=86400').header('content-disposition', 'inline; filename="avatar"');
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

  serve(app, mineApi.saveSignature, {}, async (req) => {
    // A signature signs reports: an attempt on someone else's is worth a trace even when refused.
    const target = req.query.userId ?? req.scope.userId;
    const attempt = { module: 'mine', method: 'signature', content: `save signature of user #${target}`, params: { userId: target } };
    const owner = await refusedLogged(db, req, attempt, () => signatureOwner(req, req.query.userId, true));
    const entry = { module: 'mine', method: 'signature', content: `save signature of ${owner.account}`, params: { userId: owner.id } };
    const img = await readLogged(req, SIGNATURE_MAX_BYTES, entry);
    return mutate(db, req, { ...entry, params: { ...entry.params, size: img.data.length } }, (q) => repo.saveFile(q, owner, 'signature', img.mime, img.data));
  });

  serve(app, mineApi.signature, {}, async (req) => {
    const owner = await signatureOwner(req, req.query.userId, false);
    const f = await repo.getFile(db, owner.id, 'signature');
    return f
      ? { userId: owner.id, signature: `data:${f.mime};base64,${f.data.toString('base64')}`, mime: f.mime, size: f.size, updatedAt: new Date(f.created_at).getTime() }
      : { userId: owner.id, signature: null, mime: null, size: 0, updatedAt: null };
  });
};
