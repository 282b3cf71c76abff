import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '@coldwatch/contract';
import { setup, PASSWORD, type TestCtx } from '../../../test/helper.js';

/** User management (`/service/user/*`): spec §5 user rules, §8 User answers, scope. */

let t: TestCtx;
let alpha: string;
let beta: string;
let root: string;
const role: Record<string, number> = {};
let seq = 0;

const roleId = async (customerId: number, name: string) =>
  (await t.db.one<{ id: number }>('SELECT id FROM role WHERE customer_id = $1 AND name = $2', [customerId, name]))!.id;

beforeAll(async () => {
  t = await setup();
  [alpha, beta, root] = await Promise.all([t.login('alpha'), t.login('beta'), t.login('admin')]);
  role.aOp = await roleId(t.tenants.a.customerId, 'Operator');
  role.aAdmin = await roleId(t.tenants.a.customerId, 'Administrator');
  role.bOp = await roleId(t.tenants.b.customerId, 'Operator');
  role.pAdmin = await roleId(t.tenants.root.customerId, 'Platform administrator');
  role.pOp = await roleId(t.tenants.root.customerId, 'Platform operator');
});
afterAll(() => t.close());

/** A valid new-user body with fresh unique values. */
const fresh = (over: Record<string, unknown> = {}) => {
  seq++;
  return { account: `user${seq}`, name: `User ${seq}`, gender: 1, status: 1, roleIds: [role.aOp], mobile: `1390000${String(seq).padStart(4, '0')}`, email: `user${seq}@example.com`, ...over };
};

const call = (method: string, url: string, cookie: string, payload?: unknown) =>
  t.app.inject({ method: method as any, url, headers: { cookie, 'accept-language': 'en-US' }, payload: payload as any });
