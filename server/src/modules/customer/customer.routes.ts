import { Code, CUSTOMER_RULE_CODES, CustomerCode, SwitchResult, USER_TYPE, customerApi } from '@coldwatch/contract';
import type { FastifyRequest } from 'fastify';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { AppError, noPermission, notFound } from '../../platform/http/errors.js';
import { said, serve } from '../../platform/http/route.js';
import { fieldErrors, type ValidationEntry } from '../../platform/http/envelope.js';
import { CAPTCHA_COOKIE, checkCaptcha } from '../../platform/auth/captcha.js';
import { loginVerification, signInLimits } from '../../platform/auth/login.js';
import { ROOT_USER_ID } from '../../platform/auth/funcs.js';
import { SESSION_COOKIE, dropSession } from '../../platform/auth/session.js';
import * as repo from './customer.repository.js';

/**
 * A body that failed the §5 rules: 410 when a type is empty, 406 when the code is bad (spec §8
 * customer create), otherwise the generic 400 with the field messages. The routes validate with
 * attachValidation so that these answers can be chosen here.
 */
function ruleFailure(err: Error & { validation?: readonly ValidationEntry[] }): Error {
  const details = fieldErrors(err.validation ?? []);
  let answer: { code: number; key: string } | undefined;
  for (const key of Object.values(details)) {
    const code = CUSTOMER_RULE_CODES[key];
    // 410 (type empty) wins over 406 (bad code): an empty type is the more basic omission.
    if (code && (!answer || code > answer.code)) answer = { code, key };
  }
  return answer ? new AppError(answer.code, answer.key, 200, details) : err;
}

const checked = (req: FastifyRequest) => {
  if (req.validationError) throw ruleFailure(req.validationError);
};

/**
 * Customers (`/sys/customer`, access level 2: platform users only), the proxy switch of
 * account type -1 and the registration of a new company. docs/tenancy.md explains the model.
 */
export const customerRoutes: Module = (app, { db, config, bus }) => {
  /** Device status changed in bulk: ingest forgets those customers' devices, and their gateways' sessions end. */
  const devicesChanged = (ids: number[]) => ids.forEach((customerId) => bus.emit('directory', { customerId, close: true }));
  // 410/406 need the failing rule: validation is read by the handler (ruleFailure).
  const ruled = { attachValidation: true };

  serve(app, customerApi.page, { funcs: ['viewCustomer'] }, async (req) => repo.page(db, req.scope, req.query));
  serve(app, customerApi.detail, { funcs: ['viewCustomer'] }, async (req) => (await repo.detail(db, req.scope, req.query.id)) ?? Promise.reject(notFound()));

  serve(app, customerApi.add, { funcs: ['newCustomer'], ...ruled }, async (req) => {
    checked(req);
    const b = req.body;
    // A platform-type customer's administrator is a platform administrator: only platform management (type 3, root) makes one.
    if (b.type === 'platform' && req.scope.userType !== USER_TYPE.platformAdmin && req.scope.userId !== ROOT_USER_ID) throw noPermission();
    const r = await mutate(db, req, { module: 'customer', method: 'add', content: `add customer ${b.name} (${b.code})`, params: b }, (q) => repo.create(q, b));
    return said({ code: CustomerCode.ADDED, id: r.id, account: r.account }, 'errors.customer.added');
  });

  serve(app, customerApi.update, { funcs: ['editCustomer'], ...ruled }, async (req) => {
    checked(req);
    return mutate(db, req, { module: 'customer', method: 'update', content: `update customer ${req.body.id}`, params: req.body }, (q) => repo.update(q, req.scope, req.body));
  });

  serve(app, customerApi.cancel, { funcs: ['editCustomer'] }, async (req) => {
    const { ids } = req.query;
    const r = await mutate(db, req, { module: 'customer', method: 'cancel', content: `cancel customers ${ids.join(',')}`, params: { ids } }, (q) => repo.cancel(q, req.scope, ids));
    devicesChanged(ids);
    return said(r, 'errors.customer.cancelled');
  });

  serve(app, customerApi.activate, { funcs: ['editCustomer'] }, async (req) => {
    const { ids } = req.query;
    const r = await mutate(db, req, { module: 'customer', method: 'activate', content: `activate customers ${ids.join(',')}`, params: { ids } }, (q) =>
      repo.activate(q, req.scope, ids),
    );
    devicesChanged(ids);
    return said(r, 'errors.customer.activated');
  });

  serve(app, customerApi.del, { funcs: ['removeCustomer'] }, async (req) => {
    const { ids } = req.query;
    const r = await mutate(db, req, { module: 'customer', method: 'del', content: `delete customers ${ids.join(',')}`, params: { ids } }, (q) => repo.remove(q, req.scope, ids));
    devicesChanged(ids);
    return r;
  });

  // ---- proxy switch (spec §6: shown only to account type -1; a new login is needed afterwards) ----

  const proxyOnly = (req: FastifyRequest) => {
    if (req.scope.userType !== USER_TYPE.proxy) throw noPermission();
  };

  serve(app, customerApi.proxyCustomers, {}, async (req) => {
    proxyOnly(req);
    return repo.proxyCustomers(db, req.scope);
  });

  serve(app, customerApi.switch, {}, async (req, reply) => {
    proxyOnly(req);
    const target = req.query.customerId;
    const choices = await repo.proxyCustomers(db, req.scope);
    const chosen = choices.find((c) => c.id === target);
    if (!chosen) throw notFound();
    if (chosen.current) return said(SwitchResult.ALREADY_SELECTED, 'errors.customer.alreadySelected');
    await mutate(db, req, { module: 'customer', method: 'switch', content: `switch to customer ${target}`, params: { customerId: target } }, (q) =>
      repo.setProxyCustomer(q, req.scope, chosen.own ? null : target),
    );
    // The switch takes effect with the next login (spec §4): this session ends here.
    const token = req.cookies[SESSION_COOKIE];
    if (token) await dropSession(db, token);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return said(SwitchResult.SWITCHED, 'errors.customer.switched');
  });

  // ---- registration of a new company (public) -------------------------------------------------

  const limits = signInLimits(app, config);
  serve(app, customerApi.register, { public: true, ...ruled }, async (req) => {
    // The same per-address bucket as every other sign-in call (platform/auth/login.ts).
    await limits.signIn(req);
    checked(req);
    const b = req.body;
    // The registration form asks for the code when the login page does (authApi.options).
    if ((await loginVerification(db, config)).always) {
      if (!b.captcha) throw new AppError(Code.FAILED, 'errors.login.emptyCode');
      if (!(await checkCaptcha(db, req.cookies[CAPTCHA_COOKIE], b.captcha))) throw new AppError(Code.FAILED, 'errors.login.captchaError');
    }
    const r = await mutate(
      db,
      req,
      { module: 'customer', method: 'register', content: `register ${b.name} (${b.code})`, params: { ...b, confirmPassword: undefined } },
      async (q) => {
        const made = await repo.create(q, {
          ...b,
          type: 'customer',
          shortName: '',
          area: '',
          areaCode: '',
          address: '',
          notifyEmail: true,
          notifySms: false,
          description: '',
        });
        // The log row names the new administrator as its operator.
        req.scope = { userId: made.userId, account: made.account, customerId: made.id } as typeof req.scope;
        return made;
      },
    );
    return said({ code: CustomerCode.ADDED, id: r.id, account: r.account }, 'errors.customer.registered');
  });
};
