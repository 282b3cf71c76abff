import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../../test/helper.js';
import { acceptedEncoding } from './compress.js';

/*
 * JSON answers compressed in one call (compress.ts): the encoding the client asked for, the
 * same JSON once decoded, Vary for caches, nothing for small answers or clients that refuse.
 */
let t: TestCtx;
let cookie: string;
beforeAll(async () => {
  t = await setup();
  cookie = await t.login('alpha');
}, 120_000);
afterAll(() => t?.close());

// The page info: a JSON answer of several KB (menu, functions).
const get = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/service/mine/pageInfo', headers: { cookie, ...headers } });

describe('JSON answers', () => {
  it('come in brotli or gzip, as asked, and decode to the same JSON', async () => {
    const plain = await get({});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const br = await get({ 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    // One buffer, its length known (a stream through @fastify/compress would be chunked).
    expect(br.headers['content-length']).toBe(String(br.rawPayload.length));
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    const gz = await get({ 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
  });

  it('stay plain for a client that refuses every encoding it knows, and when small', async () => {
    expect((await get({ 'accept-encoding': 'br;q=0, gzip;q=0' })).headers['content-encoding']).toBeUndefined();
    expect((await get({ 'accept-encoding': 'identity' })).headers['content-encoding']).toBeUndefined();
    const small = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json().ok).toBe(true);
  });
});

describe('acceptedEncoding', () => {
  it('prefers brotli, honours q=0 and the wildcard', () => {
    expect(acceptedEncoding('gzip, br')).toBe('br');
    expect(acceptedEncoding('gzip;q=1.0, br;q=0')).toBe('gzip');
    expect(acceptedEncoding('*')).toBe('br');
    expect(acceptedEncoding('*;q=0')).toBeUndefined();
    expect(acceptedEncoding('deflate')).toBeUndefined();
    expect(acceptedEncoding(undefined)).toBeUndefined();
  });
});
