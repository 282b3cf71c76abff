import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, setup, type TestCtx } from '../../../test/helper.js';

/*
 * The exception reasons (/abnormal/abnormalcause): each customer's own list with the seeded
 * defaults, its rules (code, a name, order), who may read and change it, and that a reason in
 * use is disabled, not deleted.
 */

let t: TestCtx;
let alpha: string;
let beta: string;
let root: string;
const en = { 'accept-language': 'en-US' };
const call = (method: string, url: string, cookie: string, payload?: unknown) => t.app.inject({ method: method as any, url, headers: { cookie, ...en }, payload: payload as any });

beforeAll(async () => {
  t = await setup();
  alpha = await t.login('alpha');
  beta = await t.login('beta');
  root = await t.login('admin');
}, 180_000);
afterAll(() => t?.close());

describe('exception reasons', () => {
  it('lists a customer\'s own reasons in order, the defaults seeded in both languages', async () => {
    const r = (await call('GET', '/service/exReason/page?iDisplayLength=100', alpha)).json().result;
    expect(r.total).toBe(10);
    expect(r.rows[0]).toMatchObject({ code: 'door_open', nameZh: '门未关好', nameEn: 'Door left open', sort: 10, enabled: true, builtin: true, inUse: 0, customerName: 'Alpha Hospital' });
    expect(r.rows.map((x: { code: string }) => x.code).at(-1)).toBe('other');
    expect(new Set(r.rows.map((x: { customerId: number }) => x.customerId))).toEqual(new Set([t.tenants.a.customerId]));
    expect((await call('GET', '/service/exReason/page?name=defrost', alpha)).json().result.rows.map((x: { code: string }) => x.code)).toEqual(['defrost']);
    // A platform user sees every customer's, and filters by customer.
    const all = (await call('GET', `/service/exReason/page?customerId=${t.tenants.b.customerId}`, root)).json().result;
    expect(all.total).toBe(10);
    expect(all.rows[0].customerName).toBe('Beta Clinic');
  });

  it('offers the enabled reasons of a customer of the scope; another customer\'s list is a 404', async () => {
    const opts = (await call('GET', '/service/exReason/options', alpha)).json().result;
    expect(opts[0]).toEqual({ id: expect.any(Number), code: 'door_open', nameZh: '门未关好', nameEn: 'Door left open' });
    expect((await call('GET', `/service/exReason/options?customerId=${t.tenants.b.customerId}`, alpha)).statusCode).toBe(404);
    expect((await call('GET', `/service/exReason/options?customerId=${t.tenants.b.customerId}`, root)).json().result).toHaveLength(10);
  });

  it('adds a reason: code letters, digits and _, unique in the customer (420), one name at least, order 0-9999', async () => {
    const ok = await call('POST', '/service/exReason/add', alpha, { code: 'compressor_2', nameEn: 'Compressor 2 tripped', sort: 55 });
    expect(ok.json().state.code).toBe(200000);
    const d = (await call('GET', `/service/exReason/detail?id=${ok.json().result.id}`, alpha)).json().result;
    expect(d).toMatchObject({ code: 'compressor_2', nameZh: '', nameEn: 'Compressor 2 tripped', sort: 55, enabled: true, builtin: false, customerId: t.tenants.a.customerId });
    expect((await call('POST', '/service/exReason/add', alpha, { code: 'compressor_2', nameEn: 'Again' })).json().state).toEqual({ code: 420, msg: 'A reason with this code already exists' });
    // The same code in another customer's list is its own.
    expect((await call('POST', '/service/exReason/add', beta, { code: 'compressor_2', nameZh: '压缩机' })).json().state.code).toBe(200000);
    const bad = async (body: object) => (await call('POST', '/service/exReason/add', alpha, body)).json().result.errors;
    expect(await bad({ code: 'has space', nameEn: 'x' })).toEqual({ code: 'Code: letters, digits and _ only' });
    expect(await bad({ code: 'x'.repeat(21), nameEn: 'x' })).toEqual({ code: 'At most 20 characters' });
    expect(await bad({ code: 'noname' })).toEqual({ nameZh: 'Enter the name in at least one language' });
    expect(await bad({ code: 'order', nameEn: 'x', sort: 10_000 })).toEqual({ sort: 'Order: a whole number from 0 to 9999' });
    expect(await bad({ code: 'long', nameEn: 'x'.repeat(51) })).toEqual({ nameEn: 'At most 50 characters' });
  });

  it('updates a reason of its own customer only; a renamed default keeps its code', async () => {
    const [door] = (await call('GET', '/service/exReason/page?name=door_open', alpha)).json().result.rows;
    const res = await call('PUT', '/service/exReason/update', alpha, { id: door.id, code: 'door_open', nameZh: '冷柜门未关', nameEn: 'Fridge door left open', sort: 5, enabled: true });
    expect(res.json().state.code).toBe(200000);
    expect((await call('GET', `/service/exReason/detail?id=${door.id}`, alpha)).json().result).toMatchObject({ nameEn: 'Fridge door left open', sort: 5, builtin: true });
    expect((await call('PUT', '/service/exReason/update', beta, { id: door.id, code: 'hijack', nameEn: 'x' })).statusCode).toBe(404);
    expect((await call('GET', `/service/exReason/detail?id=${door.id}`, beta)).statusCode).toBe(404);
    const [defrost] = (await call('GET', '/service/exReason/page?name=defrost', alpha)).json().result.rows;
    expect((await call('PUT', '/service/exReason/update', alpha, { id: door.id, code: defrost.code, nameEn: 'x' })).json().state.code).toBe(420);
  });

  it('deletes an unused reason; one in use is refused with a clear message (disable it instead), all or none', async () => {
    const free = (await call('POST', '/service/exReason/add', alpha, { code: 'spare', nameEn: 'Spare' })).json().result.id;
    const [power] = (await call('GET', '/service/exReason/page?name=power_cut', alpha)).json().result.rows;
    const ex = await t.db.one<{ id: number }>(
      `INSERT INTO exception_record (customer_id, type, category, ongoing, start_ts, end_ts) VALUES ($1, 'data', 'temp_high', false, now() - interval '1 hour', now()) RETURNING id`,
      [t.tenants.a.customerId],
    );
    const handled = await call('PUT', '/service/exception/handle', alpha, { ids: [ex!.id], reasonId: power.id, measures: 'Generator started', judgement: 'confirmed', sign: { account: 'alpha', password: PASSWORD } });
    expect(handled.json().state.code).toBe(200000);
    expect((await call('GET', `/service/exReason/detail?id=${power.id}`, alpha)).json().result.inUse).toBe(2);
    const refused = await call('DELETE', `/service/exReason/del?ids=${free},${power.id}`, alpha);
    expect(refused.json().state).toEqual({ code: 500000, msg: 'The reason power_cut is named by 2 exceptions or handling steps and cannot be deleted: disable it instead' });
    expect((await call('GET', `/service/exReason/detail?id=${free}`, alpha)).json().state.code).toBe(200000);
    // Disabled: kept for the records naming it, no longer offered.
    expect((await call('PUT', '/service/exReason/update', alpha, { id: power.id, code: 'power_cut', nameZh: power.nameZh, nameEn: power.nameEn, sort: power.sort, enabled: false })).json().state.code).toBe(200000);
    expect((await call('GET', '/service/exReason/options', alpha)).json().result.map((r: { code: string }) => r.code)).not.toContain('power_cut');
    expect((await call('DELETE', `/service/exReason/del?ids=${free}`, beta)).statusCode).toBe(404);
    expect((await call('DELETE', `/service/exReason/del?ids=${free}`, alpha)).json().result).toEqual({ deleted: 1 });
    const log = await t.db.query<{ method: string; result: number }>(`SELECT method, result FROM sys_log WHERE module = 'exReason' AND method = 'del' ORDER BY id`);
    expect(log.map((r) => r.result)).toEqual([0, 0, 1]);
  });

  it('lets a normal user read the reasons but not change them', async () => {
    await t.addUser(t.tenants.a.customerId, 'reader', 'Operator');
    const reader = await t.login('reader');
    expect((await call('GET', '/service/exReason/options', reader)).json().result.length).toBeGreaterThan(0);
    expect((await call('POST', '/service/exReason/add', reader, { code: 'mine', nameEn: 'Mine' })).json().state.code).toBe(500102);
    const [first] = (await call('GET', '/service/exReason/options', reader)).json().result;
    expect((await call('DELETE', `/service/exReason/del?ids=${first.id}`, reader)).json().state.code).toBe(500102);
  });

  it('a new customer gets the default list', async () => {
    const res = await call('POST', '/service/customer/add', root, { name: 'Gamma Pharmacy', code: 'GAMMA', type: 'customer', orgType: '09', account: 'gamma', password: 'gamma123' });
    expect(res.json().state.code, res.body).toBe(200000);
    const gamma = await t.login('gamma', 'gamma123');
    expect((await call('GET', '/service/exReason/options', gamma)).json().result).toHaveLength(10);
  });
});
