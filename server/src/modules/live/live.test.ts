import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback, setup, type TestCtx } from '../../../test/helper.js';

/** Building the app and seeding two customers through the API can be slow on a busy two-core machine. */
const SETUP_MS = 180_000;
let t: TestCtx;
let base: string;
beforeAll(async () => {
  t = await setup();
  base = (await listenOnLoopback(t.app)).url;
}, SETUP_MS);
afterAll(() => t.close());

/** Opens the stream and collects its text until stop() is called. */
function open(cookie: string, query = '') {
  let text = '';
  let res: http.IncomingMessage | undefined;
  const req = http.get(`${base}/service/live/stream${query}`, { headers: { cookie } });
  const ready = new Promise<http.IncomingMessage>((resolve) =>
    req.on('response', (r) => {
      res = r;
      r.setEncoding('utf8');
      r.on('data', (c) => (text += c));
      r.once('data', () => resolve(r));
    }),
  );
  req.on('error', () => undefined);
  const waitFor = async (needle: string) => {
    for (let i = 0; i < 200 && !text.includes(needle); i++) await new Promise((r) => setTimeout(r, 10));
    return text;
  };
  return { ready, text: () => text, waitFor, stop: () => req.destroy(), status: () => res?.statusCode };
}

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('live stream', () => {
  it("forwards only the caller's customers' events, and drops its listeners on disconnect", async () => {
    const base0 = t.bus.listenerCount('reading');
    const baseEx = t.bus.listenerCount('exception');
    const baseStatus = t.bus.listenerCount('deviceStatus');
    const alpha = open(await t.login('alpha'));
    const beta = open(await t.login('beta'));
    const r = await alpha.ready;
    await beta.ready;
    expect(r.headers['content-type']).toContain('text/event-stream');
    await until(() => t.bus.listenerCount('reading') === base0 + 2);

    const { a, b } = t.tenants;
    t.bus.emit('reading', { customerId: b.customerId, sensorId: 2, devNo: 'BETAONLY', carrierId: null, ts: 2, temp: 7 });
    t.bus.emit('reading', { customerId: a.customerId, sensorId: 1, devNo: 'ALPHAONE', carrierId: null, ts: 1, temp: 4.5 });
    t.bus.emit('exception', { customerId: a.customerId, exceptionId: 9, carrierId: null, sensorId: 1, category: 'temp_high', ongoing: true });
    t.bus.emit('deviceStatus', { customerId: b.customerId, kind: 'gateway', id: 3, status: 0 });

    const aText = await alpha.waitFor('event: exception');
    const bText = await beta.waitFor('event: deviceStatus');
    expect(aText).toContain('event: reading\ndata: {"customerId":' + a.customerId);
    expect(aText).toContain('ALPHAONE');
    expect(aText).not.toContain('BETAONLY');
    expect(aText).not.toContain('deviceStatus');
    expect(bText).toContain('BETAONLY');
    expect(bText).not.toContain('ALPHAONE');
    expect(bText).not.toContain('temp_high');

    alpha.stop();
    beta.stop();
    await until(() => t.bus.listenerCount('reading') === base0);
    expect(t.bus.listenerCount('reading')).toBe(base0);
    expect(t.bus.listenerCount('exception')).toBe(baseEx);
    expect(t.bus.listenerCount('deviceStatus')).toBe(baseStatus);
  });

  it('sends readings and sensor status of the watched sensors only, exceptions and gateway status of all', async () => {
    const { a } = t.tenants;
    const watching = open(await t.login('alpha'), '?sensors=11,12');
    await watching.ready;
    t.bus.emit('reading', { customerId: a.customerId, sensorId: 13, devNo: 'UNWATCHED', carrierId: null, ts: 1, temp: 4 });
    t.bus.emit('deviceStatus', { customerId: a.customerId, kind: 'sensor', id: 13, status: 0 });
    t.bus.emit('reading', { customerId: a.customerId, sensorId: 12, devNo: 'WATCHED', carrierId: null, ts: 1, temp: 4 });
    t.bus.emit('deviceStatus', { customerId: a.customerId, kind: 'sensor', id: 11, status: 0 });
    t.bus.emit('deviceStatus', { customerId: a.customerId, kind: 'gateway', id: 13, status: 0 });
    t.bus.emit('exception', { customerId: a.customerId, exceptionId: 10, carrierId: null, sensorId: 13, category: 'temp_low', ongoing: true });
    const text = await watching.waitFor('temp_low');
    watching.stop();
    expect(text).toContain('WATCHED');
    expect(text).not.toContain('UNWATCHED');
    expect(text).toContain('"kind":"sensor","id":11');
    expect(text).not.toContain('"kind":"sensor","id":13');
    expect(text).toContain('"kind":"gateway","id":13');
    expect(text).toContain('temp_low');
  });

  it('refuses a watch list that is not sensor ids', async () => {
    const bad = await t.app.inject({ method: 'GET', url: '/service/live/stream?sensors=1,x', headers: { cookie: await t.login('alpha') } });
    expect(bad.json().state.code).not.toBe(200000);
    expect(bad.statusCode).not.toBe(200);
  });

  it('needs a session', async () => {
    const anon = await t.app.inject({ method: 'GET', url: '/service/live/stream' });
    expect(anon.json().state.code).toBe(500100);
  });
});

describe('shutdown', () => {
  it('ends open streams when the server closes, so closing does not wait for clients', async () => {
    const c = await setup();
    await c.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(c.app.server.address() as AddressInfo).port}/service/live/stream`;
    const cookie = await c.login('alpha');
    const ended = new Promise<void>((resolve) => {
      http.get(url, { headers: { cookie } }, (res) => {
        res.resume();
        res.on('end', () => resolve());
      });
    });
    await until(() => c.bus.listenerCount('reading') > 0);
    await c.app.close();
    await ended;
    expect(c.bus.listenerCount('reading')).toBe(0);
    await c.close();
  }, SETUP_MS);
});
