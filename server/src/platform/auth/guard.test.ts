import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, USER_TYPE } from '@coldwatch/contract';
import { listenOnLoopback, setup, type TestCtx } from '../../../test/helper.js';
import { reachableFuncs } from './funcs.js';
import type { GuardedRoute } from './guard.js';
import { get as param } from '../../modules/param/param.repository.js';

/*
 * The guard decides on the route the router matched, whatever form the request target takes.
 * An outside attack reached `PUT /service/param/update` with no session through an
 * absolute-form target and through `/%73ervice/…`: the old guard read the raw `req.url`. Here
 * every registered route is sent over a real socket, anonymously, in each form a router or a
 * proxy might normalise differently; a route that is not public must never run.
 */

let t: TestCtx;
let port: number;
let routes: GuardedRoute[];

beforeAll(async () => {
  t = await setup();
  ({ port } = await listenOnLoopback(t.app));
  const all = t.app.guard.routes;
  // Fastify adds a HEAD beside each GET: the same route, walked once.
  routes = all.filter((r) => r.method !== 'HEAD' || !all.some((g) => g.url === r.url && g.method === 'GET'));
}, 120_000);
afterAll(async () => t?.close());

interface Answer {
  status: number;
  type: string;
  body: string;
}

/** One raw HTTP/1.1 request with the target written exactly as given (no client normalises it). */
function raw(method: string, target: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1');
    const lines = [`${method} ${target} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Connection: close', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    if (body !== undefined) lines.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`);
    // Not end(): a half-closed socket may lose the answer of a route that answers later.
    s.write(`${lines.join('\r\n')}\r\n\r\n${body ?? ''}`);
    const chunks: Buffer[] = [];
    s.on('data', (c) => chunks.push(c));
    s.on('error', reject);
    s.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [head, ...rest] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      const type = /\r\ncontent-type: ([^\r]*)/i.exec(head)?.[1] ?? '';
      resolve({ status, type, body: rest.join('\r\n\r\n') });
    });
  });
}

/** A concrete path for a route: every parameter is 1, a wildcard a plain file name. */
const concrete = (url: string) => url.replace(/:\w+/g, '1').replace(/\*$/, 'x');

/** The forms one path can take on the wire; each must reach the guard as the plain path would. */
function forms(path: string): Record<string, string> {
  const [first, ...rest] = path.slice(1).split('/');
  const tail = rest.length ? `/${rest.join('/')}` : '';
  const hex = (c: string) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
  return {
    origin: path,
    absolute: `http://127.0.0.1:${port}${path}`,
    absoluteUpper: `HTTP://127.0.0.1:${port}${path}`,
    percentFirst: `/${hex(first[0] ?? 'x')}${first.slice(1)}${tail}`,
    percentAll: `/${[...first].map(hex).join('')}${tail}`,
    percentSlash: `/${first}%2f${rest.join('/')}`,
    dotSegment: `/x/..${path}`,
    dotSelf: `/.${path}`,
    doubleLeading: `/${path}`,
    doubleInner: `/${first}/${tail}`,
    mixedCase: `/${first.charAt(0).toUpperCase()}${first.slice(1)}${tail}`,
    trailing: `${path}/`,
    matrix: `${path};x=1`,
    backslash: `/${first}\\${rest.join('\\')}`,
  };
}

const ANSWERS_WITHOUT_RUNNING = new Set([400, 401, 404, 405]);

