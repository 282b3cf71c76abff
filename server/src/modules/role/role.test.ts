import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleUpdateBody } from '@coldwatch/contract';
import { setup, type TestCtx } from '../../../test/helper.js';
import { bodyFrom } from '../../../test/routes.js';

/** Building the app on a fresh database can be slow on a busy two-core machine. */
const SETUP_MS = 180_000;
let t: TestCtx;
let alpha: string;
let beta: string;
let root: string;
let res: Record<string, number>;

beforeAll(async () => {
  t = await setup();
  alpha = await t.login('alpha');
  beta = await t.login('beta');
  root = await t.login('admin');
  res = Object.fromEntries((await t.db.query<{ id: number; code: string }>('SELECT id, code FROM menu_resource')).map((r) => [r.code, r.id]));
}, SETUP_MS);
afterAll(() => t?.close());

const call = (cookie: string, method: string, url: string, payload?: unknown) =>
  t.app.inject({ method: method as any, url, headers: { cookie, 'accept-language': 'en-US' }, payload: payload as any }).then((r) => ({ status: r.statusCode, ...r.json() }));
let n = 0;
const uniq = (p = 'Role') => `${p} ${++n}`;
const role = (over: Record<string, unknown> = {}) => ({ name: uniq(), resourceIds: [res.deviceMonitor], funcs: ['viewCarrier'], ...over });
const roleId = async (customerId: number, name: string) => (await t.db.one<{ id: number }>('SELECT id FROM role WHERE customer_id = $1 AND name = $2', [customerId, name]))!.id;

describe('role add: every rule of spec §5/§6/§8 passes and fails', () => {
  // [label, who, body overrides, expected code]
  const cases: [string, () => string, () => Record<string, unknown>, number][] = [
    ['a normal role of the own customer', () => alpha, () => ({}), 200000],
    ['operable resources empty (413)', () => alpha, () => ({ resourceIds: [] }), 413],
    ['proxy role with a proxy customer', () => alpha, () => ({ level: -1, proxyCustomerIds: [t.tenants.a.customerId] }), 200000],
    ['proxy role without proxy customers (415)', () => alpha, () => ({ level: -1, proxyCustomerIds: [] }), 415],
    ['proxy role governing a customer the caller cannot see', () => alpha, () => ({ level: -1, proxyCustomerIds: [t.tenants.b.customerId] }), 404],
    ['customer of another tenant (408)', () => alpha, () => ({ customerId: t.tenants.b.customerId }), 408],
    ['customer named as the own one', () => alpha, () => ({ customerId: t.tenants.a.customerId }), 200000],
    ['platform user acting for a customer it sees', () => root, () => ({ customerId: t.tenants.a.customerId }), 200000],
    ['admin type by hand', () => alpha, () => ({ type: 'admin' }), 500000],
    ['root cannot create the admin type either', () => root, () => ({ type: 'admin', customerId: t.tenants.a.customerId }), 500000],
    ['a function the creator does not hold (500102)', () => alpha, () => ({ funcs: ['viewCustomer'] }), 500102],
    ['a function above the role level', () => alpha, () => ({ level: 0, funcs: ['viewUser'] }), 500000],
    ['the same function at a level that reaches it', () => alpha, () => ({ level: 1, funcs: ['viewUser'], resourceIds: [res.user] }), 200000],
    ['a resource above the role level', () => alpha, () => ({ level: 0, resourceIds: [res.user] }), 500000],
    ['a resource the creator does not hold (500102)', () => alpha, () => ({ resourceIds: [res.customer] }), 500102],
    ['a level the customer cannot have', () => alpha, () => ({ level: 2 }), 500000],
    ['an unknown function code', () => alpha, () => ({ funcs: ['viewNothing'] }), 400],
    ['an unknown resource', () => alpha, () => ({ resourceIds: [999999] }), 404],
    ['a scene of another customer', () => alpha, () => ({ sceneIds: [betaScene] }), 500000],
    ['a scene of the own customer', () => alpha, () => ({ sceneIds: [alphaScene] }), 200000],
    ['a name of 51 characters', () => alpha, () => ({ name: 'r'.repeat(51) }), 400],
  ];
  let alphaScene = 0;
  let betaScene = 0;
  beforeAll(async () => {
    const mk = async (c: number, code: string) =>
      (await t.db.one<{ id: number }>(`INSERT INTO scene (customer_id, code, label) VALUES ($1, $2, $2) RETURNING id`, [c, code]))!.id;
    alphaScene = await mk(t.tenants.a.customerId, 'rsA');
    betaScene = await mk(t.tenants.b.customerId, 'rsB');
  });
  it.each(cases)('%s', async (_label, who, over, code) => {
    const before = await t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM role');
    const r = await call(who(), 'POST', '/service/role/add', role(over()));
    expect(r.state.code, JSON.stringify(r)).toBe(code);
    const after = await t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM role');
    expect(after!.n - before!.n).toBe(code === 200000 ? 1 : 0);
  });

  it('name unique per customer (409); the same name in another customer passes', async () => {
    const name = uniq('Same');
    expect((await call(alpha, 'POST', '/service/role/add', role({ name }))).state.code).toBe(200000);
    expect((await call(alpha, 'POST', '/service/role/add', role({ name }))).state.code).toBe(409);
    expect((await call(beta, 'POST', '/service/role/add', role({ name }))).state.code).toBe(200000);
  });

  it('a creator holding newRole but not editCarrier cannot grant editCarrier, but can grant viewCarrier', async () => {
    const name = uniq('Role keeper');
    await call(alpha, 'POST', '/service/role/add', role({ name, level: 1, funcs: ['viewRole', 'newRole', 'viewCarrier'], resourceIds: [res.role, res.deviceMonitor] }));
    await t.addUser(t.tenants.a.customerId, 'keeper', name, 1);
    const keeper = await t.login('keeper');
    expect((await call(keeper, 'POST', '/service/role/add', role({ funcs: ['editCarrier'] }))).state.code).toBe(500102);
    expect((await call(keeper, 'POST', '/service/role/add', role({ funcs: ['viewCarrier'] }))).state.code).toBe(200000);
    // …nor a resource outside its own menu.
    expect((await call(keeper, 'POST', '/service/role/add', role({ resourceIds: [res.sensor] }))).state.code).toBe(500102);
  });
});

