import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signCaptcha } from '../../platform/auth/captcha.js';
import { customerUpdateBody } from '@coldwatch/contract';
import { bodyFrom } from '../../../test/routes.js';
import { setup, PASSWORD, type TestCtx } from '../../../test/helper.js';
import { seedRecords } from '../shared/records.fixture.js';

let t: TestCtx;
let root: string;
beforeAll(async () => {
  t = await setup();
  root = await t.login('admin');
}, 120_000);
afterAll(() => t?.close());

const call = (cookie: string, method: string, url: string, payload?: unknown) =>
  t.app.inject({ method: method as any, url, payload: payload as any, headers: { cookie, 'accept-language': 'en-US' } });

let seq = 0;
/** A valid add body; each call unique. */
function body(over: Record<string, unknown> = {}) {
  seq++;
  return {
    name: `Customer ${seq}`,
    shortName: `C${seq}`,
    code: `CUST${seq}`,
    type: 'customer',
    orgType: '02',
    area: 'Shanghai',
    areaCode: `SH_${seq}`,
    address: `${seq} Road`,
    contact: 'Li Wei',
    phone: `021-${String(10000000 + seq)}`,
    email: `c${seq}@example.com`,
    notifyEmail: true,
    notifySms: true,
    description: 'test',
    account: `cust${seq}admin`,
    password: PASSWORD,
    ...over,
  };
}

const add = (over: Record<string, unknown> = {}, cookie = root) => call(cookie, 'POST', '/service/customer/add', body(over));
const counts = async () =>
  (await t.db.one<{ c: number; u: number; r: number }>(
    'SELECT (SELECT count(*)::int FROM customer) AS c, (SELECT count(*)::int FROM app_user) AS u, (SELECT count(*)::int FROM role) AS r',
  ))!;