describe('the guard, walked anonymously over every route in every request form', () => {
  it('has routes to walk, public ones among them', () => {
    expect(routes.length).toBeGreaterThan(150);
    expect(routes.filter((r) => r.public).map((r) => r.url)).toEqual(expect.arrayContaining(['/service/user/login', '/healthz', '/ingest/v1/:sn/:kind']));
    expect(routes.find((r) => r.url === '/service/param/update')?.public).toBe(false);
  });

  it('answers 401 (or no route at all) for every route that is not public, and never runs it', { timeout: 600_000 }, async () => {
    const wrong: string[] = [];
    let refused = 0;
    for (const r of routes.filter((x) => !x.public)) {
      for (const [form, target] of Object.entries(forms(concrete(r.url)))) {
        const hasBody = !['GET', 'HEAD', 'DELETE'].includes(r.method);
        const a = await raw(r.method, target, {}, hasBody ? '{"key":"log_retention_days","value":"1"}' : undefined);
        if (a.status === 401) {
          refused++;
          const code = r.method === 'HEAD' ? Code.SESSION_EXPIRED : JSON.parse(a.body).state.code;
          if (code !== Code.SESSION_EXPIRED) wrong.push(`${r.method} ${target}: 401 ${a.body}`);
        }
        if (!ANSWERS_WITHOUT_RUNNING.has(a.status)) wrong.push(`${r.method} ${r.url} as ${form} (${target}): ${a.status} ${a.type} ${a.body.slice(0, 80)}`);
        if (!a.type) wrong.push(`${r.method} ${target}: ${a.status} without a content type`);
      }
    }
    expect(wrong).toEqual([]);
    // Most forms reach the route (and are refused there): the walk is not just a walk of 404s.
    expect(refused).toBeGreaterThan(routes.filter((x) => !x.public).length * 4);
    expect(String(await param(t.db, 'log_retention_days'))).not.toBe('1');
  });

  it('lets every public route answer for itself, in every form, without a server error', { timeout: 120_000 }, async () => {
    const wrong: string[] = [];
    for (const r of routes.filter((x) => x.public)) {
      for (const [form, target] of Object.entries(forms(concrete(r.url)))) {
        const a = await raw(r.method, target, {}, ['GET', 'HEAD', 'DELETE'].includes(r.method) ? undefined : '{}');
        // /readyz answers 503 by design here: no broker runs in this test.
        if ((a.status >= 500 && !(r.url === '/readyz' && a.status === 503)) || a.status === 0) wrong.push(`${r.method} ${r.url} as ${form}: ${a.status} ${a.body.slice(0, 80)}`);
        if (a.status !== 204 && a.status !== 304 && r.method !== 'HEAD' && !a.type) wrong.push(`${r.method} ${r.url} as ${form}: ${a.status} without a content type`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('refuses a customer administrator, in every form, on every route that needs a function of the platform', { timeout: 600_000 }, async () => {
    const cookie = await t.login('alpha');
    const reach = new Set(reachableFuncs(USER_TYPE.customerAdmin, false));
    const platformOnly = routes.filter((r) => !r.public && r.funcs.some((f) => !reach.has(f)));
    expect(platformOnly.map((r) => `${r.method} ${r.url}`)).toEqual(expect.arrayContaining(['PUT /service/param/update']));
    const wrong: string[] = [];
    for (const r of platformOnly) {
      for (const [form, target] of Object.entries(forms(concrete(r.url)))) {
        const hasBody = !['GET', 'HEAD', 'DELETE'].includes(r.method);
        const a = await raw(r.method, target, { Cookie: cookie }, hasBody ? '{}' : undefined);
        if (ANSWERS_WITHOUT_RUNNING.has(a.status) && a.status !== 401) continue;
        const code = a.status === 200 && a.type.startsWith('application/json') ? JSON.parse(a.body).state?.code : undefined;
        if (code !== Code.NO_PERMISSION) wrong.push(`${r.method} ${r.url} as ${form}: ${a.status} ${a.body.slice(0, 80)}`);
      }
    }
    expect(wrong).toEqual([]);
    // Each refusal leaves its system-log row, with the caller and its address.
    const logged = await t.db.one<{ n: number }>(`SELECT count(*)::int AS n FROM sys_log WHERE operator = 'alpha' AND result = 0 AND content LIKE 'refused PUT /service/param/update%'`);
    expect(logged!.n).toBeGreaterThan(0);
  });
});
