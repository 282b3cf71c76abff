import { z } from 'zod';
import {
  Code,
  CUSTOMER_RULE_CODES,
  CUSTOMER_TYPES,
  CustomerCode,
  ORG_TYPES,
  SwitchResult,
  USER_TYPE,
  customerAddBody,
  customerUpdateBody,
  registerBody,
  translate,
} from '@coldwatch/contract';
import type { FastifyRequest } from 'fastify';
import type { Module } from '../index.js';
import { mutate } from '../../platform/audit/audit.js';
import { ok } from '../../platform/http/envelope.js';
import { AppError, noPermission, notFound } from '../../platform/http/errors.js';
import { idsQuery, pageQuery } from '../../platform/http/paging.js';
import { checkCaptcha } from '../../platform/auth/captcha.js';
import { ROOT_USER_ID, governedCustomers } from '../../platform/auth/funcs.js';
import { SESSION_COOKIE, dropSession } from '../../platform/auth/session.js';
import * as repo from './customer.repository.js';

const id = z.coerce.number().int().positive();
const pageFilters = pageQuery({
  name: z.string().trim().max(50).optional(),
  code: z.string().trim().max(20).optional(),
  status: z.coerce.number().int().min(0).max(1).optional(),
  type: z.enum(CUSTOMER_TYPES).optional(),
  orgType: z.enum(ORG_TYPES).optional(),
});

/** The login's verification-code cookie (modules/user/user.routes.ts). */
const CAPTCHA_COOKIE = 'cw_captcha';

/**
 * A body that failed the §5 rules: 410 when a type is empty, 406 when the code is bad (spec §8
 * customer create), otherwise the generic 400 with the field messages. The routes validate with
 * attachValidation so that these answers can be chosen here.
 */