describe('role update, detail, page', () => {
  it('updates fields and links; keeps the type; 409 on a taken name; 404 for another customer', async () => {
    const name = uniq();
    const add = await call(alpha, 'POST', '/service/role/add', role({ name }));
    const id = add.result.id;
    const up = await call(alpha, 'PUT', '/service/role/update', { id, name: `${name} b`, resourceIds: [res.deviceMonitor, res.ex], funcs: ['viewCarrier', 'viewEx'], delegable: true });
    expect(up.state.code).toBe(200000);
    const d = (await call(alpha, 'GET', `/service/role/detail?id=${id}`)).result;
    expect(d).toMatchObject({ name: `${name} b`, type: 'normal', level: 0, delegable: true, funcs: ['viewCarrier', 'viewEx'], resourceIds: [res.deviceMonitor, res.ex].sort((a, b) => a - b) });
    expect((await call(alpha, 'PUT', '/service/role/update', { id, name: 'Operator', resourceIds: [res.deviceMonitor] })).state.code).toBe(409);
    expect((await call(alpha, 'PUT', '/service/role/update', { id, name, resourceIds: [] })).state.code).toBe(413);
    expect((await call(alpha, 'PUT', '/service/role/update', { id, name, type: 'admin', resourceIds: [res.deviceMonitor] })).state.code).toBe(500000);
    expect((await call(alpha, 'PUT', '/service/role/update', { id, name, customerId: t.tenants.b.customerId, resourceIds: [res.deviceMonitor] })).state.code).toBe(408);
    expect((await call(beta, 'PUT', '/service/role/update', { id, name: 'stolen', resourceIds: [res.deviceMonitor] })).state.code).toBe(404);
    expect((await call(beta, 'GET', `/service/role/detail?id=${id}`)).state.code).toBe(404);
    expect((await t.db.one<{ name: string }>('SELECT name FROM role WHERE id = $1', [id]))!.name).toBe(`${name} b`);
  });

  it('the admin role keeps its type when the update leaves type out', async () => {
    const id = await roleId(t.tenants.a.customerId, 'Administrator');
    const d = (await call(alpha, 'GET', `/service/role/detail?id=${id}`)).result;
    const r = await call(alpha, 'PUT', '/service/role/update', { ...bodyFrom(roleUpdateBody, d), description: 'the boss', type: undefined });
    expect(r.state.code, JSON.stringify(r)).toBe(200000);
    expect((await call(alpha, 'GET', `/service/role/detail?id=${id}`)).result).toMatchObject({ type: 'admin', isDefault: true, description: 'the boss' });
  });

  it('pages only the caller\'s customer; a platform user sees every customer', async () => {
    const a = (await call(alpha, 'GET', '/service/role/page?iDisplayStart=0&iDisplayLength=100')).result;
    expect(a.rows.length).toBeGreaterThan(1);
    expect(new Set(a.rows.map((r: any) => r.customerId))).toEqual(new Set([t.tenants.a.customerId]));
    const all = (await call(root, 'GET', '/service/role/page?iDisplayStart=0&iDisplayLength=100')).result;
    expect(new Set(all.rows.map((r: any) => r.customerId)).size).toBeGreaterThanOrEqual(3);
    const named = (await call(alpha, 'GET', '/service/role/page?iDisplayStart=0&iDisplayLength=100&name=Operator')).result;
    expect(named.rows.map((r: any) => r.name)).toEqual(['Operator']);
  });

  it('roleType: a customer admin creates normal roles of levels -1..1; root for the platform customer 2..3', async () => {
    expect((await call(alpha, 'GET', '/service/share/roleType')).result).toEqual({ types: ['normal'], levels: [-1, 0, 1] });
    expect((await call(root, 'GET', '/service/share/roleType')).result).toEqual({ types: ['normal'], levels: [2, 3] });
    expect((await call(root, 'GET', `/service/share/roleType?customerId=${t.tenants.a.customerId}`)).result).toEqual({ types: ['normal'], levels: [-1, 0, 1] });
    expect((await call(alpha, 'GET', `/service/share/roleType?customerId=${t.tenants.b.customerId}`)).state.code).toBe(408);
  });

  it('permissionTree: what the caller may delegate', async () => {
    const flat = (nodes: any[]): any[] => nodes.flatMap((n) => [n, ...flat(n.children)]);
    const a = flat((await call(alpha, 'GET', '/service/role/permissionTree')).result);
    const codes = a.map((n) => n.code);
    expect(codes).toContain('role');
    expect(codes).not.toContain('customer');
    expect(codes).not.toContain('resource');
    expect(a.find((n) => n.code === 'role').funcs).toEqual(['viewRole', 'newRole', 'editRole', 'removeRole']);
    expect(a.flatMap((n) => n.funcs)).not.toContain('viewCustomer');
    const r = flat((await call(root, 'GET', '/service/role/permissionTree')).result);
    expect(r.find((n) => n.code === 'customer').funcs).toContain('newCustomer');
  });
});

