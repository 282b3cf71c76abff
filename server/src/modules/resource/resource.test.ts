import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceUpdateBody } from '@coldwatch/contract';
import { setup, type TestCtx } from '../../../test/helper.js';
import { bodyFrom } from '../../../test/routes.js';

/** Building the app on a fresh database can be slow on a busy two-core machine. */
const SETUP_MS = 180_000;
let t: TestCtx;
let alpha: string;
let root: string;
let operator: string;
let padmin: string;
let res: Record<string, number>;

beforeAll(async () => {
  t = await setup();
  await t.addUser(t.tenants.a.customerId, 'alphaop', 'Operator', 0);
  await t.addUser(t.tenants.root.customerId, 'padmin', 'Platform administrator', 3);
  alpha = await t.login('alpha');
  root = await t.login('admin');
  operator = await t.login('alphaop');
  padmin = await t.login('padmin');
  res = Object.fromEntries((await t.db.query<{ id: number; code: string }>('SELECT id, code FROM menu_resource')).map((r) => [r.code, r.id]));
}, SETUP_MS);
afterAll(() => t?.close());

const call = (cookie: string, method: string, url: string, payload?: unknown) =>
  t.app.inject({ method: method as any, url, headers: { cookie, 'accept-language': 'en-US' }, payload: payload as any }).then((r) => ({ status: r.statusCode, ...r.json() }));
const flat = (nodes: any[]): any[] => nodes.flatMap((n) => [n, ...flat(n.children)]);
const menuCodes = async (cookie: string) => flat((await call(cookie, 'GET', '/service/mine/resource')).result).map((n) => n.code);

describe('menuFor: the caller\'s menu (spec §2, §6)', () => {
  // [label, who, codes that must be there, codes that must not]
  const cases: [string, () => string, string[], string[]][] = [
    ['customer operator: no account or sys sections', () => operator, ['databoard', 'deviceMonitor', 'exception', 'ex'], ['account', 'user', 'role', 'sys', 'customer', 'resource', 'sysLog']],
    ['customer admin: account (users, roles), not customers or resource', () => alpha, ['account', 'user', 'role', 'sys', 'forwarding', 'sysLog'], ['customer', 'resource', 'param']],
    ['platform admin (not root): customers, not resource', () => padmin, ['account', 'sys', 'customer', 'param'], ['resource']],
    ['root: resource too', () => root, ['customer', 'resource', 'param', 'user'], []],
  ];
  it.each(cases)('%s', async (_label, who, present, absent) => {
    const codes = await menuCodes(who());
    for (const c of present) expect(codes, c).toContain(c);
    for (const c of absent) expect(codes, c).not.toContain(c);
  });

  it('nodes carry id, code, name, url, icon, hidden and children', async () => {
    const [first] = (await call(alpha, 'GET', '/service/mine/resource')).result;
    expect(Object.keys(first).sort()).toEqual(['children', 'code', 'hidden', 'icon', 'id', 'name', 'url']);
  });

  it('a role granted only viewCarrier: deviceMonitor shown, no exception section, 500102 on the exception page', async () => {
    const add = await call(alpha, 'POST', '/service/role/add', {
      name: 'Carrier only',
      funcs: ['viewCarrier'],
      resourceIds: [res.deviceMonitor, res.monitoringPoint, res.ex, res.exReason],
    });
    expect(add.state.code).toBe(200000);
    await t.addUser(t.tenants.a.customerId, 'carrieronly', 'Carrier only', 0);
    const u = await t.login('carrieronly');
    const codes = await menuCodes(u);
    expect(codes).toEqual(['databoard', 'deviceMonitor', 'monitoringPoint']);
    expect((await call(u, 'GET', '/service/exception/page?iDisplayStart=0&iDisplayLength=5')).state.code).toBe(500102);
    expect((await call(u, 'GET', '/service/carrier/page?iDisplayStart=0&iDisplayLength=5')).state.code).toBe(200000);
  });

  it('operable resources cut the menu: an entry the role does not list is not shown though the function is held', async () => {
    await call(alpha, 'POST', '/service/role/add', { name: 'Map only', funcs: ['viewCarrier'], resourceIds: [res.Map] });
    await t.addUser(t.tenants.a.customerId, 'maponly', 'Map only', 0);
    expect(await menuCodes(await t.login('maponly'))).toEqual(['databoard', 'Map']);
  });

  it('a disabled entry leaves every menu; enabling it brings it back', async () => {
    const d = (await call(root, 'GET', `/service/resource/detail?id=${res.store}`)).result;
    expect((await call(root, 'PUT', '/service/resource/update', { ...bodyFrom(resourceUpdateBody, d), enabled: false })).state.code).toBe(200000);
    expect(await menuCodes(alpha)).not.toContain('store');
    expect(await menuCodes(root)).not.toContain('store');
    expect((await call(root, 'PUT', '/service/resource/update', { ...bodyFrom(resourceUpdateBody, d), enabled: true })).state.code).toBe(200000);
    expect(await menuCodes(alpha)).toContain('store');
  });

  it("visibility 'admin' hides an entry from non-admin users, 'system' from customer users", async () => {
    const d = (await call(root, 'GET', `/service/resource/detail?id=${res.warehouse}`)).result;
    await call(root, 'PUT', '/service/resource/update', { ...bodyFrom(resourceUpdateBody, d), visible: 'admin' });
    expect(await menuCodes(operator)).not.toContain('warehouse');
    expect(await menuCodes(alpha)).toContain('warehouse');
    await call(root, 'PUT', '/service/resource/update', { ...bodyFrom(resourceUpdateBody, d), visible: 'system' });
    expect(await menuCodes(alpha)).not.toContain('warehouse');
    expect(await menuCodes(padmin)).toContain('warehouse');
    await call(root, 'PUT', '/service/resource/update', { ...bodyFrom(resourceUpdateBody, d), visible: 'all' });
    expect(await menuCodes(operator)).toContain('warehouse');
  });
});

