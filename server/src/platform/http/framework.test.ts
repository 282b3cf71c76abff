import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@coldwatch/contract';
import { listenOnLoopback, setup, type TestCtx } from '../../../test/helper.js';

/*
 * Fastify's own refusals, made before any route or hook runs (a path parameter longer than the
 * router takes, a broken escape), answer in the envelope and the caller's language like the rest
 * instead of Fastify's bare 414 and 400.
 */

let t: TestCtx;
let base: string;
beforeAll(async () => {
  t = await setup();
  base = (await listenOnLoopback(t.app)).url;
});
afterAll(() => t.close());

describe('framework errors', () => {
  it("a path parameter past the router's length is no resource: 404 in the envelope", async () => {
    const cookie = await t.login('admin');
    const r = await fetch(`${base}/service/gateway/${'z'.repeat(5000)}`, { headers: { cookie, 'accept-language': 'en-US' } });
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toContain('application/json');
    expect(await r.json()).toEqual({ state: { code: Code.NOT_FOUND, msg: 'Resource not found' }, result: null });
  });

  it('a broken escape in the path is a parameter error: 400 in the envelope', async () => {
    const r = await fetch(`${base}/service/gateway/%E0%A4%A`, { headers: { 'accept-language': 'en-US' } });
    expect(r.status).toBe(400);
    expect((await r.json()).state.code).toBe(Code.PARAM_ERROR);
  });
});