describe('role delete', () => {
  it('default roles cannot be deleted', async () => {
    const id = await roleId(t.tenants.a.customerId, 'Operator');
    const r = await call(alpha, 'DELETE', `/service/role/del?ids=${id}`);
    expect(r.state.code).toBe(500000);
    expect(r.state.msg).toBe('Default roles cannot be deleted');
    expect(await t.db.one('SELECT 1 FROM role WHERE id = $1', [id])).toBeTruthy();
  });

  it('deleting a role with users needs confirm=true, then deletes the users it leaves without a role', async () => {
    const name = uniq('Doomed');
    const id = (await call(alpha, 'POST', '/service/role/add', role({ name }))).result.id;
    const lone = await t.addUser(t.tenants.a.customerId, 'lone', name);
    const both = await t.addUser(t.tenants.a.customerId, 'both', name);
    await t.db.query(`INSERT INTO user_role (user_id, role_id) SELECT $1, id FROM role WHERE customer_id = $2 AND name = 'Operator'`, [both, t.tenants.a.customerId]);
    const first = await call(alpha, 'DELETE', `/service/role/del?ids=${id}`);
    expect(first.state.code).toBe(500000);
    expect(first.state.msg).toMatch(/confirm/);
    expect(await t.db.one('SELECT 1 FROM role WHERE id = $1', [id])).toBeTruthy();
    const r = await call(alpha, 'DELETE', `/service/role/del?ids=${id}&confirm=true`);
    expect(r).toMatchObject({ state: { code: 200000 }, result: { roles: 1, users: 1 } });
    expect(await t.db.one('SELECT 1 FROM role WHERE id = $1', [id])).toBeUndefined();
    expect(await t.db.one('SELECT 1 FROM app_user WHERE id = $1', [lone])).toBeUndefined();
    expect(await t.db.one('SELECT 1 FROM app_user WHERE id = $1', [both])).toBeTruthy();
  });

  it('a role without users is deleted without confirmation; another customer\'s role answers 404', async () => {
    const id = (await call(alpha, 'POST', '/service/role/add', role())).result.id;
    expect((await call(beta, 'DELETE', `/service/role/del?ids=${id}&confirm=true`)).state.code).toBe(404);
    expect((await call(alpha, 'DELETE', `/service/role/del?ids=${id}`)).state.code).toBe(200000);
  });

  it('at least one role is kept per customer', async () => {
    const c = await t.db.one<{ id: number }>(`INSERT INTO customer(name, short_name, code) VALUES ('Gamma', 'Gamma', 'GAMMA') RETURNING id`);
    const ids: number[] = [];
    for (const name of ['g1', 'g2']) {
      ids.push((await call(root, 'POST', '/service/role/add', role({ name, customerId: c!.id }))).result.id);
    }
    const all = await call(root, 'DELETE', `/service/role/del?ids=${ids.join(',')}`);
    expect(all.state.code).toBe(500000);
    expect(all.state.msg).toBe('At least one data row must be kept');
    expect((await t.db.query('SELECT 1 FROM role WHERE customer_id = $1', [c!.id])).length).toBe(2);
    expect((await call(root, 'DELETE', `/service/role/del?ids=${ids[0]}`)).state.code).toBe(200000);
  });

  it('a deletion that would remove the caller itself is refused', async () => {
    const name = uniq('Self');
    await call(alpha, 'POST', '/service/role/add', role({ name, level: 1, funcs: ['viewRole', 'removeRole'], resourceIds: [res.role] }));
    await t.addUser(t.tenants.a.customerId, 'selfish', name, 1);
    const selfish = await t.login('selfish');
    const id = await roleId(t.tenants.a.customerId, name);
    expect((await call(selfish, 'DELETE', `/service/role/del?ids=${id}&confirm=true`)).state.msg).toBe('This would delete your own account');
    expect(await t.db.one('SELECT 1 FROM role WHERE id = $1', [id])).toBeTruthy();
  });
});

