import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../../test/helper.js';
import { call, seedRecords, type Records } from '../shared/records.fixture.js';

/** Building the app and seeding two customers through the API can be slow on a busy two-core machine. */
const SETUP_MS = 180_000;
let t: TestCtx;
let a: Records;
beforeAll(async () => {
  t = await setup();
  a = await seedRecords(t, 'alpha', 'Alpha', 'A1');
  await seedRecords(t, 'beta', 'Beta', 'B1');
}, SETUP_MS);
afterAll(() => t.close());

const req = (cookie: string, method: string, url: string, payload?: unknown) =>
  t.app.inject({ method: method as any, url, headers: { cookie, 'accept-language': 'en-US' }, payload: payload as any }).then((r) => ({ status: r.statusCode, ...r.json() }));

describe('organisation tree', () => {
  it('gives a customer user its own customer with scenes and, when asked, carriers as leaves', async () => {
    const tree = await call(t, a.cookie, 'GET', '/service/share/tree?withCarrier=true&all=true');
    expect(tree).toHaveLength(1);
    expect(tree[0]).toMatchObject({ nodeType: 'customer', scope_id: a.customerId, label: 'Alpha Hospital' });
    const scene = tree[0].children[0];
    expect(scene).toMatchObject({ code: a.sceneCode, scene_id: a.sceneId, scope_id: a.customerId, label: 'AlphaWard', nodeType: 'scene', funcType: 0 });
    expect(scene.children[0]).toMatchObject({ nodeType: 'carrier', carrierId: a.carrierId, label: 'AlphaFridge' });
    expect(JSON.stringify(tree)).not.toContain('Beta');
  });

  it('gives a platform user the all_node root with every customer when all=true, localised', async () => {
    const root = await t.login('admin');
    const zh = await call(t, root, 'GET', '/service/treeUtil/tree?all=true');
    expect(zh).toHaveLength(1);
    expect(zh[0]).toMatchObject({ code: 'all_node', label: '全部', nodeType: 'all' });
    const labels = zh[0].children.map((c: any) => c.label);
    expect(labels).toEqual(expect.arrayContaining(['Alpha Hospital', 'Beta Clinic']));
    const en = await req(root, 'GET', '/service/share/tree?all=true');
    expect(en.result[0].label).toBe('All');
    const own = await call(t, root, 'GET', '/service/share/tree');
    expect(own[0].nodeType).toBe('customer');
    expect(own[0].scope_id).toBe(t.tenants.root.customerId);
  });
});