describe('menu resources: root only (spec §6)', () => {
  const routes: [string, string, unknown?][] = [
    ['GET', '/service/resource/page?iDisplayStart=0&iDisplayLength=15'],
    ['GET', '/service/resource/tree'],
    ['GET', `/service/resource/detail?id=1`],
    ['POST', '/service/resource/add', { code: 'x1', name: 'x1' }],
    ['DELETE', '/service/resource/del?ids=1'],
  ];
  it.each(routes)('%s %s: 500102 for a customer admin and a platform admin, 200000 for root', async (method, url, payload) => {
    expect((await call(alpha, method, url, payload)).state.code).toBe(500102);
    expect((await call(padmin, method, url, payload)).state.code).toBe(500102);
    if (method === 'GET') expect((await call(root, method, url, payload)).state.code).toBe(200000);
  });
});

describe('menu resource rules (spec §5, §8 407/408)', () => {
  const body = (over: Record<string, unknown> = {}) => ({ code: `m${Math.random().toString(36).slice(2, 8)}`, name: `Menu ${Math.random()}`.slice(0, 20), url: '/x', ...over });
  const cases: [string, () => Record<string, unknown>, number, string?][] = [
    ['a new entry', () => body(), 200000],
    ['a child of an existing entry', () => body({ parentId: res.sys }), 200000],
    ['name exists (407)', () => body({ name: 'home' }), 407],
    ['code exists (408)', () => body({ code: 'home' }), 408],
    ['name missing', () => body({ name: '' }), 400],
    ['code missing', () => body({ code: undefined }), 400],
    ['code with a space', () => body({ code: 'a b' }), 400],
    ['parent missing or deleted', () => body({ parentId: 999999 }), 500000, 'The parent menu is missing or has been deleted'],
    ['known function object', () => body({ funcObject: 'Carrier' }), 200000],
    ['unknown function object', () => body({ funcObject: 'Nothing' }), 400],
    ['access level 4', () => body({ accessLevel: 4 }), 200000],
    ['access level 5', () => body({ accessLevel: 5 }), 400],
  ];
  it.each(cases)('%s', async (_l, b, code, msg) => {
    const r = await call(root, 'POST', '/service/resource/add', b());
    expect(r.state.code, JSON.stringify(r)).toBe(code);
    if (msg) expect(r.state.msg).toBe(msg);
  });

  it('update: a built-in code cannot change, its name can; 407/408 against others; no parent loops', async () => {
    const d = (await call(root, 'GET', `/service/resource/detail?id=${res.onlineHelp}`)).result;
    expect(d).toMatchObject({ code: 'onlineHelp', builtin: true, parentId: res.sys });
    expect((await call(root, 'PUT', '/service/resource/update', { ...bodyFrom(resourceUpdateBody, d), code: 'help2' })).state.msg).toBe('The code of a built-in menu entry cannot be changed');
    expect((await call(root, 'PUT', '/service/resource/update', { ...bodyFrom(resourceUpdateBody, d), name: 'Online help' })).state.code).toBe(200000);
    expect((await call(root, 'PUT', '/service/resource/update', { ...bodyFrom(resourceUpdateBody, d), name: 'home' })).state.code).toBe(407);
    const own = (await call(root, 'POST', '/service/resource/add', body({ code: 'ownA', name: 'Own A' }))).result.id;
    const child = (await call(root, 'POST', '/service/resource/add', body({ code: 'ownB', name: 'Own B', parentId: own }))).result.id;
    const od = (await call(root, 'GET', `/service/resource/detail?id=${own}`)).result;
    expect((await call(root, 'PUT', '/service/resource/update', { ...bodyFrom(resourceUpdateBody, od), code: 'home' })).state.code).toBe(408);
    expect((await call(root, 'PUT', '/service/resource/update', { ...bodyFrom(resourceUpdateBody, od), code: 'ownA2' })).state.code).toBe(200000);
    expect((await call(root, 'PUT', '/service/resource/update', { ...bodyFrom(resourceUpdateBody, od), code: 'ownA2', parentId: child })).state.code).toBe(500000);
  });

  it('deleting a parent deletes its children; built-in entries cannot be deleted', async () => {
    const p = (await call(root, 'POST', '/service/resource/add', body({ code: 'delP', name: 'Del P' }))).result.id;
    const c = (await call(root, 'POST', '/service/resource/add', body({ code: 'delC', name: 'Del C', parentId: p }))).result.id;
    const tree = (await call(root, 'GET', '/service/resource/tree')).result;
    expect(flat(tree).find((n) => n.id === p).children.map((n: any) => n.id)).toEqual([c]);
    expect((await call(root, 'DELETE', `/service/resource/del?ids=${p}`)).result).toEqual({ deleted: 2 });
    expect(await t.db.one('SELECT 1 FROM menu_resource WHERE id = $1', [c])).toBeUndefined();
    const r = await call(root, 'DELETE', `/service/resource/del?ids=${res.gas}`);
    expect(r.state.code).toBe(500000);
    expect(await t.db.one('SELECT 1 FROM menu_resource WHERE id = $1', [res.gas])).toBeTruthy();
    expect((await call(root, 'DELETE', '/service/resource/del?ids=999999')).state.code).toBe(404);
  });

  it('page and detail carry every field of spec §3', async () => {
    const p = (await call(root, 'GET', '/service/resource/page?iDisplayStart=0&iDisplayLength=15&code=deviceMonitor')).result;
    expect(p.total).toBe(1);
    expect(p.rows[0]).toMatchObject({ code: 'deviceMonitor', url: '/databoard/deviceMonitor', visible: 'all', funcObject: 'Carrier', accessLevel: 0, enabled: true, hidden: false, builtin: true, parentId: res.databoard });
    expect(p.rows[0].funcCodes).toEqual(['viewCarrier', 'newCarrier', 'editCarrier', 'removeCarrier']);
  });
});