function ruleFailure(err: Error & { validation?: any[] }): Error {
  const details: Record<string, string> = {};
  let answer: { code: number; key: string } | undefined;
  for (const v of err.validation ?? []) {
    const field = String(v.instancePath ?? v.params?.issue?.path?.join('.') ?? '').replace(/^\//, '').replace(/\//g, '.') || 'body';
    const key = String(v.message ?? '');
    details[field] = key.startsWith('errors.') ? key : 'errors.paramError';
    const code = CUSTOMER_RULE_CODES[key];
    // 410 (type empty) wins over 406 (bad code): an empty type is the more basic omission.
    if (code && (!answer || code > answer.code)) answer = { code, key };
  }
  return answer ? new AppError(answer.code, answer.key, 200, details) : err;
}

const checked = (req: FastifyRequest) => {
  if (req.validationError) throw ruleFailure(req.validationError as any);
};

/**
 * Customers (`/sys/customer`, access level 2: platform users only), the proxy switch of
 * account type -1 and the registration of a new company. docs/tenancy.md explains the model.
 */
export const customerRoutes: Module = (app, { db, config, bus }) => {
  const tags = ['customer'];
  /** Device status changed in bulk: ingest forgets those customers' devices, and their gateways' sessions end. */
  const devicesChanged = (ids: number[]) => ids.forEach((customerId) => bus.emit('directory', { customerId, close: true }));

  app.get('/service/customer/page', { config: { funcs: ['viewCustomer'] }, schema: { querystring: pageFilters, tags } }, async (req) =>
    ok(await repo.page(db, req.scope, req.query), req.locale),
  );

  app.get('/service/customer/detail', { config: { funcs: ['viewCustomer'] }, schema: { querystring: z.object({ id }), tags } }, async (req) => {
    const row = await repo.detail(db, req.scope, req.query.id);
    if (!row) throw notFound();
    return ok(row, req.locale);
  });

  app.post('/service/customer/add', { config: { funcs: ['newCustomer'] }, attachValidation: true, schema: { body: customerAddBody, tags } }, async (req) => {
    checked(req);
    const b = req.body;
    // A platform-type customer's administrator is a platform administrator: only platform management (type 3, root) makes one.
    if (b.type === 'platform' && req.scope.userType !== USER_TYPE.platformAdmin && req.scope.userId !== ROOT_USER_ID) throw noPermission();
    const r = await mutate(db, req, { module: 'customer', method: 'add', content: `add customer ${b.name} (${b.code})`, params: b }, (q) => repo.create(q, b));
    return { state: { code: Code.OK, msg: translate('errors.customer.added', req.locale) }, result: { code: CustomerCode.ADDED, id: r.id, account: r.account } };
  });

  app.put('/service/customer/update', { config: { funcs: ['editCustomer'] }, attachValidation: true, schema: { body: customerUpdateBody, tags } }, async (req) => {
    checked(req);
    const r = await mutate(db, req, { module: 'customer', method: 'update', content: `update customer ${req.body.id}`, params: req.body }, (q) => repo.update(q, req.scope, req.body));
    return ok(r, req.locale);
  });

  app.put('/service/customer/cancel', { config: { funcs: ['editCustomer'] }, schema: { querystring: idsQuery, tags } }, async (req) => {
    const { ids } = req.query;
    const r = await mutate(db, req, { module: 'customer', method: 'cancel', content: `cancel customers ${ids.join(',')}`, params: { ids } }, (q) => repo.cancel(q, req.scope, ids));
    devicesChanged(ids);
    return { state: { code: Code.OK, msg: translate('errors.customer.cancelled', req.locale) }, result: r };
  });

  app.put('/service/customer/activate', { config: { funcs: ['editCustomer'] }, schema: { querystring: idsQuery, tags } }, async (req) => {
    const { ids } = req.query;
    const r = await mutate(db, req, { module: 'customer', method: 'activate', content: `activate customers ${ids.join(',')}`, params: { ids } }, (q) =>
      repo.activate(q, req.scope, ids),
    );
    devicesChanged(ids);
    return { state: { code: Code.OK, msg: translate('errors.customer.activated', req.locale) }, result: r };
  });

  app.delete('/service/customer/del', { config: { funcs: ['removeCustomer'] }, schema: { querystring: idsQuery, tags } }, async (req) => {
    const { ids } = req.query;
    const r = await mutate(db, req, { module: 'customer', method: 'del', content: `delete customers ${ids.join(',')}`, params: { ids } }, (q) => repo.remove(q, req.scope, ids));
    devicesChanged(ids);
    return ok(r, req.locale);
  });

  // ---- proxy switch (spec §6: shown only to account type -1; a new login is needed afterwards) ----

  const proxyOnly = (req: FastifyRequest) => {
    if (req.scope.userType !== USER_TYPE.proxy) throw noPermission();
  };

  app.get('/service/mine/proxyCustomers', { schema: { tags: ['mine'] } }, async (req) => {
    proxyOnly(req);
    return ok(await repo.proxyCustomers(db, req.scope), req.locale);
  });

  app.get('/service/mine/switch', { schema: { querystring: z.object({ customerId: id }), tags: ['mine'] } }, async (req, reply) => {
    proxyOnly(req);
    const target = req.query.customerId;
    const own = (await db.one<{ customer_id: number }>('SELECT customer_id FROM app_user WHERE id = $1', [req.scope.userId]))!.customer_id;
    if (target !== own && !(await governedCustomers(db, req.scope.userId)).includes(target)) throw notFound();
    if (target === req.scope.customerId) {
      return { state: { code: Code.OK, msg: translate('errors.customer.alreadySelected', req.locale) }, result: SwitchResult.ALREADY_SELECTED };
    }
    await mutate(db, req, { module: 'customer', method: 'switch', content: `switch to customer ${target}`, params: { customerId: target } }, (q) =>
      q.query('UPDATE app_user SET proxy_customer_id = $2 WHERE id = $1', [req.scope.userId, target === own ? null : target]),
    );
    // The switch takes effect with the next login (spec §4): this session ends here.
    const token = req.cookies[SESSION_COOKIE];
    if (token) await dropSession(db, token);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { state: { code: Code.OK, msg: translate('errors.customer.switched', req.locale) }, result: SwitchResult.SWITCHED };
  });

  // ---- registration of a new company (public) -------------------------------------------------

  app.post('/service/user/register', { config: { public: true }, attachValidation: true, schema: { body: registerBody, tags: ['user'] } }, async (req) => {
    checked(req);
    const b = req.body;
    if (config.loginCaptcha) {
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
        req.scope = { userId: made.userId, account: made.account, customerId: made.id } as any;
        return made;
      },
    );
    return { state: { code: Code.OK, msg: translate('errors.customer.registered', req.locale) }, result: { code: CustomerCode.ADDED, id: r.id, account: r.account } };
  });
};
