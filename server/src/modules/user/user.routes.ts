import { PASSWORD_RESET_OK, userApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { said, serve } from '../../platform/http/route.js';
import * as repo from './user.repository.js';
import * as svc from './user.service.js';

/** Users (`/user/userinfo`, spec §3/§5/§8 User). */
export const userRoutes: Module = (app, { db }) => {
  serve(app, userApi.page, { funcs: ['viewUser'] }, async (req) => repo.page(db, req.scope, req.query));
  serve(app, userApi.detail, { funcs: ['viewUser'] }, async (req) => repo.detail(db, req.scope, req.query.id));

  // The §8 answers 412/414 need the failing field, and a refusal leaves its result-0 log row: validation is read here.
  serve(app, userApi.add, { funcs: ['newUser'], attachValidation: true }, async (req) => {
    const invalid = svc.userValidationError(req);
    const { password: _secret, ...params } = (req.body ?? {}) as Partial<typeof req.body>;
    return mutate(db, req, { module: 'user', method: 'add', content: `add user ${params.account ?? ''}`, params }, async (q) => {
      if (invalid) throw invalid;
      return svc.addUser(q, req.scope, req.body);
    });
  });

  serve(app, userApi.update, { funcs: ['editUser'], attachValidation: true }, async (req) => {
    const invalid = svc.userValidationError(req);
    return mutate(db, req, { module: 'user', method: 'update', content: `update user ${req.body?.id ?? ''}`, params: req.body }, async (q) => {
      if (invalid) throw invalid;
      return svc.updateUser(q, req.scope, req.body);
    });
  });

  serve(app, userApi.del, { funcs: ['removeUser'] }, async (req) => {
    const { ids } = req.query;
    return mutate(db, req, { module: 'user', method: 'del', content: `delete users ${ids.join(',')}`, params: { ids } }, (q) => svc.removeUsers(q, req.scope, ids));
  });

  serve(app, userApi.status, { funcs: ['editUser'] }, async (req) => {
    const { ids } = req.query;
    const status = Number(req.query.status) as 0 | 1;
    return mutate(db, req, { module: 'user', method: 'status', content: `set status ${status} of users ${ids.join(',')}`, params: { ids, status } }, (q) =>
      svc.setStatus(q, req.scope, ids, status),
    );
  });

  /** Spec §8 "Password reset 200 = reset success": result.code 200 and the temporary password, shown once. */
  serve(app, userApi.resetPassword, { funcs: ['editUser'] }, async (req) => {
    const r = await mutate(db, req, { module: 'user', method: 'resetPassword', content: `reset password of user ${req.query.id}`, params: { id: req.query.id } }, (q) =>
      svc.resetPassword(q, req.scope, req.query.id),
    );
    return said({ code: PASSWORD_RESET_OK, ...r }, 'errors.user.resetSuccess');
  });
};
