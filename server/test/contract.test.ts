import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from './helper.js';
import { recordRoutes, type Walked } from './routes.js';

/*
 * The response contract (docs/data-layer.md "Contract"): every route of every module is
 * registered through serve() from a RouteDef of packages/contract, so each one has a summary and
 * its answer's schema, and /openapi.json shows both. A route written by hand with app.get() has
 * neither and fails here.
 */

let t: TestCtx;
let walked: Walked[];
let doc: any;

beforeAll(async () => {
  walked = recordRoutes({ skipHead: true });
  t = await setup();
  // The API's documentation is for signed-in callers (platform/auth/guard.ts).
  expect((await t.app.inject({ method: 'GET', url: '/openapi.json' })).statusCode).toBe(401);
  doc = (await t.app.inject({ method: 'GET', url: '/openapi.json', headers: { cookie: await t.login('admin') } })).json();
});
afterAll(() => t.close());

const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));

describe('the response contract', () => {
  it('every registered route has a summary and a tag', () => {
    const open = walked.filter((r) => !(r.schema as any)?.hide);
    const bare = open.filter((r) => !(r.schema as any)?.summary || !(r.schema as any)?.tags?.length).map((r) => `${r.method} ${r.url}`);
    expect(bare).toEqual([]);
    expect(open.length).toBeGreaterThan(90);
  });

  it('every enveloped answer declares its 200 schema; only files and streams do not', () => {
    const ops = operations();
    const without = ops.filter(({ op }) => !op.responses?.['200']?.content).map(({ path, method }) => `${method.toUpperCase()} ${path}`);
    // Raw answers: Prometheus text, the captcha image, the avatar, floor-plan and import-template files, backup files, scene and detail-data exports, PDF reports, and the live event stream.
    expect(without.sort()).toEqual([
      'GET /metrics',
      'GET /service/detailData/export',
      'GET /service/download/record/download',
      'GET /service/gas/importTemplate',
      'GET /service/home/scene/plane/image',
      'GET /service/live/stream',
      'GET /service/magnetism/importTemplate',
      'GET /service/mine/avatar',
      'GET /service/report/download',
      'GET /service/sensor/importTemplate',
      'GET /service/share/backup/file/download',
      'GET /service/share/backup/file/shared/download',
      'GET /service/share/backup/scene',
      'GET /service/user/captcha',
      'GET /service/workOrder/image',
      'POST /service/label/sensor',
      'POST /service/printGroup/print',
      'POST /service/report/carrier',
    ]);
    expect(ops.every(({ op }) => typeof op.summary === 'string' && op.summary.length > 0)).toBe(true);
    // Beyond the import templates (a file by nature, one per import), nearly every answer is enveloped.
    const templates = without.filter((w) => w.endsWith('/importTemplate')).length;
    expect((ops.length - without.length) / (ops.length - templates)).toBeGreaterThanOrEqual(0.95);
  });

  it('an enveloped 200 schema names state and result', () => {
    const op = doc.paths['/service/carrier/page'].get;
    const schema = op.responses['200'].content['application/json'].schema;
    expect(Object.keys(schema.properties)).toEqual(['state', 'result']);
    expect(schema.properties.result.properties.rows.items.properties).toHaveProperty('sensorCount');
  });
});

