import { describe, expect, it } from 'vitest';
import { MONITOR_FAMILIES } from '@coldwatch/contract';
import type { TestCtx } from '../../../test/helper.js';
import { call, requester, withTwoCustomers, type Records } from '../shared/records.fixture.js';

/** Monitor tasks (spec §3 Monitor task, §2 /arch/task): inherited defaults, a customer's own task, the §5 rules, who may change what. */

let t: TestCtx;
let a: Records;
let b: Records;
withTwoCustomers((c) => ({ t, a, b } = c));
const req = requester(() => t);
const page = (cookie: string, query = '') => call(t, cookie, 'GET', `/service/monitorTask/page?iDisplayLength=100${query}`);
const task = { family: 'zbp', intervalValue: 30, intervalUnit: 'minute', status: 0 };

describe('monitor tasks', () => {
  it("lists every family of the customer, inherited from the platform's defaults, with the devices each watches", async () => {
    const r = await page(a.cookie);
    expect(r.total).toBe(MONITOR_FAMILIES.length);
    expect(r.rows.map((x: { family: string }) => x.family)).toEqual([...MONITOR_FAMILIES]);
    expect(r.rows[0]).toMatchObject({ id: null, customerId: a.customerId, family: 'zbp', intervalValue: 10, intervalUnit: 'minute', status: 1, inherited: true, devices: 1, updatedAt: null });
    expect(r.rows.find((x: { family: string }) => x.family === 'gateway')).toMatchObject({ intervalValue: 5, devices: 1 });
    expect(r.rows.find((x: { family: string }) => x.family === 'lora')).toMatchObject({ devices: 0 });
    expect((await page(a.cookie, '&family=gateway')).rows).toHaveLength(1);
  });

  it('a customer administrator sets its own task, logged; deleting its row gives the family back to the default', async () => {
    const { id } = await call(t, a.cookie, 'PUT', '/service/monitorTask/update', task);
    const zbp = (await page(a.cookie, '&family=zbp')).rows[0];
    expect(zbp).toMatchObject({ id, intervalValue: 30, intervalUnit: 'minute', status: 0, inherited: false, updatedBy: expect.any(String), updatedAt: expect.any(Number) });
    expect((await page(a.cookie, '&status=0')).rows.map((x: { family: string }) => x.family)).toEqual(['zbp']);
    // A second update changes the same row.
    expect((await call(t, a.cookie, 'PUT', '/service/monitorTask/update', { ...task, intervalValue: 2, intervalUnit: 'hour', status: 1 })).id).toBe(id);
    const log = await t.db.query(`SELECT method, content FROM sys_log WHERE module = 'monitorTask' AND customer_id = $1 ORDER BY id`, [a.customerId]);
    expect(log.map((l) => l.method)).toEqual(['update', 'update']);
    expect(log[1].content).toContain('2 hour, running');
    expect(await call(t, a.cookie, 'DELETE', `/service/monitorTask/del?ids=${id}`)).toEqual({ deleted: 1 });
    expect((await page(a.cookie, '&family=zbp')).rows[0]).toMatchObject({ id: null, inherited: true, intervalValue: 10 });
  });

  it.each([
    ['no interval', { intervalValue: 0 }, 'intervalValue', 'The interval is a whole number of minutes, hours or days, at least 1 and at most 30 days in all'],
    ['a fraction', { intervalValue: 1.5 }, 'intervalValue', 'The interval is a whole number of minutes, hours or days, at least 1 and at most 30 days in all'],
    ['over 30 days', { intervalValue: 721, intervalUnit: 'hour' }, 'intervalValue', 'The interval is a whole number of minutes, hours or days, at least 1 and at most 30 days in all'],
    ['an unknown unit', { intervalUnit: 'week' }, 'intervalUnit', 'Choose minutes, hours or days'],
    ['an unknown family', { family: 'nfc' }, 'family', 'Choose a device family from the list'],
    ['a status of neither', { status: 2 }, 'status', 'Choose running or stopped'],
  ])('refuses %s under its field (§5)', async (_what, body, field, msg) => {
    const r = await req(a.cookie, 'PUT', '/service/monitorTask/update', { ...task, ...body });
    expect(r.status).toBe(400);
    expect(r.result.errors).toEqual({ [field]: msg });
  });

  it('30 days exactly is allowed', async () => {
    const { id } = await call(t, a.cookie, 'PUT', '/service/monitorTask/update', { ...task, intervalValue: 30, intervalUnit: 'day' });
    await call(t, a.cookie, 'DELETE', `/service/monitorTask/del?ids=${id}`);
  });

  it("another customer's tasks are neither seen nor changed: 404, and nothing moves", async () => {
    const { id } = await call(t, a.cookie, 'PUT', '/service/monitorTask/update', task);
    const before = await t.db.query('SELECT * FROM monitor_task ORDER BY id');
    expect((await page(b.cookie)).rows.every((x: { customerId: number }) => x.customerId === b.customerId)).toBe(true);
    expect((await page(b.cookie, `&customerId=${a.customerId}`)).rows).toEqual([]);
    expect((await req(b.cookie, 'PUT', '/service/monitorTask/update', { ...task, customerId: a.customerId, intervalValue: 1 })).status).toBe(404);
    expect((await req(b.cookie, 'DELETE', `/service/monitorTask/del?ids=${id}`)).status).toBe(404);
    expect(await t.db.query('SELECT * FROM monitor_task ORDER BY id')).toEqual(before);
    await call(t, a.cookie, 'DELETE', `/service/monitorTask/del?ids=${id}`);
  });

  it('the platform sees every customer and sets any one of them; an operator only views; a scene-limited user may not change customer-wide tasks', async () => {
    const root = await t.login('admin');
    const all = await page(root);
    expect(new Set(all.rows.map((x: { customerId: number }) => x.customerId))).toEqual(new Set([t.tenants.root.customerId, a.customerId, b.customerId]));
    await call(t, root, 'PUT', '/service/monitorTask/update', { ...task, family: 'gateway', customerId: b.customerId });
    expect((await page(b.cookie, '&family=gateway')).rows[0]).toMatchObject({ inherited: false, intervalValue: 30 });

    await t.addUser(a.customerId, 'alphaop');
    const op = await t.login('alphaop');
    expect((await page(op)).total).toBe(MONITOR_FAMILIES.length);
    expect((await req(op, 'PUT', '/service/monitorTask/update', task)).state.code).toBe(500102);

    const limitedId = await t.addUser(a.customerId, 'alphalimited', 'Administrator', 1);
    await t.db.query('INSERT INTO user_scene (user_id, scene_id) VALUES ($1, $2)', [limitedId, a.sceneId]);
    const limited = await t.login('alphalimited');
    expect((await req(limited, 'PUT', '/service/monitorTask/update', task)).state.code).toBe(500102);
    expect(await t.db.query('SELECT 1 FROM monitor_task WHERE customer_id = $1', [a.customerId])).toEqual([]);
  });
});
