import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../../test/helper.js';

let t: TestCtx;
let alpha: string;
let beta: string;
let operator: string;

beforeAll(async () => {
  t = await setup();
  await t.addUser(t.tenants.a.customerId, 'alphaop', 'Operator', 0);
  [alpha, beta, operator] = await Promise.all([t.login('alpha'), t.login('beta'), t.login('alphaop')]);
}, 120_000);
afterAll(() => t?.close());

const get = (cookie: string, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } }).then((r) => r.json());
const save = (cookie: string, ids: unknown[]) =>
  t.app.inject({ method: 'POST', url: '/service/mine/addShortcut', headers: { cookie }, payload: { ids } }).then((r) => ({ status: r.statusCode, body: r.json() }));

interface Node { id: number; code: string; url: string; check: boolean; children: Node[] }
const flat = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flat(n.children)]);
const leafOf = async (cookie: string, code: string) => {
  const n = flat((await get(cookie, '/service/mine/shortcutMenu')).result).find((x) => x.code === code);
  return n;
};
const idOf = async (code: string) => (await t.db.one<{ id: number }>('SELECT id FROM menu_resource WHERE code = $1', [code]))!.id;

describe('shortcuts', () => {
  it('needs a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/service/mine/shortcut' });
    expect(res.json().state.code).toBe(500100);
  });

  it('the pick tree is the caller\'s visible menu, sections with their entries, nothing hidden', async () => {
    const tree: Node[] = (await get(alpha, '/service/mine/shortcutMenu')).result;
    const codes = flat(tree).map((n) => n.code);
    expect(codes).toEqual(expect.arrayContaining(['databoard', 'deviceMonitor', 'sensor', 'workOrder', 'user', 'sysLog']));
    // hidden entries, root-only and system-scope entries are not offered to a customer administrator
    for (const c of ['home', 'contact', 'resource', 'customer', 'param']) expect(codes).not.toContain(c);
    expect(flat(tree).every((n) => n.check === false)).toBe(true);
    // a customer operator does not see the account section (access level 1)
    const opCodes = flat((await get(operator, '/service/mine/shortcutMenu')).result).map((n: Node) => n.code);
    expect(opCodes).toContain('sensor');
    expect(opCodes).not.toContain('user');
    expect(opCodes).not.toContain('sysLog');
  });

  it('saves the list in the order given and marks the chosen entries', async () => {
    const ids = [await idOf('sensor'), await idOf('deviceMonitor'), await idOf('workOrder')];
    const r = await save(alpha, ids);
    expect(r.body.state.code).toBe(200000);
    const list = (await get(alpha, '/service/mine/shortcut')).result;
    expect(list.map((x: any) => x.id)).toEqual(ids);
    expect(list.map((x: any) => x.code)).toEqual(['sensor', 'deviceMonitor', 'workOrder']);
    expect(list[0]).toEqual({ id: ids[0], code: 'sensor', name: 'sensor', url: '/device/sensor', icon: '' });
    expect((await leafOf(alpha, 'sensor'))!.check).toBe(true);
    expect((await leafOf(alpha, 'gateway'))!.check).toBe(false);

    // reordering and removing: the new list replaces the old one
    const reordered = [ids[2], ids[0]];
    expect((await save(alpha, reordered)).body.state.code).toBe(200000);
    expect((await get(alpha, '/service/mine/shortcut')).result.map((x: any) => x.id)).toEqual(reordered);
    expect((await leafOf(alpha, 'deviceMonitor'))!.check).toBe(false);

    // every user has its own list
    expect((await get(beta, '/service/mine/shortcut')).result).toEqual([]);
  });

  it('writes a system-log row', async () => {
    const row = await t.db.one<any>(`SELECT * FROM sys_log WHERE module = 'shortcut' ORDER BY id DESC LIMIT 1`);
    expect(row).toMatchObject({ method: 'addShortcut', operator: 'alpha', result: 1, customer_id: t.tenants.a.customerId });
  });

  it('rejects duplicates, too many entries and entries outside the caller\'s menu, and keeps the old list', async () => {
    const before = (await get(alpha, '/service/mine/shortcut')).result;
    const sensor = await idOf('sensor');
    const dup = await save(alpha, [sensor, sensor]);
    expect(dup.status).toBe(400);
    expect(dup.body.result.errors.ids).toBeTruthy();

    const leaves = flat((await get(alpha, '/service/mine/shortcutMenu')).result).filter((n: Node) => !n.children.length).map((n: Node) => n.id);
    expect(leaves.length).toBeGreaterThan(12);
    expect((await save(alpha, leaves.slice(0, 13))).status).toBe(400);
    expect((await save(alpha, leaves.slice(0, 12))).body.state.code).toBe(200000);
    expect((await save(alpha, before.map((x: any) => x.id))).body.state.code).toBe(200000);

    // root-only, system-scope, hidden, section and unknown entries
    for (const code of ['resource', 'customer', 'contact', 'databoard']) {
      const r = await save(alpha, [sensor, await idOf(code)]);
      expect(r.status, code).toBe(400);
      expect(r.body.result.errors.ids).toBeTruthy();
    }
    expect((await save(alpha, [999_999])).status).toBe(400);
    // an operator cannot pin an entry of the account section it does not see
    expect((await save(operator, [await idOf('user')])).status).toBe(400);
    expect((await get(alpha, '/service/mine/shortcut')).result).toEqual(before);
    expect((await t.db.one<any>(`SELECT result FROM sys_log WHERE module = 'shortcut' ORDER BY id DESC LIMIT 1`))!.result).toBe(0);
  });

  it('an entry the caller no longer sees drops out of its list', async () => {
    const [userEntry, sensor] = [await idOf('user'), await idOf('sensor')];
    await t.addUser(t.tenants.a.customerId, 'alphaadm2', 'Administrator', 1);
    const c = await t.login('alphaadm2');
    expect((await save(c, [userEntry, sensor])).body.state.code).toBe(200000);
    await t.db.query(`UPDATE app_user SET user_type = 0 WHERE account = 'alphaadm2'`);
    expect((await get(c, '/service/mine/shortcut')).result.map((x: any) => x.code)).toEqual(['sensor']);
  });

  it('an empty list removes every shortcut', async () => {
    expect((await save(alpha, [])).body.state.code).toBe(200000);
    expect((await get(alpha, '/service/mine/shortcut')).result).toEqual([]);
  });
});