describe('cancelling a role', () => {
  it('removes its functions from its users at once; reactivating gives them back', async () => {
    const name = uniq('Watcher');
    const id = (await call(alpha, 'POST', '/service/role/add', role({ name }))).result.id;
    await t.addUser(t.tenants.a.customerId, 'watcher', name);
    const w = await t.login('watcher');
    const page = '/service/carrier/page?iDisplayStart=0&iDisplayLength=5';
    expect((await call(w, 'GET', page)).state.code).toBe(200000);
    expect((await call(alpha, 'PUT', '/service/role/update', { id, ...role({ name }), status: 0 })).state.code).toBe(200000);
    expect((await call(w, 'GET', page)).state.code).toBe(500102);
    expect((await call(alpha, 'PUT', '/service/role/update', { id, ...role({ name }), status: 1 })).state.code).toBe(200000);
    expect((await call(w, 'GET', page)).state.code).toBe(200000);
  });

  it('every mutation writes the system log', async () => {
    const rows = await t.db.query<{ method: string; result: number }>(`SELECT method, result FROM sys_log WHERE module = 'role'`);
    expect(rows.some((r) => r.method === 'add' && r.result === 1)).toBe(true);
    expect(rows.some((r) => r.method === 'add' && r.result === 0)).toBe(true);
    expect(rows.some((r) => r.method === 'del' && r.result === 1)).toBe(true);
  });
});
