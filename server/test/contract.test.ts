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
  doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
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
    // Raw answers: the captcha image, the avatar file and the live event stream.
    expect(without.sort()).toEqual(['GET /service/live/stream', 'GET /service/mine/avatar', 'GET /service/user/captcha']);
    expect(ops.every(({ op }) => typeof op.summary === 'string' && op.summary.length > 0)).toBe(true);
    expect((ops.length - without.length) / ops.length).toBeGreaterThanOrEqual(0.95);
  });

  it('an enveloped 200 schema names state and result', () => {
    const op = doc.paths['/service/carrier/page'].get;
    const schema = op.responses['200'].content['application/json'].schema;
    expect(Object.keys(schema.properties)).toEqual(['state', 'result']);
    expect(schema.properties.result.properties.rows.items.properties).toHaveProperty('sensorCount');
  });
});