describe('scene CRUD', () => {
  it('generates a unique code, nests children and updates', async () => {
    const x = await call(t, a.cookie, 'POST', '/service/scene/add', { label: 'Floor 1', parentId: a.sceneId, lng: 121.4737, lat: 31.2304 });
    const y = await call(t, a.cookie, 'POST', '/service/scene/add', { label: 'Floor 2', parentId: a.sceneId });
    expect(x.code).toMatch(/^[A-Z0-9]+$/);
    expect(x.code).not.toBe(y.code);
    await call(t, a.cookie, 'PUT', '/service/scene/update', { id: y.id, label: 'Floor 2b', parentId: x.id });
    const d = await call(t, a.cookie, 'GET', `/service/scene/detail?id=${y.id}`);
    expect(d).toMatchObject({ label: 'Floor 2b', parentId: x.id, customerId: a.customerId });
    const log = await t.db.one(`SELECT result FROM sys_log WHERE module = 'scene' AND method = 'update' ORDER BY id DESC LIMIT 1`);
    expect(log!.result).toBe(1);
  });

  it('refuses children under a floor-plan node (spec §4), and turning a parent into a floor plan', async () => {
    const plan = await call(t, a.cookie, 'POST', '/service/scene/add', { label: 'Plan', parentId: a.sceneId, funcType: 1 });
    const bad = await req(a.cookie, 'POST', '/service/scene/add', { label: 'Room', parentId: plan.id });
    expect(bad.state).toEqual({ code: 500000, msg: 'A node with a floor plan cannot have child nodes' });
    const good = await call(t, a.cookie, 'POST', '/service/scene/add', { label: 'Room', parentId: a.sceneId });
    expect(good.id).toBeGreaterThan(0);
    const toPlan = await req(a.cookie, 'PUT', '/service/scene/update', { id: a.sceneId, label: 'AlphaWard', funcType: 1 });
    expect(toPlan.state.code).toBe(500000);
  });

  it('refuses a move under the node itself or its children', async () => {
    const p = await call(t, a.cookie, 'POST', '/service/scene/add', { label: 'P' });
    const c = await call(t, a.cookie, 'POST', '/service/scene/add', { label: 'C', parentId: p.id });
    const bad = await req(a.cookie, 'PUT', '/service/scene/update', { id: p.id, label: 'P', parentId: c.id });
    expect(bad.state.msg).toBe('A node cannot be moved under itself or its own children');
  });

  it('validates coordinates (spec §5): six decimals pass, seven fail', async () => {
    const ok6 = await req(a.cookie, 'POST', '/service/scene/add', { label: 'Geo', lng: 121.123456, lat: 31.123456 });
    expect(ok6.state.code).toBe(200000);
    const bad = await req(a.cookie, 'POST', '/service/scene/add', { label: 'Geo', lng: 121.1234567, lat: 91 });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.result.errors)).toEqual(expect.arrayContaining(['lng', 'lat']));
  });

  it('refuses to delete a scene holding carriers or children, deletes an empty one', async () => {
    const busy = await req(a.cookie, 'DELETE', `/service/scene/del?ids=${a.sceneId}`);
    expect(busy.state).toEqual({ code: 500000, msg: 'The scene still holds carriers or child nodes' });
    const p = await call(t, a.cookie, 'POST', '/service/scene/add', { label: 'Gone' });
    const c = await call(t, a.cookie, 'POST', '/service/scene/add', { label: 'Gone child', parentId: p.id });
    expect((await req(a.cookie, 'DELETE', `/service/scene/del?ids=${p.id}`)).state.code).toBe(500000);
    expect(await call(t, a.cookie, 'DELETE', `/service/scene/del?ids=${p.id},${c.id}`)).toEqual({ deleted: 2 });
    expect((await req(a.cookie, 'GET', `/service/scene/detail?id=${p.id}`)).status).toBe(404);
  });

  it("answers another customer's scene as missing", async () => {
    const beta = await t.login('beta');
    expect((await req(beta, 'GET', `/service/scene/detail?id=${a.sceneId}`)).status).toBe(404);
    expect((await req(beta, 'POST', '/service/scene/add', { label: 'Intruder', parentId: a.sceneId })).status).toBe(404);
  });
});

describe('drag and drop (PUT /service/scene/move)', () => {
  const labels = async (parentCode?: string) => {
    const tree = await call(t, a.cookie, 'GET', '/service/share/tree');
    const find = (nodes: any[]): any => nodes.map((n) => (n.code === parentCode ? n : find(n.children))).find(Boolean);
    return (parentCode ? find(tree) : tree[0]).children.map((n: any) => n.label);
  };

  it('reorders siblings and moves a node under another parent', async () => {
    const x = await call(t, a.cookie, 'POST', '/service/scene/add', { label: 'MoveX' });
    const y = await call(t, a.cookie, 'POST', '/service/scene/add', { label: 'MoveY' });
    await call(t, a.cookie, 'PUT', '/service/scene/move', { id: y.id, parentId: null, index: 0 });
    expect((await labels()).slice(0, 1)).toEqual(['MoveY']);
    await call(t, a.cookie, 'PUT', '/service/scene/move', { id: x.id, parentId: a.sceneId, index: 0 });
    expect((await labels(a.sceneCode))[0]).toBe('MoveX');
    const d = await call(t, a.cookie, 'GET', `/service/scene/detail?id=${x.id}`);
    expect(d.parentId).toBe(a.sceneId);
  });

  it('refuses a move under its own child, under a floor plan, or into another customer', async () => {
    const p = await call(t, a.cookie, 'POST', '/service/scene/add', { label: 'LoopParent' });
    const c = await call(t, a.cookie, 'POST', '/service/scene/add', { label: 'LoopChild', parentId: p.id });
    const loop = await req(a.cookie, 'PUT', '/service/scene/move', { id: p.id, parentId: c.id, index: 0 });
    expect(loop.state.msg).toBe('A node cannot be moved under itself or its own children');
    const plan = await call(t, a.cookie, 'POST', '/service/scene/add', { label: 'Plan', funcType: 1 });
    const under = await req(a.cookie, 'PUT', '/service/scene/move', { id: p.id, parentId: plan.id, index: 0 });
    expect(under.state.msg).toBe('A node with a floor plan cannot have child nodes');
    const beta = await t.login('beta');
    const foreign = await req(beta, 'PUT', '/service/scene/move', { id: p.id, parentId: null, index: 0 });
    expect(foreign.status).toBe(404);
    expect((await call(t, a.cookie, 'GET', `/service/scene/detail?id=${c.id}`)).parentId).toBe(p.id);
  });
});