describe('customer create', () => {
  it('creates the customer, its default roles and its administrator, who can log in', async () => {
    const b = body();
    const res = await call(root, 'POST', '/service/customer/add', b);
    expect(res.json().state).toEqual({ code: 200000, msg: 'Added' });
    const r = res.json().result;
    expect(r).toMatchObject({ code: 200, account: b.account });
    const detail = (await call(root, 'GET', `/service/customer/detail?id=${r.id}`)).json().result;
    expect(detail).toMatchObject({
      name: b.name, shortName: b.shortName, code: b.code, status: 1, type: 'customer', orgType: '02', area: 'Shanghai', areaCode: b.areaCode,
      address: b.address, contact: 'Li Wei', phone: b.phone, email: b.email, notifyEmail: true, notifySms: true, description: 'test', adminAccount: b.account, userCount: 1,
    });
    const roles = await t.db.query('SELECT name, type, is_default FROM role WHERE customer_id = $1 ORDER BY id', [r.id]);
    expect(roles).toEqual([
      { name: 'Administrator', type: 'admin', is_default: true },
      { name: 'Operator', type: 'normal', is_default: true },
    ]);
    const cookie = await t.login(b.account);
    const info = (await call(cookie, 'GET', '/service/mine/pageInfo')).json().result;
    expect(info.userType).toBe(1);
    expect(info.funcs).toContain('newCarrier');
    expect(info.funcs).not.toContain('viewCustomer');
  });

  // Table-driven §5 rules: each with a passing and a failing example and the answer of the failure.
  const rules: { rule: string; pass: Record<string, unknown>; fail: Record<string, unknown>; code: number; field?: string }[] = [
    { rule: 'code letters and digits', pass: { code: 'Abc123' }, fail: { code: 'AB-12' }, code: 406, field: 'code' },
    { rule: 'code at most 20', pass: { code: 'A'.repeat(20) }, fail: { code: 'A'.repeat(21) }, code: 406, field: 'code' },
    { rule: 'code no spaces', pass: { code: 'NoSpace' }, fail: { code: 'No Space' }, code: 406, field: 'code' },
    { rule: 'type required', pass: { type: 'customer' }, fail: { type: undefined }, code: 410, field: 'type' },
    { rule: 'type not empty', pass: { type: 'customer' }, fail: { type: '' }, code: 410, field: 'type' },
    { rule: 'organisation type required', pass: { orgType: '09' }, fail: { orgType: undefined }, code: 410, field: 'orgType' },
    { rule: 'organisation type 00-05, 09', pass: { orgType: '05' }, fail: { orgType: '07' }, code: 400, field: 'orgType' },
    { rule: 'area code letters digits underscore', pass: { areaCode: 'SH_01' }, fail: { areaCode: 'SH-01' }, code: 400, field: 'areaCode' },
    { rule: 'area code at most 20', pass: { areaCode: 'a'.repeat(20) }, fail: { areaCode: 'a'.repeat(21) }, code: 400, field: 'areaCode' },
    { rule: 'phone digits and hyphens', pass: { phone: '0571-8888-1234' }, fail: { phone: '0571 8888' }, code: 400, field: 'phone' },
    { rule: 'phone at most 20', pass: { phone: '1'.repeat(20) }, fail: { phone: '1'.repeat(21) }, code: 400, field: 'phone' },
    { rule: 'name required', pass: { name: 'N' }, fail: { name: '' }, code: 400, field: 'name' },
    { rule: 'name at most 50', pass: { name: 'N'.repeat(50) }, fail: { name: 'N'.repeat(51) }, code: 400, field: 'name' },
    { rule: 'short name at most 30', pass: { shortName: 's'.repeat(30) }, fail: { shortName: 's'.repeat(31) }, code: 400, field: 'shortName' },
    { rule: 'area at most 120', pass: { area: 'a'.repeat(120) }, fail: { area: 'a'.repeat(121) }, code: 400, field: 'area' },
    { rule: 'address at most 255', pass: { address: 'a'.repeat(255) }, fail: { address: 'a'.repeat(256) }, code: 400, field: 'address' },
    { rule: 'contact at most 30', pass: { contact: 'c'.repeat(30) }, fail: { contact: 'c'.repeat(31) }, code: 400, field: 'contact' },
    { rule: 'description at most 250', pass: { description: 'd'.repeat(250) }, fail: { description: 'd'.repeat(251) }, code: 400, field: 'description' },
    { rule: 'valid e-mail', pass: { email: 'ok@x.cn' }, fail: { email: 'not-an-email' }, code: 400, field: 'email' },
    { rule: 'administrator password letters digits underscore 6-30', pass: { password: 'abc_12' }, fail: { password: 'abc12' }, code: 400, field: 'password' },
  ];
  for (const r of rules) {
    it(`rule: ${r.rule}`, async () => {
      const before = await counts();
      const bad = await add(r.fail);
      expect(bad.json().state.code).toBe(r.code);
      if (r.field) expect(Object.keys(bad.json().result.errors)).toContain(r.field);
      expect(await counts()).toEqual(before);
      const good = await add(r.pass);
      expect(good.json().state.code, good.body).toBe(200000);
    });
  }

  it('answers 418/420/421/422 for a taken name, code, e-mail, mobile (and 416 for a taken account), changing nothing', async () => {
    const first = body();
    expect((await call(root, 'POST', '/service/customer/add', first)).json().state.code).toBe(200000);
    const before = await counts();
    const cases: [Record<string, unknown>, number][] = [
      [{ name: first.name }, 418],
      [{ code: first.code }, 420],
      [{ email: first.email.toUpperCase() }, 421],
      [{ phone: first.phone }, 422],
      [{ account: first.account }, 416],
    ];
    for (const [over, code] of cases) {
      const res = await add(over);
      expect(res.json().state.code, JSON.stringify(over)).toBe(code);
    }
    expect(await counts()).toEqual(before);
    // A user's mobile or e-mail counts too: the new administrator would carry them.
    await t.db.query(`UPDATE app_user SET mobile = '13800000001', email = 'u1@example.com' WHERE account = 'alpha'`);
    expect((await add({ phone: '13800000001' })).json().state.code).toBe(422);
    expect((await add({ email: 'u1@example.com' })).json().state.code).toBe(421);
  });

  it('updates with the same rules; its own values are not duplicates', async () => {
    const b = body();
    const { id } = (await call(root, 'POST', '/service/customer/add', b)).json().result;
    const upd = bodyFrom(customerUpdateBody, { ...body(), id, name: b.name, code: b.code, email: b.email, phone: b.phone });
    const res = await call(root, 'PUT', '/service/customer/update', { ...upd, description: 'changed' });
    expect(res.json().state.code, res.body).toBe(200000);
    expect((await t.db.one('SELECT description FROM customer WHERE id = $1', [id]))!.description).toBe('changed');
    expect((await call(root, 'PUT', '/service/customer/update', { ...upd, code: 'BETA' })).json().state.code).toBe(420);
    expect((await call(root, 'PUT', '/service/customer/update', { ...upd, code: 'bad code' })).json().state.code).toBe(406);
    expect((await call(root, 'PUT', '/service/customer/update', { ...upd, orgType: '' })).json().state.code).toBe(410);
  });

  it('only platform management creates a platform-type customer, whose administrator is a platform administrator', async () => {
    const platformUser = await t.addUser(t.tenants.root.customerId, 'puser', 'Platform operator', 2);
    await t.db.query(`INSERT INTO user_role (user_id, role_id) SELECT $1, id FROM role WHERE customer_id = $2 AND name = 'Platform administrator'`, [
      platformUser,
      t.tenants.root.customerId,
    ]);
    const p = await t.login('puser');
    expect((await add({ type: 'platform' }, p)).json().state.code).toBe(500102);
    const res = await add({ type: 'platform' });
    expect(res.json().state.code).toBe(200000);
    expect((await t.db.one('SELECT user_type FROM app_user WHERE account = $1', [res.json().result.account]))!.user_type).toBe(3);
  });
});

