import Fastify, { type FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, PASSWORD, type TestCtx } from '../../../test/helper.js';
import { jpeg, multipart, uploadAs } from '../../../test/upload.js';
import { buildApp } from '../../app.js';
import { logRefusal } from './audit.js';
import { verifyLog } from './chain.js';

/*
 * What a system-log row says about its request: the client address (the forwarded one only
 * behind a trusted proxy), and the refusals that used to leave no row: a signature save on
 * someone else's behalf, and a privileged call the caller lacks the function for (500102).
 */

let t: TestCtx;

beforeAll(async () => {
  t = await setup();
  await t.addUser(t.tenants.a.customerId, 'alphaop', 'Operator', 0);
}, 180_000);
afterAll(() => t?.close());

const lastRow = () => t.db.one<any>('SELECT * FROM sys_log ORDER BY id DESC LIMIT 1');

const login = (app: TestCtx['app'], headers: Record<string, string>, remoteAddress: string) =>
  app.inject({ method: 'POST', url: '/service/user/login', payload: { account: 'alpha', password: PASSWORD }, headers, remoteAddress });

describe('the client address', () => {
  it('is on the row a request wrote, and in the system-log page', async () => {
    expect((await login(t.app, {}, '203.0.113.7')).json().state.code).toBe(200000);
    const row = await lastRow();
    expect(row).toMatchObject({ module: 'user', method: 'login', operator: 'alpha', ip: '203.0.113.7', result: 1 });
    const page = await t.app.inject({ method: 'GET', url: '/service/syslog/page?iDisplayStart=0&iDisplayLength=5', headers: { cookie: await t.login('alpha') } });
    expect(page.json().result.rows.find((r: { id: number }) => r.id === row.id)).toMatchObject({ ip: '203.0.113.7' });
  });

  it('is the forwarded one behind a trusted proxy (TRUST_PROXY), and never otherwise', async () => {
    const xff = { 'x-forwarded-for': '198.51.100.23' };
    await login(t.app, xff, '10.0.0.2');
    expect((await lastRow()).ip).toBe('10.0.0.2');
    const proxied = await buildApp({ ...t.deps, config: { ...t.config, trustProxy: true } });
    try {
      await login(proxied, xff, '10.0.0.2');
      expect((await lastRow()).ip).toBe('198.51.100.23');
    } finally {
      await proxied.close();
    }
  });
});

describe('refusals', () => {
  it('a refused signature save leaves a result-0 row of the caller', async () => {
    const operator = await t.login('alphaop');
    const before = (await lastRow()).id;
    const m = multipart('s.jpg', jpeg(2000));
    const res = await t.app.inject({ method: 'POST', url: `/service/share/signature/save?userId=${t.tenants.a.userId}`, payload: m.payload, headers: { ...m.headers, cookie: operator }, remoteAddress: '192.0.2.44' });
    expect(res.json().state.code).toBe(500102);
    const rows = await t.db.query<any>('SELECT * FROM sys_log WHERE id > $1', [before]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ module: 'mine', method: 'signature', operator: 'alphaop', customer_id: t.tenants.a.customerId, ip: '192.0.2.44', result: 0, params: { userId: t.tenants.a.userId } });
    // Another customer's user: refused as unknown (404), logged all the same.
    const beta = await t.login('beta');
    expect((await uploadAs(t, `/service/share/signature/save?userId=${t.tenants.a.userId}`, beta, 's.jpg', jpeg(2000))).json().state.code).toBe(404);
    expect(await lastRow()).toMatchObject({ module: 'mine', method: 'signature', operator: 'beta', customer_id: t.tenants.b.customerId, result: 0 });
  });

  it('logRefusal: the caller, the module and method of the route, the path without its query, result 0', async () => {
    const app = Fastify();
    app.decorateRequest('scope', null as any);
    app.post('/service/carrier/detail/:id', { schema: { tags: ['carrier'] } }, async (req: FastifyRequest) => {
      req.scope = { customerId: t.tenants.a.customerId, userId: t.tenants.a.userId, account: 'alpha' } as any;
      await logRefusal(t.db, req, 'needs function viewCarrier');
      return 'refused';
    });
    await app.inject({ method: 'POST', url: '/service/carrier/detail/12?phone=13800000000', remoteAddress: '192.0.2.45' });
    await app.close();
    expect(await lastRow()).toMatchObject({
      customer_id: t.tenants.a.customerId,
      user_id: t.tenants.a.userId,
      operator: 'alpha',
      ip: '192.0.2.45',
      module: 'carrier',
      method: 'detail',
      content: 'refused POST /service/carrier/detail/12: needs function viewCarrier',
      params: { httpMethod: 'POST', url: '/service/carrier/detail/12', reason: 'needs function viewCarrier' },
      result: 0,
    });
  });

  it('every row written here is chained and verifies', async () => {
    expect((await verifyLog(t.db)).findings).toEqual([]);
  });
});