const add = (body: unknown, cookie = alpha) => call('POST', '/service/user/add', cookie, body);
const userCount = async () => (await t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM app_user'))!.n;

describe('user rules (spec §5) and answers (spec §8)', () => {
  // Each rule: a passing and a failing example; the failing one answers its code and changes nothing.
  const taken = { account: 'alpha', mobile: '13811112222', email: 'taken@example.com', name: 'Taken Name' };
  beforeAll(async () => {
    const r = await add(fresh({ account: 'taken1', mobile: taken.mobile, email: taken.email, name: taken.name }));
    expect(r.json().state.code).toBe(200000);
  });

  const cases: { rule: string; good: () => Record<string, unknown>; bad: () => Record<string, unknown>; code: number; field?: string }[] = [
    { rule: 'role required', good: () => fresh(), bad: () => fresh({ roleIds: [] }), code: 400, field: 'roleIds' },
    { rule: 'account required', good: () => fresh(), bad: () => fresh({ account: '' }), code: 400, field: 'account' },
    { rule: 'account format', good: () => fresh({ account: `ok_user.${seq + 1}` }), bad: () => fresh({ account: 'has space' }), code: 400, field: 'account' },
    { rule: 'mobile required', good: () => fresh(), bad: () => ({ ...fresh(), mobile: undefined }), code: 400, field: 'mobile' },
    { rule: 'mobile format', good: () => fresh({ mobile: `021-${String(seq + 1).padStart(8, '5')}` }), bad: () => fresh({ mobile: '12ab' }), code: 400, field: 'mobile' },
    { rule: 'status required (414)', good: () => fresh({ status: 0 }), bad: () => ({ ...fresh(), status: undefined }), code: 414, field: 'status' },
    { rule: 'valid e-mail (412)', good: () => fresh({ email: '' }), bad: () => fresh({ email: 'not-an-email@' }), code: 412, field: 'email' },
    { rule: 'account unique (416)', good: () => fresh(), bad: () => fresh({ account: taken.account }), code: 416 },
    { rule: 'user name unique (417)', good: () => fresh(), bad: () => fresh({ name: taken.name }), code: 417 },
    { rule: 'mobile unique (418)', good: () => fresh(), bad: () => fresh({ mobile: taken.mobile }), code: 418 },
    { rule: 'e-mail unique (419)', good: () => fresh(), bad: () => fresh({ email: taken.email.toUpperCase() }), code: 419 },
    { rule: 'password letters and digits 6-20', good: () => fresh({ password: 'abc123' }), bad: () => fresh({ password: 'abc' }), code: 400, field: 'password' },
  ];

  for (const c of cases) {
    it(`${c.rule}: passes and fails`, async () => {
      const good = await add(c.good());
      expect(good.json().state.code, JSON.stringify(good.json())).toBe(200000);
      const before = await userCount();
      const bad = await add(c.bad());
      expect(bad.json().state.code, JSON.stringify(bad.json())).toBe(c.code);
      if (c.field) expect(bad.json().result.errors).toHaveProperty(c.field);
      expect(await userCount()).toBe(before);
    });
  }

  it('answers the codes in English and Chinese', async () => {
    const en = await add(fresh({ account: 'alpha' }));
    expect(en.json().state).toEqual({ code: 416, msg: 'The account already exists' });
    const zh = await t.app.inject({ method: 'POST', url: '/service/user/add', headers: { cookie: alpha }, payload: fresh({ email: 'x@' }) });
    expect(zh.json().state).toEqual({ code: 412, msg: translate('errors.rule.email', 'zh-CN') });
    expect(zh.json().state.msg).not.toMatch(/^errors\./);
  });

  it('checks uniqueness on update too, excluding the user itself', async () => {
    const a = (await add(fresh())).json().result.id;
    const body = fresh();
    const b = (await add(body)).json().result.id;
    const same = await call('PUT', '/service/user/update', alpha, { ...body, id: b, remarks: 'edited' });
    expect(same.json().state.code).toBe(200000);
    const dup = await call('PUT', '/service/user/update', alpha, { ...body, id: a });
    expect(dup.json().state.code).toBe(416);
    const noStatus = await call('PUT', '/service/user/update', alpha, { ...body, id: b, status: null });
    expect(noStatus.json().state.code).toBe(414);
  });

  it('makes a temporary password when none is given, shown once', async () => {
    const body = fresh();
    const r = (await add(body)).json().result;
    expect(r.password).toMatch(/^[A-Za-z0-9]{10}$/);
    await t.login(body.account as string, r.password);
    const detail = (await call('GET', `/service/user/detail?id=${r.id}`, alpha)).json().result;
    expect(detail).not.toHaveProperty('password');
    expect(detail).not.toHaveProperty('password_hash');
  });
});

describe('user fields, types and scope', () => {
  it('stores every field and derives the user type from the roles', async () => {
    const scene = (await t.db.one<{ id: number }>(`INSERT INTO scene (customer_id, code, label) VALUES ($1, 'a-ward', 'Ward') RETURNING id`, [t.tenants.a.customerId]))!.id;
    const body = fresh({ roleIds: [role.aAdmin], gender: 0, remarks: 'night shift', sceneIds: [scene] });
    const { id } = (await add(body)).json().result;
    const d = (await call('GET', `/service/user/detail?id=${id}`, alpha)).json().result;
    expect(d).toMatchObject({
      account: body.account, name: body.name, gender: 0, status: 1, mobile: body.mobile, email: body.email, remarks: 'night shift',
      customerId: t.tenants.a.customerId, customerName: 'Alpha Hospital', defaultAccount: false, userType: 1, isAdmin: true,
      roleIds: [role.aAdmin], sceneIds: [scene], proxyCustomerId: null,
    });
    expect(d.createdAt).toBeGreaterThan(0);
    expect(d.resourceIds.length).toBeGreaterThan(0);
    const op = (await add(fresh())).json().result.id;
    expect((await call('GET', `/service/user/detail?id=${op}`, alpha)).json().result).toMatchObject({ userType: 0, isAdmin: false });
  });

  it('refuses scenes and roles of another customer', async () => {
    const bScene = (await t.db.one<{ id: number }>(`INSERT INTO scene (customer_id, code, label) VALUES ($1, 'b-ward', 'Ward') RETURNING id`, [t.tenants.b.customerId]))!.id;
    const before = await userCount();
    const s = await add(fresh({ sceneIds: [bScene] }));
    expect(s.json().state).toMatchObject({ code: 500000, msg: 'The scene does not belong to this customer' });
    const r = await add(fresh({ roleIds: [role.bOp] }));
    expect(r.json().state.code).toBe(500000);
    expect(r.json().state.msg).toBe("The role does not belong to the user's customer");
    expect(await userCount()).toBe(before);
  });

  it('a scene-limited administrator grants only scenes within its own limit, never none, to users, roles and itself', async () => {
    const scene = async (code: string) => (await t.db.one<{ id: number }>(`INSERT INTO scene (customer_id, code, label) VALUES ($1, $2, 'Ward') RETURNING id`, [t.tenants.a.customerId, code]))!.id;
    const [mine, other] = [await scene('a-limit-mine'), await scene('a-limit-other')];
    const limitedId = await t.addUser(t.tenants.a.customerId, 'alphascenes', 'Administrator', 1);
    await t.db.query('INSERT INTO user_scene (user_id, customer_id, scene_id) VALUES ($1, $2, $3)', [limitedId, t.tenants.a.customerId, mine]);
    const limited = await t.login('alphascenes');
    const users = await userCount();
    const outside = await add(fresh({ sceneIds: [other] }), limited);
    expect(outside.json().state).toMatchObject({ code: 500102, msg: 'You may give only scenes within your own associated architecture' });
    expect((await add(fresh({ sceneIds: [] }), limited)).json().state.code).toBe(500102);
    expect(await userCount()).toBe(users);
    expect((await add(fresh({ sceneIds: [mine] }), limited)).json().state.code).toBe(200000);
    // A role that carries another scene is not a way round: given to a user, it would widen the user.
    const wide = (await t.db.one<{ id: number }>(`INSERT INTO role (customer_id, name, level) VALUES ($1, 'Wide ward', 0) RETURNING id`, [t.tenants.a.customerId]))!.id;
    await t.db.query('INSERT INTO role_scene (role_id, customer_id, scene_id) VALUES ($1, $2, $3)', [wide, t.tenants.a.customerId, other]);
    expect((await add(fresh({ roleIds: [wide], sceneIds: [mine] }), limited)).json().state.code).toBe(500102);
    // Itself: the same form cannot widen its own limit.
    const self = (await call('GET', `/service/user/detail?id=${limitedId}`, limited)).json().result;
    const widen = await call('PUT', '/service/user/update', limited, { ...fresh({ account: 'alphascenes', roleIds: self.roleIds }), id: limitedId, sceneIds: [mine, other] });
    expect(widen.json().state).toMatchObject({ code: 500102 });
    expect((await t.db.query<{ scene_id: number }>('SELECT scene_id FROM user_scene WHERE user_id = $1', [limitedId])).map((r) => r.scene_id)).toEqual([mine]);
    // Roles: scenes within the limit, at least one.
    const monitor = (await t.db.one<{ id: number }>(`SELECT id FROM menu_resource WHERE code = 'deviceMonitor'`))!.id;
    const roleBody = (sceneIds: number[]) => ({ name: `Scene role ${++seq}`, resourceIds: [monitor], funcs: ['viewCarrier'], sceneIds });
    const roles = async (sceneIds: number[]) => (await call('POST', '/service/role/add', limited, roleBody(sceneIds))).json().state;
    expect(await roles([other])).toMatchObject({ code: 500102, msg: 'You may give only scenes within your own associated architecture' });
    expect((await roles([])).code).toBe(500102);
    expect((await roles([mine])).code).toBe(200000);
    // An administrator without a limit gives any scene of its customer.
    expect((await add(fresh({ sceneIds: [other] }))).json().state.code).toBe(200000);
  });

  it('a customer admin cannot create a platform-level user', async () => {
    const own = await add(fresh({ roleIds: [role.pAdmin] }));
    expect(own.json().state.code).toBe(500000);
    const asTarget = await add(fresh({ roleIds: [role.pOp], customerId: t.tenants.root.customerId }));
    expect(asTarget.json().state.code).toBe(500000);
    // A level-2 role smuggled into a customer still cannot make a platform user there.
    const odd = (await t.db.one<{ id: number }>(`INSERT INTO role (customer_id, name, level) VALUES ($1, 'Odd', 2) RETURNING id`, [t.tenants.a.customerId]))!.id;
    const smuggled = await add(fresh({ roleIds: [odd] }));
    expect(smuggled.json().state.msg).toBe('Platform roles can only be given to users of the platform');
  });

  it('the platform administrator creates platform users and users of a customer', async () => {
    const p = await add(fresh({ roleIds: [role.pOp] }), root);
    expect(p.json().state.code).toBe(200000);
    const pd = (await call('GET', `/service/user/detail?id=${p.json().result.id}`, root)).json().result;
    expect(pd).toMatchObject({ userType: 2, customerId: t.tenants.root.customerId });
    const c = await add(fresh({ roleIds: [role.bOp], customerId: t.tenants.b.customerId }), root);
    expect(c.json().state.code).toBe(200000);
    const cd = (await call('GET', `/service/user/detail?id=${c.json().result.id}`, beta)).json().result;
    expect(cd).toMatchObject({ userType: 0, customerId: t.tenants.b.customerId });
  });

  it("a customer admin neither sees nor changes another customer's users (404)", async () => {
    const foreign = t.tenants.b.userId;
    const page = (await call('GET', '/service/user/page?iDisplayLength=100', alpha)).json().result;
    expect(page.rows.every((r: any) => r.customerId === t.tenants.a.customerId)).toBe(true);
    expect(page.rows.some((r: any) => r.account === 'alpha')).toBe(true);
    expect(page.total).toBe(page.rows.length);
    const bPage = (await call('GET', `/service/user/page?customerId=${t.tenants.b.customerId}`, alpha)).json().result;
    expect(bPage.total).toBe(0);
    for (const [method, url, body] of [
      ['GET', `/service/user/detail?id=${foreign}`],
      ['PUT', '/service/user/update', { ...fresh(), id: foreign }],
      ['DELETE', `/service/user/del?ids=${foreign}`],
      ['PUT', `/service/user/status?ids=${foreign}&status=0`],
      ['PUT', `/service/user/resetPassword?id=${foreign}`],
    ] as const) {
      const r = await call(method, url, alpha, body);
      expect(r.json().state.code, `${method} ${url}`).toBe(404);
    }
    const b = (await t.db.one<{ status: number; account: string }>('SELECT status, account FROM app_user WHERE id = $1', [foreign]))!;
    expect(b).toEqual({ status: 1, account: 'beta' });
    await t.login('beta');
  });

  it('a batch with one foreign id changes nothing', async () => {
    const own = (await add(fresh())).json().result.id;
    const r = await call('DELETE', `/service/user/del?ids=${own},${t.tenants.b.userId}`, alpha);
    expect(r.json().state.code).toBe(404);
    expect(await t.db.one('SELECT id FROM app_user WHERE id = $1', [own])).toBeTruthy();
  });

  it('a user without the user functions gets 500102', async () => {
    await t.addUser(t.tenants.a.customerId, 'plain_op');
    const op = await t.login('plain_op');
    expect((await call('GET', '/service/user/page', op)).json().state.code).toBe(500102);
    expect((await add(fresh(), op)).json().state.code).toBe(500102);
  });

  it('filters the page by account, status and role', async () => {
    const body = fresh({ account: 'findme_x', status: 0, roleIds: [role.aAdmin] });
    await add(body);
    const p = (await call('GET', '/service/user/page?account=findme&status=0', alpha)).json().result;
    expect(p.rows.map((r: any) => r.account)).toEqual(['findme_x']);
    expect(p.rows[0].roles).toEqual([{ id: role.aAdmin, name: 'Administrator', type: 'admin', level: 1 }]);
    const byRole = (await call('GET', `/service/user/page?roleId=${role.aAdmin}&iDisplayLength=100`, alpha)).json().result;
    expect(byRole.rows.every((r: any) => r.roles.some((x: any) => x.id === role.aAdmin))).toBe(true);
  });
});

describe('status, delete and password reset', () => {
  it('a default account cannot be deleted or cancelled', async () => {
    const id = t.tenants.a.userId;
    for (const [m, url] of [['DELETE', `/service/user/del?ids=${id}`], ['PUT', `/service/user/status?ids=${id}&status=0`]] as const) {
      const r = await call(m, url, root);
      expect(r.json().state).toEqual({ code: 500000, msg: 'A default account cannot be deleted or cancelled' });
    }
    const upd = (await call('GET', `/service/user/detail?id=${id}`, alpha)).json().result;
    const r = await call('PUT', '/service/user/update', root, { id, account: upd.account, name: upd.name, gender: 1, status: 0, roleIds: [role.aAdmin], mobile: '13712345678' });
    expect(r.json().state.code).toBe(500000);
    expect((await t.db.one<{ status: number }>('SELECT status FROM app_user WHERE id = $1', [id]))!.status).toBe(1);
  });

  it('cancel locks the user out with a clear message; reactivation lets it in', async () => {
    const body = fresh({ password: 'pass1234' });
    const { id } = (await add(body)).json().result;
    const cookie = await t.login(body.account as string, 'pass1234');
    expect((await call('PUT', `/service/user/status?ids=${id}&status=0`, alpha)).json().state.code).toBe(200000);
    expect((await call('GET', '/service/mine/info', cookie)).json().state.code).toBe(500100);
    const denied = await t.app.inject({ method: 'POST', url: '/service/user/login', payload: { account: body.account, password: 'pass1234' }, headers: { 'accept-language': 'en-US' } });
    expect(denied.json().state).toEqual({ code: 500103, msg: 'This account has been cancelled, please contact the administrator' });
    expect((await call('PUT', `/service/user/status?ids=${id}&status=1`, alpha)).json().state.code).toBe(200000);
    await t.login(body.account as string, 'pass1234');
    expect((await call('PUT', `/service/user/status?ids=${id}&status=2`, alpha)).json().state.code).toBe(400);
  });

  it('deleting a user ends its sessions', async () => {
    const body = fresh({ password: 'pass1234' });
    const { id } = (await add(body)).json().result;
    const cookie = await t.login(body.account as string, 'pass1234');
    expect((await call('GET', '/service/mine/info', cookie)).json().state.code).toBe(200000);
    expect((await call('DELETE', `/service/user/del?ids=${id}`, alpha)).json().result).toEqual({ deleted: 1 });
    expect((await call('GET', '/service/mine/info', cookie)).json().state.code).toBe(500100);
    expect((await call('GET', `/service/user/detail?id=${id}`, alpha)).json().state.code).toBe(404);
  });

  it('nobody deletes or cancels its own account', async () => {
    const r = await call('DELETE', `/service/user/del?ids=${t.tenants.root.userId}`, root);
    expect(r.json().state.code).toBe(500000);
  });

  it('reset password answers 200 = reset success; the old password stops working', async () => {
    const body = fresh({ password: 'oldpass1' });
    const { id } = (await add(body)).json().result;
    const session = await t.login(body.account as string, 'oldpass1');
    const r = await call('PUT', `/service/user/resetPassword?id=${id}`, alpha);
    expect(r.json().state).toEqual({ code: 200000, msg: 'Reset success' });
    expect(r.json().result).toMatchObject({ code: 200, id, account: body.account });
    const pw = r.json().result.password as string;
    expect(pw).toMatch(/^[A-Za-z0-9]{6,20}$/);
    const old = await t.app.inject({ method: 'POST', url: '/service/user/login', payload: { account: body.account, password: 'oldpass1' } });
    expect(old.json().state.code).toBe(500088);
    expect((await call('GET', '/service/mine/info', session)).json().state.code).toBe(500100);
    await t.login(body.account as string, pw);
    const log = await t.db.one<{ params: any }>(`SELECT params FROM sys_log WHERE method = 'resetPassword' ORDER BY id DESC LIMIT 1`);
    expect(JSON.stringify(log!.params)).not.toContain(pw);
  });

  it('every mutation writes the system log', async () => {
    const before = (await t.db.one<{ n: number }>(`SELECT count(*)::int AS n FROM sys_log WHERE module = 'user' AND method = 'add'`))!.n;
    await add(fresh());
    await add(fresh({ account: 'alpha' }));
    const rows = await t.db.query<{ result: number; params: any }>(`SELECT result, params FROM sys_log WHERE module = 'user' AND method = 'add' ORDER BY id DESC LIMIT 2`);
    expect(rows.map((r) => r.result)).toEqual([0, 1]);
    expect((await t.db.one<{ n: number }>(`SELECT count(*)::int AS n FROM sys_log WHERE module = 'user' AND method = 'add'`))!.n).toBe(before + 2);
    void PASSWORD;
  });
});

describe('delegable roles (spec §3/§6)', () => {
  // A platform operator (user type 2, not administrator-type) holding a custom role with the user
  // functions (level 1: a customer operator of type 0 cannot hold them at all), and the roles it may hand on.
  let clerk: string;
  const r: Record<string, number> = {};
  const mkRole = async (customerId: number, name: string, level: number, delegable: boolean, funcs: string[] = []) => {
    const id = (await t.db.one<{ id: number }>(
      `INSERT INTO role (customer_id, name, status, type, level, delegable) VALUES ($1, $2, 1, 'normal', $3, $4) RETURNING id`,
      [customerId, name, level, delegable],
    ))!.id;
    for (const f of funcs) await t.db.query('INSERT INTO role_func (role_id, func) VALUES ($1, $2)', [id, f]);
    return id;
  };
  beforeAll(async () => {
    const a = t.tenants.a.customerId;
    r.clerk = await mkRole(t.tenants.root.customerId, 'User clerk', 2, false, ['viewUser', 'newUser', 'editUser']);
    r.helper = await mkRole(a, 'Delegable helper', 0, true, ['viewCarrier']);
    r.manager = await mkRole(a, 'Delegable manager', 1, true, ['viewCarrier']);
    r.pAdminDelegable = await mkRole(t.tenants.root.customerId, 'Delegable platform admin', 3, true, ['viewCarrier']);
    await t.addUser(t.tenants.root.customerId, 'user_clerk', 'User clerk', 2);
    clerk = await t.login('user_clerk');
  });
  const inA = (roleIds: number[]) => fresh({ roleIds, customerId: t.tenants.a.customerId });

  it('a non-administrator assigns delegable roles within its level, and nothing else (500102)', async () => {
    for (const roleIds of [[r.helper], [r.manager, r.helper]]) {
      const good = await add(inA(roleIds), clerk);
      expect(good.json().state.code, JSON.stringify(good.json())).toBe(200000);
    }
    const before = await userCount();
    const bad = [inA([role.aOp]), inA([r.helper, role.aAdmin]), fresh({ roleIds: [r.clerk], customerId: t.tenants.root.customerId }), fresh({ roleIds: [r.pAdminDelegable], customerId: t.tenants.root.customerId })];
    for (const body of bad) {
      const res = await add(body, clerk);
      expect(res.json().state, JSON.stringify(body.roleIds)).toEqual({ code: 500102, msg: translate('errors.user.roleNotDelegable', 'en-US') });
    }
    expect(await userCount()).toBe(before);
  });

  it('on update a non-administrator keeps roles the user holds but adds no undelegable one', async () => {
    const body = inA([role.aOp]);
    const { id } = (await add(body)).json().result;
    const keep = await call('PUT', '/service/user/update', clerk, { ...body, id, roleIds: [role.aOp, r.helper] });
    expect(keep.json().state.code, JSON.stringify(keep.json())).toBe(200000);
    const bad = await call('PUT', '/service/user/update', clerk, { ...body, id, roleIds: [role.aOp, r.helper, role.aAdmin] });
    expect(bad.json().state.code).toBe(500102);
    const roles = await t.db.query<{ role_id: number }>('SELECT role_id FROM user_role WHERE user_id = $1 ORDER BY role_id', [id]);
    expect(roles.map((x) => x.role_id)).toEqual([role.aOp, r.helper].sort((a, b) => a - b));
  });

  it('an administrator-type account assigns any role of its customer', async () => {
    const res = await add(fresh({ roleIds: [role.aOp, role.aAdmin] }), alpha);
    expect(res.json().state.code, JSON.stringify(res.json())).toBe(200000);
    const byRoot = await add(fresh({ roleIds: [r.clerk], customerId: t.tenants.root.customerId }), root);
    expect(byRoot.json().state.code, JSON.stringify(byRoot.json())).toBe(200000);
  });
});
