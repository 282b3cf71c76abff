import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../../test/helper.js';

let t: TestCtx;
let alpha: string;
let beta: string;
let root: string;
let operator: string;
const T0 = Date.UTC(2024, 0, 1);
const H = 3600_000;

beforeAll(async () => {
  t = await setup();
  await t.addUser(t.tenants.a.customerId, 'alphaop', 'Operator', 0);
  [alpha, beta, root, operator] = await Promise.all([t.login('alpha'), t.login('beta'), t.login('admin'), t.login('alphaop')]);
  // A known history: ten rows of A an hour apart, two of B, one without a customer (a failed login).
  const { a, b } = t.tenants;
  for (let i = 0; i < 10; i++) {
    await t.db.query(
      `INSERT INTO sys_log(customer_id, user_id, operator, module, method, content, params, result, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [a.customerId, a.userId, i % 2 ? 'alpha' : 'alphaclerk', i < 6 ? 'carrier' : 'sensor', i % 3 ? 'add' : 'del', `change ${i} Fridge${i}`, JSON.stringify({ n: i }), i === 4 ? 0 : 1, new Date(T0 + i * H)],
    );
  }
  for (let i = 0; i < 2; i++) {
    await t.db.query(
      `INSERT INTO sys_log(customer_id, user_id, operator, module, method, content, params, result, created_at) VALUES ($1, $2, 'beta', 'gateway', 'add', 'beta secret', '{}', 1, $3)`,
      [b.customerId, b.userId, new Date(T0 + i * H)],
    );
  }
  await t.db.query(`INSERT INTO sys_log(operator, module, method, content, params, result, created_at) VALUES ('', 'user', 'login', 'login failed: ghost', '{}', 0, $1)`, [new Date(T0)]);
}, 120_000);
afterAll(() => t?.close());

const page = (cookie: string, q: Record<string, string | number> = {}) =>
  t.app
    .inject({ method: 'GET', url: `/service/syslog/page?${new URLSearchParams(Object.entries({ iDisplayLength: 100, endTime: T0 + 24 * H, ...q }).map(([k, v]) => [k, String(v)]))}`, headers: { cookie } })
    .then((r) => r.json());

describe('system log', () => {
  it('pages newest first with the spec fields', async () => {
    const r = (await page(alpha, { iDisplayStart: 0, iDisplayLength: 4 })).result;
    expect(r.total).toBe(10);
    expect(r.iDisplayStart).toBe(0);
    expect(r.iDisplayLength).toBe(4);
    expect(r.rows.map((x: any) => x.content)).toEqual(['change 9 Fridge9', 'change 8 Fridge8', 'change 7 Fridge7', 'change 6 Fridge6']);
    expect(r.rows[0]).toEqual({
      id: expect.any(Number), time: T0 + 9 * H, module: 'sensor', operator: 'alpha', method: 'del', content: 'change 9 Fridge9',
      params: { n: 9 }, result: 1, ip: null, customerId: t.tenants.a.customerId, customerName: 'Alpha Hospital',
    });
    const next = (await page(alpha, { iDisplayStart: 8, iDisplayLength: 4 })).result;
    expect(next.rows.map((x: any) => x.content)).toEqual(['change 1 Fridge1', 'change 0 Fridge0']);
  });

  it('filters by module, operator, method, result, content and time', async () => {
    const contents = async (q: Record<string, string | number>) => (await page(alpha, q)).result.rows.map((x: any) => Number(x.content.split(' ')[1])).sort((x: number, y: number) => x - y);
    expect(await contents({ module: 'sensor' })).toEqual([6, 7, 8, 9]);
    expect(await contents({ operator: 'clerk' })).toEqual([0, 2, 4, 6, 8]);
    expect(await contents({ method: 'del' })).toEqual([0, 3, 6, 9]);
    expect(await contents({ result: 0 })).toEqual([4]);
    expect(await contents({ result: 1, module: 'carrier' })).toEqual([0, 1, 2, 3, 5]);
    expect(await contents({ content: 'fridge7' })).toEqual([7]);
    expect(await contents({ content: '%' })).toEqual([]);
    expect(await contents({ startTime: T0 + 2 * H, endTime: T0 + 4 * H })).toEqual([2, 3, 4]);
    // bad filters are parameter errors
    expect((await page(alpha, { result: 2 })).state.code).toBe(400);
    expect((await page(alpha, { startTime: T0 + H, endTime: T0 })).state.code).toBe(400);
  });

  it('real mutations appear in the log', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/service/contact/add', headers: { cookie: alpha }, payload: { name: 'Logged Nurse', phone: '13800000001', groupName: 'day' } });
    expect(res.json().state.code).toBe(200000);
    const r = (await page(alpha, { module: 'contact', endTime: Date.now() + 60_000 })).result;
    expect(r.rows[0]).toMatchObject({ module: 'contact', method: 'add', operator: 'alpha', result: 1, content: 'add contact Logged Nurse' });
    expect(r.rows[0].params).toMatchObject({ name: 'Logged Nurse' });
    expect(Math.abs(r.rows[0].time - Date.now())).toBeLessThan(10 * 60_000);
  });

  it("is scoped: customer B sees none of A's rows, the platform sees every row", async () => {
    // (the end time of page() leaves out today's login rows)
    const b = (await page(beta)).result;
    expect(b.total).toBe(2);
    expect(JSON.stringify(b)).not.toMatch(/Fridge|Alpha/);
    // naming A's customer changes nothing for B
    expect((await page(beta, { customerId: t.tenants.a.customerId })).result.total).toBe(0);

    const all = (await page(root)).result;
    expect(all.total).toBe(13);
    expect(all.rows.some((x: any) => x.customerId === null && x.customerName === null)).toBe(true);
    expect((await page(root, { customerId: t.tenants.b.customerId })).result.rows.map((x: any) => x.content)).toEqual(['beta secret', 'beta secret']);
  });

  it('lists the module names of the caller\'s rows', async () => {
    const mods = (c: string) => t.app.inject({ method: 'GET', url: '/service/syslog/modules', headers: { cookie: c } }).then((r) => r.json().result);
    // B's own rows: its fixture rows and its login
    expect(await mods(beta)).toEqual(['gateway', 'user']);
    const a = await mods(alpha);
    expect(a).toEqual(expect.arrayContaining(['carrier', 'sensor', 'contact']));
    expect(a).not.toContain('gateway');
    expect(await mods(root)).toEqual(expect.arrayContaining(['carrier', 'gateway', 'user']));
  });

  it('a customer operator (user type 0) has no access: 500102', async () => {
    expect((await page(operator)).state.code).toBe(500102);
    const res = await t.app.inject({ method: 'GET', url: '/service/syslog/modules', headers: { cookie: operator } });
    expect(res.json().state.code).toBe(500102);
    const anonymous = await t.app.inject({ method: 'GET', url: '/service/syslog/page' });
    expect(anonymous.json().state.code).toBe(500100);
  });
});