describe('bad input against the contract', () => {
  const en = { 'accept-language': 'en-US', 'content-type': 'application/json' };

  it('a body field outside the schema answers 400 naming it, and nothing is stored', async () => {
    const cookie = await t.login('alpha');
    const add = await t.app.inject({ method: 'POST', url: '/service/contact/add', headers: { ...en, cookie }, payload: { name: 'Ann', phone: '13800000009', groupName: 'g' } });
    expect(add.json().state.code).toBe(200000);
    const id = add.json().result.id;
    const bad = await t.app.inject({ method: 'PUT', url: '/service/contact/update', headers: { ...en, cookie }, payload: { id, name: 'Changed', phone: '13800000009', groupName: 'g', customerId: 2 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().result.errors).toEqual({ customerId: 'Unknown field' });
    expect(bad.json().state.msg).toBe('Parameter error: customerId Unknown field');
    expect((await t.db.one<{ name: string }>('SELECT name FROM contact WHERE id = $1', [id]))!.name).toBe('Ann');
    const good = await t.app.inject({ method: 'PUT', url: '/service/contact/update', headers: { ...en, cookie }, payload: { id, name: 'Changed', phone: '13800000009', groupName: 'g' } });
    expect(good.json().state.code).toBe(200000);
  });

  it('a query parameter outside the schema answers 400 naming it', async () => {
    const cookie = await t.login('alpha');
    const r = await t.app.inject({ method: 'GET', url: '/service/carrier/page?iDisplayStart=0&iDisplayLength=5&colour=red', headers: { ...en, cookie } });
    expect(r.statusCode).toBe(400);
    expect(r.json().result.errors).toEqual({ colour: 'Unknown field' });
  });

  it('an id in a body beyond PostgreSQL\'s integer answers 400, not 500', async () => {
    const cookie = await t.login('alpha');
    for (const [method, url, payload] of [
      ['PUT', '/service/scene/move', { id: 3_000_000_000, parentId: null, index: 0 }],
      ['PUT', '/service/carrier/alarmSwitch', { ids: [3_000_000_000], alarmOn: false }],
      ['POST', '/service/home/scene/save/plane', { sceneId: 3_000_000_000, positions: [] }],
    ] as const) {
      const r = await t.app.inject({ method, url, headers: { ...en, cookie }, payload });
      expect([r.statusCode, r.json().state.code]).toEqual([400, 400]);
    }
  });

  it('a DELETE that says JSON but sends no body is read as having none', async () => {
    const cookie = await t.login('alpha');
    const add = await t.app.inject({ method: 'POST', url: '/service/contact/add', headers: { ...en, cookie }, payload: { name: 'Bo', phone: '13800000010', groupName: 'g' } });
    const r = await t.app.inject({ method: 'DELETE', url: `/service/contact/del?ids=${add.json().result.id}`, headers: { ...en, cookie } });
    expect(r.json()).toMatchObject({ state: { code: 200000 }, result: { deleted: 1 } });
    const broken = await t.app.inject({ method: 'PUT', url: '/service/contact/update', headers: { ...en, cookie }, payload: '{"id":' });
    expect(broken.statusCode).toBe(400);
  });
});

describe('wrong method', () => {
  it('answers 405 when the path exists with another method, 404 when it does not exist', async () => {
    const cookie = await t.login('alpha');
    const wrong = await t.app.inject({ method: 'PUT', url: '/service/gateway/resetSecret?id=1', headers: { cookie, 'accept-language': 'en-US' } });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.json().state).toEqual({ code: 405, msg: 'Wrong request method' });
    const none = await t.app.inject({ method: 'PUT', url: '/service/gateway/nothing', headers: { cookie, 'accept-language': 'en-US' } });
    expect(none.statusCode).toBe(404);
  });
});

describe('security headers', () => {
  it('every answer carries the CSP, nosniff, frame and referrer policies', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/healthz' });
    const csp = String(r.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['referrer-policy']).toBe('same-origin');
    expect(r.headers['x-frame-options']).toBe('SAMEORIGIN');
    const api = await t.app.inject({ method: 'GET', url: '/service/mine/info' });
    expect(api.headers['x-content-type-options']).toBe('nosniff');
  });

  it('a JSON body over 1 MB is refused with 413; a normal one passes', async () => {
    const cookie = await t.login('alpha');
    const big = await t.app.inject({ method: 'POST', url: '/service/contact/add', headers: { cookie, 'content-type': 'application/json' }, payload: JSON.stringify({ name: 'x'.repeat(1_100_000) }) });
    expect(big.statusCode).toBe(413);
    const small = await t.app.inject({ method: 'POST', url: '/service/contact/add', headers: { cookie }, payload: { name: 'Small', phone: '13800000123', groupName: 'g' } });
    expect(small.json().state.code).toBe(200000);
  });
});

describe('compression', () => {
  it('compresses an API answer over 1 KB for a client that accepts it', async () => {
    const cookie = await t.login('admin');
    const r = await t.app.inject({ method: 'GET', url: '/openapi.json', headers: { cookie, 'accept-encoding': 'br, gzip' } });
    expect(r.headers['content-encoding']).toBe('br');
    const page = await t.app.inject({ method: 'GET', url: '/service/resource/tree', headers: { cookie, 'accept-encoding': 'gzip' } });
    expect(page.headers['content-encoding']).toBe('gzip');
    const plain = await t.app.inject({ method: 'GET', url: '/service/resource/tree', headers: { cookie } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json().state.code).toBe(200000);
  });
});