describe('who reaches customers', () => {
  it('a platform user (type 2) sees every customer; a customer administrator gets 500102 on every customer call', async () => {
    await t.addUser(t.tenants.root.customerId, 'pviewer', 'Platform operator', 2);
    const p = await t.login('pviewer');
    const page = (await call(p, 'GET', '/service/customer/page?iDisplayLength=100')).json().result;
    const total = (await t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM customer'))!.n;
    expect(page.total).toBe(total);
    expect(page.rows.map((r: any) => r.code)).toEqual(expect.arrayContaining(['ALPHA', 'BETA', 'PLATFORM']));
    // view only: the operator role holds no new/edit/remove.
    expect((await add({}, p)).json().state.code).toBe(500102);

    const alpha = await t.login('alpha');
    const b = t.tenants.b.customerId;
    for (const [m, u] of [
      ['GET', '/service/customer/page'],
      ['GET', `/service/customer/detail?id=${b}`],
      ['POST', '/service/customer/add'],
      ['PUT', '/service/customer/update'],
      ['PUT', `/service/customer/cancel?ids=${b}`],
      ['PUT', `/service/customer/activate?ids=${b}`],
      ['DELETE', `/service/customer/del?ids=${b}`],
    ]) {
      const res = await call(alpha, m, u, m === 'POST' || m === 'PUT' ? body() : undefined);
      expect(res.json().state.code, `${m} ${u}`).toBe(500102);
    }
  });

  it('filters the page by name, code, status, type and organisation type', async () => {
    const q = async (s: string) => (await call(root, 'GET', `/service/customer/page?${s}`)).json().result.total;
    expect(await q('code=ALPHA')).toBe(1);
    expect(await q('name=Beta')).toBe(1);
    expect(await q('type=platform')).toBeGreaterThanOrEqual(1);
    expect(await q('status=1')).toBeGreaterThan(2);
    expect(await q('orgType=02')).toBeGreaterThanOrEqual(2);
  });
});

describe('cancel, activate, delete', () => {
  it('cancel locks the customer out and disables its roles, users, devices and monitoring points; activate restores exactly those', async () => {
    const b = body();
    const { id } = (await call(root, 'POST', '/service/customer/add', b)).json().result;
    const rec = await seedRecords(t, b.account, 'Gamma', 'C1');
    expect(rec.customerId).toBe(id);
    // Things already off before the cancel stay off after the activation.
    await t.addUser(id, 'gammaoff', 'Operator', 0);
    await t.db.query(`UPDATE app_user SET status = 0 WHERE account = 'gammaoff'`);
    await t.db.query(`UPDATE gateway SET status = 1 WHERE id = $1`, [rec.gatewayId]);
    const offCarrier = await t.db.one<{ id: number }>(
      `INSERT INTO carrier (customer_id, scene_id, name, type, alarm_on) VALUES ($1, $2, 'Gamma off', 2, false) RETURNING id`,
      [id, rec.sceneId],
    );
    const state = () =>
      t.db.one(
        `SELECT (SELECT status FROM customer WHERE id = $1) AS customer,
                (SELECT json_agg(json_build_array(name, status) ORDER BY id) FROM role WHERE customer_id = $1) AS roles,
                (SELECT json_agg(json_build_array(account, status) ORDER BY id) FROM app_user WHERE customer_id = $1) AS users,
                (SELECT json_agg(status ORDER BY id) FROM gateway WHERE customer_id = $1) AS gateways,
                (SELECT json_agg(status ORDER BY id) FROM sensor WHERE customer_id = $1) AS sensors,
                (SELECT json_agg(json_build_array(id, alarm_on) ORDER BY id) FROM carrier WHERE customer_id = $1) AS carriers`,
        [id],
      );
    const before = await state();
    const betaBefore = await t.db.one(`SELECT md5(string_agg(r::text, '' ORDER BY r::text)) AS h FROM (SELECT * FROM app_user WHERE customer_id = $1) r`, [t.tenants.b.customerId]);
    const session = await t.login(b.account);

    const res = await call(root, 'PUT', `/service/customer/cancel?ids=${id}`);
    expect(res.json().state.code).toBe(200000);
    const off: any = await state();
    expect(off.customer).toBe(0);
    expect(off.roles.every((r: any) => r[1] === 0)).toBe(true);
    expect(off.users.every((u: any) => u[1] === 0)).toBe(true);
    expect(off.gateways).toEqual([2]);
    expect(off.sensors.every((s: number) => s === 2)).toBe(true);
    expect(off.carriers.every((c: any) => c[1] === false)).toBe(true);
    // Locked out: the old session answers 500100, a new login "cancelled".
    const old = await call(session, 'GET', '/service/carrier/page');
    expect(old.json().state.code).toBe(500100);
    const login = await t.app.inject({ method: 'POST', url: '/service/user/login', payload: { account: b.account, password: PASSWORD }, headers: { 'accept-language': 'en-US' } });
    expect(login.json().state).toEqual({ code: 500103, msg: 'This account or its customer has been cancelled' });
    // Another customer is untouched.
    expect(await t.db.one(`SELECT md5(string_agg(r::text, '' ORDER BY r::text)) AS h FROM (SELECT * FROM app_user WHERE customer_id = $1) r`, [t.tenants.b.customerId])).toEqual(betaBefore);

    const act = await t.app.inject({ method: 'PUT', url: `/service/customer/activate?ids=${id}`, headers: { cookie: root, 'accept-language': 'en-US' } });
    expect(act.json().state).toEqual({ code: 200000, msg: 'Activation success' });
    const zh = await t.app.inject({ method: 'PUT', url: `/service/customer/activate?ids=${id}`, headers: { cookie: root } });
    expect(zh.json().state.msg).toBe('激活成功');
    expect(await state()).toEqual(before);
    expect((before as any).users.find((u: any) => u[0] === 'gammaoff')[1]).toBe(0);
    expect((before as any).carriers.find((c: any) => c[0] === offCarrier!.id)[1]).toBe(false);
    await t.login(b.account);
  });

  it('the platform customer and the caller\'s own customer cannot be cancelled or deleted', async () => {
    const p = t.tenants.root.customerId;
    for (const u of [`/service/customer/cancel?ids=${p}`, `/service/customer/del?ids=${p}`]) {
      const res = await call(root, u.includes('del') ? 'DELETE' : 'PUT', u);
      expect(res.json().state.code).toBe(500000);
      expect(res.json().state.msg).toBe('The platform customer cannot be cancelled or deleted');
    }
    expect((await t.db.one('SELECT status FROM customer WHERE id = $1', [p]))!.status).toBe(1);
    expect((await call(root, 'PUT', `/service/customer/cancel?ids=999999`)).json().state.code).toBe(404);
  });

  it('delete removes everything of that customer and nothing of another, in one transaction', async () => {
    const b = body();
    const { id } = (await call(root, 'POST', '/service/customer/add', b)).json().result;
    const rec = await seedRecords(t, b.account, 'Delta', 'D1');
    await t.db.query(`INSERT INTO alarm_queue (sensor_id, customer_id, min_ts, max_ts) VALUES ($1, $2, now(), now())`, [rec.sensorId, id]);
    await t.db.query(`INSERT INTO gateway_event (customer_id, gateway_id, type, ts) VALUES ($1, $2, 'power_fail', now())`, [id, rec.gatewayId]);
    await t.db.query(`INSERT INTO device_command (customer_id, gateway_id, cmd_id, kind, payload) VALUES ($1, $2, 'del-1', 'config', '{}')`, [id, rec.gatewayId]);
    await t.db.query(`INSERT INTO exception_record (customer_id, carrier_id, sensor_id, type, category, start_ts) VALUES ($1, $2, $3, 'data', 'temp_high', now())`, [id, rec.carrierId, rec.sensorId]);
    // A proxy role of another customer governing this one, and a proxy user switched into it.
    const role = await t.db.one<{ id: number }>(`INSERT INTO role (customer_id, name, level) VALUES ($1, 'Agents', -1) RETURNING id`, [t.tenants.b.customerId]);
    await t.db.query('INSERT INTO role_proxy_customer (role_id, governed_id) VALUES ($1, $2)', [role!.id, id]);
    const agent = await t.addUser(t.tenants.b.customerId, 'deltaagent', 'Agents', -1);
    await t.db.query('UPDATE app_user SET proxy_customer_id = $2 WHERE id = $1', [agent, id]);
    await t.login(b.account);

    const tables = await t.db.query<{ relname: string }>(
      `SELECT c.relname FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE a.attname = 'customer_id' AND NOT a.attisdropped AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND n.nspname = current_schema()`,
    );
    const rowsOf = async (cid: number) => {
      const out: Record<string, number> = {};
      for (const { relname } of tables) out[relname] = (await t.db.one<{ n: number }>(`SELECT count(*)::int AS n FROM "${relname}" WHERE customer_id = $1`, [cid]))!.n;
      return out;
    };
    const mine = await rowsOf(id);
    for (const x of ['app_user', 'role', 'scene', 'carrier', 'gateway', 'sensor', 'contact', 'reading', 'alarm_queue', 'gateway_event', 'device_command', 'exception_record', 'user_session']) {
      expect(mine[x], x).toBeGreaterThan(0);
    }
    const others = await Promise.all([t.tenants.a.customerId, t.tenants.b.customerId].map(rowsOf));

    const res = await call(root, 'DELETE', `/service/customer/del?ids=${id}`);
    expect(res.json().state.code, res.body).toBe(200000);
    expect(res.json().result).toEqual({ deleted: 1 });
    const after = await rowsOf(id);
    for (const [k, n] of Object.entries(after)) if (k !== 'sys_log') expect(n, k).toBe(0);
    expect(after.sys_log).toBeGreaterThan(0); // the audit trail is kept (docs/tenancy.md)
    expect(await t.db.one('SELECT id FROM customer WHERE id = $1', [id])).toBeUndefined();
    // B's one link governing the deleted customer goes with it; nothing else of A or B changes.
    others[1].role_proxy_customer -= 1;
    expect(await Promise.all([t.tenants.a.customerId, t.tenants.b.customerId].map(rowsOf))).toEqual(others);
    expect(await t.db.one('SELECT count(*)::int AS n FROM role_proxy_customer WHERE role_id = $1', [role!.id])).toEqual({ n: 0 });
    expect((await t.db.one('SELECT proxy_customer_id FROM app_user WHERE id = $1', [agent]))!.proxy_customer_id).toBeNull();
  });

  it('a failing delete changes nothing (all ids or none)', async () => {
    const b = body();
    const { id } = (await call(root, 'POST', '/service/customer/add', b)).json().result;
    const res = await call(root, 'DELETE', `/service/customer/del?ids=${id},${t.tenants.root.customerId}`);
    expect(res.json().state.code).toBe(500000);
    expect(await t.db.one('SELECT id FROM customer WHERE id = $1', [id])).toEqual({ id });
  });
});

describe('proxy customers and the switch', () => {
  let proxy: string;
  let agency: number;
  beforeAll(async () => {
    const made = (await call(root, 'POST', '/service/customer/add', body({ name: 'Agency', code: 'AGENCY', account: 'agencyadmin' }))).json().result;
    agency = made.id;
    const role = await t.db.one<{ id: number }>(`INSERT INTO role (customer_id, name, level, type) VALUES ($1, 'Proxy', -1, 'normal') RETURNING id`, [agency]);
    await t.db.query(`INSERT INTO role_func (role_id, func) VALUES ($1, 'viewCarrier'), ($1, 'viewScene')`, [role!.id]);
    await t.db.query('INSERT INTO role_proxy_customer (role_id, governed_id) VALUES ($1, $2)', [role!.id, t.tenants.b.customerId]);
    await t.addUser(agency, 'agent', 'Proxy', -1);
    proxy = await t.login('agent');
  });

  it('lists its own and its governed customers', async () => {
    const res = await call(proxy, 'GET', '/service/mine/proxyCustomers');
    expect(res.json().result).toEqual([
      { id: t.tenants.b.customerId, name: 'Beta Clinic', code: 'BETA', own: false, current: false },
      { id: agency, name: 'Agency', code: 'AGENCY', own: true, current: true },
    ]);
  });

  it('is refused (500102) to every account type but -1', async () => {
    const alpha = await t.login('alpha');
    for (const c of [alpha, root]) {
      expect((await call(c, 'GET', `/service/mine/switch?customerId=${t.tenants.b.customerId}`)).json().state.code).toBe(500102);
      expect((await call(c, 'GET', '/service/mine/proxyCustomers')).json().state.code).toBe(500102);
    }
  });

  it('switches to a governed customer (200, then a new login), answers 300 when already selected, 404 outside its set', async () => {
    expect((await call(proxy, 'GET', `/service/mine/switch?customerId=${t.tenants.a.customerId}`)).json().state.code).toBe(404);
    const same = await call(proxy, 'GET', `/service/mine/switch?customerId=${agency}`);
    expect(same.json()).toEqual({ state: { code: 200000, msg: 'This customer is already selected' }, result: 300 });
    const sw = await call(proxy, 'GET', `/service/mine/switch?customerId=${t.tenants.b.customerId}`);
    expect(sw.json()).toEqual({ state: { code: 200000, msg: 'Switched, please log in again' }, result: 200 });
    expect((await call(proxy, 'GET', '/service/mine/proxyCustomers')).json().state.code).toBe(500100);
    proxy = await t.login('agent');
    const list = (await call(proxy, 'GET', '/service/mine/proxyCustomers')).json().result;
    expect(list.find((c: any) => c.current).id).toBe(t.tenants.b.customerId);
    expect((await call(proxy, 'GET', `/service/mine/switch?customerId=${t.tenants.b.customerId}`)).json().result).toBe(300);
    // Back to its own customer.
    expect((await call(proxy, 'GET', `/service/mine/switch?customerId=${agency}`)).json().result).toBe(200);
    expect((await t.db.one(`SELECT proxy_customer_id FROM app_user WHERE account = 'agent'`))!.proxy_customer_id).toBeNull();
  });
});

describe('registration', () => {
  const reg = (over: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/service/user/register',
      headers: { 'accept-language': 'en-US', ...headers },
      payload: {
        name: 'New Clinic', code: 'NEWCLINIC', orgType: '01', contact: 'Wang Fang', phone: '13912345678', email: 'it@newclinic.cn',
        account: 'newclinic', password: 'new_pass1', confirmPassword: 'new_pass1', ...over,
      },
    });

  it('rejects mismatched and weak passwords, a bad code and an empty organisation type, changing nothing', async () => {
    const before = await counts();
    const mismatch = await reg({ confirmPassword: 'other_pass' });
    expect(mismatch.json().state.code).toBe(400);
    expect(mismatch.json().result.errors.confirmPassword).toBe('The two passwords are inconsistent');
    for (const weak of ['abc12', 'has space1', 'x'.repeat(31), 'pa$$word']) {
      const res = await reg({ password: weak, confirmPassword: weak });
      expect(res.json().state.code, weak).toBe(400);
      expect(res.json().result.errors.password).toBe('Password: letters, digits and underscore, 6 to 30 characters');
    }
    expect((await reg({ code: 'NEW-CLINIC' })).json().state.code).toBe(406);
    expect((await reg({ orgType: '' })).json().state.code).toBe(410);
    expect((await reg({ code: 'ALPHA' })).json().state.code).toBe(420);
    expect((await reg({ name: 'Alpha Hospital' })).json().state.code).toBe(418);
    expect((await reg({ account: 'alpha' })).json().state.code).toBe(416);
    expect(await counts()).toEqual(before);
  });

  it('registers the company with its administrator and default roles; the administrator logs in', async () => {
    const res = await reg({ password: 'Strong_pass_30', confirmPassword: 'Strong_pass_30' });
    expect(res.json().state).toEqual({ code: 200000, msg: 'Registration success, please log in' });
    const { id, account } = res.json().result;
    expect(account).toBe('newclinic');
    const c = await t.db.one('SELECT name, code, org_type, type, status, contact, phone, email FROM customer WHERE id = $1', [id]);
    expect(c).toEqual({ name: 'New Clinic', code: 'NEWCLINIC', org_type: '01', type: 'customer', status: 1, contact: 'Wang Fang', phone: '13912345678', email: 'it@newclinic.cn' });
    expect((await t.db.query('SELECT name FROM role WHERE customer_id = $1 ORDER BY id', [id])).map((r) => r.name)).toEqual(['Administrator', 'Operator']);
    const u = await t.db.one('SELECT user_type, is_admin, default_account, mobile, email FROM app_user WHERE account = $1', [account]);
    expect(u).toEqual({ user_type: 1, is_admin: true, default_account: true, mobile: '13912345678', email: 'it@newclinic.cn' });
    await t.login('newclinic', 'Strong_pass_30');
    // Same phone again: 422.
    expect((await reg({ name: 'Other', code: 'OTHER', email: 'o@o.cn', account: 'other' })).json().state.code).toBe(422);
  });

  it('needs the verification code when login verification is on', async () => {
    const t2 = await setup({ LOGIN_CAPTCHA: 'on' });
    try {
      const payload = { name: 'Cap Clinic', code: 'CAP', orgType: '01', contact: 'Li', phone: '13700000000', email: 'c@cap.cn', account: 'capadmin', password: 'cap_pass1', confirmPassword: 'cap_pass1' };
      const none = await t2.app.inject({ method: 'POST', url: '/service/user/register', payload });
      expect(none.json().state.code).toBe(500000);
      const wrong = await t2.app.inject({ method: 'POST', url: '/service/user/register', payload: { ...payload, captcha: 'zzzz' } });
      expect(wrong.json().state.code).toBe(500000);
      const answer = 'w3xy';
      const cid = await signCaptcha(t2.db, answer);
      const right = await t2.app.inject({ method: 'POST', url: '/service/user/register', payload: { ...payload, captcha: answer }, cookies: { cw_captcha: cid } });
      expect(right.json().state.code, right.body).toBe(200000);
    } finally {
      await t2.close();
    }
  }, 120_000);
});
