import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../../test/helper.js';
import { call, seedRecords, type Records } from '../../modules/shared/records.fixture.js';

/*
 * The scene limit ("associated architecture", docs/permissions.md "Scene limit"): a user limited
 * to a scene (by user_scene or by an active role's role_scene) sees and changes only what hangs
 * under that scene and its descendants; without a limit it sees its whole customer.
 * These are the named cases, with their exact answers; that EVERY route holds the limit is the
 * isolation walk's job (test/isolation.test.ts, the scene-limited user), so a route added later
 * needs no line here to be checked.
 */

let t: TestCtx;
let w: Records; // Alpha's scene "WoneWard" with carrier, gateway, sensor: the limit
let x: Records; // Alpha's scene "XtwoWard": outside the limit
let childSceneId: number;
let childCarrierId: number;
let exW: number;
let exX: number;
let limited: string;
let free: string;
let viaRole: string;

const req = (cookie: string, method: string, url: string, payload?: unknown) =>
  t.app.inject({ method: method as any, url, headers: { cookie }, payload: payload as any }).then((r) => ({ status: r.statusCode, ...r.json() }));
const ids = (rows: { id: number }[]) => rows.map((r) => r.id).sort((p, q) => p - q);
const page = async (cookie: string, module: string) => ids((await call(t, cookie, 'GET', `/service/${module}/page?iDisplayStart=0&iDisplayLength=100`)).rows);
const history = (cookie: string, devNo: string) => req(cookie, 'GET', `/service/share/history?deviceNo=${devNo}&start=${Date.now() - 3_600_000}&end=${Date.now() + 60_000}&maxPoints=100`);

async function addException(r: Records) {
  const e = await t.db.one<{ id: number }>(
    `INSERT INTO exception_record(customer_id, carrier_id, sensor_id, type, category, ongoing, start_ts, end_ts)
     VALUES ($1, $2, $3, 'data', 'temp_high', false, now() - interval '1 hour', now()) RETURNING id`,
    [r.customerId, r.carrierId, r.sensorId],
  );
  await t.db.query(`INSERT INTO notice_log(customer_id, exception_id, type, channel, recipient, content) VALUES ($1, $2, 'alarm', 'email', 'a@b.test', 'x')`, [
    r.customerId,
    e!.id,
  ]);
  return Number(e!.id);
}

/** A second scene of the same customer with its own carrier, gateway, sensor and readings (seedRecords makes one set per customer). */
async function secondScene(first: Records): Promise<Records> {
  const cookie = first.cookie;
  const scene = await call(t, cookie, 'POST', '/service/scene/add', { label: 'XtwoWard' });
  const carrier = await call(t, cookie, 'POST', '/service/carrier/add', { name: 'XtwoFridge', type: 2, sceneId: scene.id, tempMin: 2, tempMax: 8 });
  const gatewaySn = 'B20000000000';
  const gw = await call(t, cookie, 'POST', '/service/gateway/add', { sn: gatewaySn, name: 'XtwoGateway', carrierId: carrier.id });
  const devNo = 'XtwoT1';
  const sensor = await call(t, cookie, 'POST', '/service/sensor/add', { devNo, type: 'zigbee_th', gatewayId: gw.id, carrierId: carrier.id });
  await t.db.query(`INSERT INTO reading(sensor_id, ts, customer_id, temp, hum) VALUES ($1, now(), $2, 5, 50)`, [sensor.id, first.customerId]);
  return {
    cookie, customerId: first.customerId, sceneId: scene.id, sceneCode: '', contactId: first.contactId, carrierId: carrier.id, rangeId: first.rangeId,
    gatewayId: gw.id, gatewaySn, secret: gw.secret, sensorId: sensor.id, devNo,
  };
}

beforeAll(async () => {
  t = await setup();
  w = await seedRecords(t, 'alpha', 'Wone', 'A1');
  x = await secondScene(w);
  childSceneId = (await call(t, w.cookie, 'POST', '/service/scene/add', { label: 'WoneRoom', parentId: w.sceneId })).id;
  childCarrierId = (
    await call(t, w.cookie, 'POST', '/service/carrier/add', { name: 'WoneRoomFridge', type: 2, sceneId: childSceneId, tempMin: 2, tempMax: 8 })
  ).id;
  exW = await addException(w);
  exX = await addException(x);
  const { a } = t.tenants;
  const lim = await t.addUser(a.customerId, 'limited', 'Administrator', 1);
  await t.db.query('INSERT INTO user_scene(user_id, scene_id) VALUES ($1, $2)', [lim, w.sceneId]);
  await t.addUser(a.customerId, 'free', 'Administrator', 1);
  // A role limited to the scene, with the Administrator's functions.
  const role = await t.db.one<{ id: number }>(`INSERT INTO role(customer_id, name, level) VALUES ($1, 'Ward staff', 1) RETURNING id`, [a.customerId]);
  await t.db.query(`INSERT INTO role_func(role_id, func) SELECT $1, f.func FROM role_func f JOIN role r ON r.id = f.role_id WHERE r.customer_id = $2 AND r.name = 'Administrator'`, [
    role!.id,
    a.customerId,
  ]);
  await t.db.query('INSERT INTO role_scene(role_id, scene_id) VALUES ($1, $2)', [role!.id, w.sceneId]);
  await t.addUser(a.customerId, 'viarole', 'Ward staff', 1);
  limited = await t.login('limited');
  free = await t.login('free');
  viaRole = await t.login('viarole');
}, 180_000);
afterAll(() => t?.close());

describe('scene limit', () => {
  it("a user limited to one scene sees only that scene's subtree and its records", async () => {
    expect(await page(limited, 'carrier')).toEqual([w.carrierId, childCarrierId].sort((p, q) => p - q));
    expect(await page(limited, 'sensor')).toEqual([w.sensorId]);
    expect(await page(limited, 'gateway')).toEqual([w.gatewayId]);
    expect(await page(limited, 'exception')).toEqual([exW]);
    const notices = (await call(t, limited, 'GET', '/service/notice/page?iDisplayStart=0&iDisplayLength=100')).rows;
    expect(notices.map((n: { exceptionId: number }) => Number(n.exceptionId))).toEqual([exW]);
    const board = await call(t, limited, 'GET', '/service/dm/monitorList');
    expect(ids(board)).toEqual([w.carrierId, childCarrierId].sort((p, q) => p - q));

    expect((await history(limited, w.devNo)).state.code).toBe(200000);
    expect((await history(limited, x.devNo)).status).toBe(404);

    const tree = JSON.stringify(await call(t, limited, 'GET', '/service/share/tree?withCarrier=true'));
    expect(tree).toContain('WoneWard');
    expect(tree).toContain('WoneRoom');
    expect(tree).toContain('WoneRoomFridge');
    expect(tree).not.toContain('Xtwo');
  });

  it('answers 404 for a record of another scene of the same customer, and changes nothing', async () => {
    for (const url of [
      `/service/carrier/detail?id=${x.carrierId}`,
      `/service/sensor/detail?id=${x.sensorId}`,
      `/service/gateway/detail?id=${x.gatewayId}`,
      `/service/scene/detail?id=${x.sceneId}`,
      `/service/exception/detail?id=${exX}`,
      `/service/dm/mpDetail?carrierId=${x.carrierId}`,
    ]) {
      expect((await req(limited, 'GET', url)).status, url).toBe(404);
    }
    expect((await req(limited, 'GET', `/service/carrier/detail?id=${w.carrierId}`)).state.code).toBe(200000);
    expect((await req(limited, 'DELETE', `/service/carrier/del?ids=${x.carrierId}`)).status).toBe(404);
    expect((await req(limited, 'PUT', `/service/exception/close?ids=${exX}`)).status).toBe(404);
    // Adding a carrier into a scene outside the limit is refused as for a foreign scene.
    const outside = await req(limited, 'POST', '/service/carrier/add', { name: 'Sneaky', type: 2, sceneId: x.sceneId });
    expect(outside.status).toBe(404);
    expect(await t.db.query(`SELECT 1 FROM carrier WHERE name = 'Sneaky'`)).toHaveLength(0);
    // Inside the limit (a descendant scene) it works.
    const inside = await req(limited, 'POST', '/service/carrier/add', { name: 'WoneRoomFreezer', type: 2, sceneId: childSceneId });
    expect(inside.state.code).toBe(200000);
    await call(t, limited, 'DELETE', `/service/carrier/del?ids=${inside.result.id}`);
    // An unbound gateway would fall outside the limit: refused.
    const unbound = await req(limited, 'POST', '/service/gateway/add', { sn: 'C30000000000', name: 'Loose', carrierId: null });
    expect(unbound.state.code).toBe(500102);
  });

  it('the same customer without a limit sees everything', async () => {
    expect(await page(free, 'carrier')).toEqual([w.carrierId, x.carrierId, childCarrierId].sort((p, q) => p - q));
    expect(await page(free, 'sensor')).toEqual([w.sensorId, x.sensorId].sort((p, q) => p - q));
    expect(await page(free, 'exception')).toEqual([exW, exX].sort((p, q) => p - q));
    expect((await req(free, 'GET', `/service/carrier/detail?id=${x.carrierId}`)).state.code).toBe(200000);
    expect((await history(free, x.devNo)).state.code).toBe(200000);
    expect(JSON.stringify(await call(t, free, 'GET', '/service/share/tree'))).toContain('XtwoWard');
  });

  it("a role's associated architecture limits its users the same way, while the role is active", async () => {
    expect(await page(viaRole, 'carrier')).toEqual([w.carrierId, childCarrierId].sort((p, q) => p - q));
    expect(await page(viaRole, 'sensor')).toEqual([w.sensorId]);
    expect(await page(viaRole, 'exception')).toEqual([exW]);
    expect((await req(viaRole, 'GET', `/service/carrier/detail?id=${x.carrierId}`)).status).toBe(404);
    expect((await history(viaRole, x.devNo)).status).toBe(404);
  });

  it('does not deliver live events of carriers outside the limit', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    let text = '';
    const before = t.bus.listenerCount('reading');
    const r = http.get(`${base}/service/live/stream`, { headers: { cookie: limited } });
    r.on('error', () => undefined);
    await new Promise<void>((resolve) => r.on('response', (res) => (res.setEncoding('utf8'), res.on('data', (c) => (text += c)), resolve())));
    for (let i = 0; i < 200 && t.bus.listenerCount('reading') === before; i++) await new Promise((s) => setTimeout(s, 10));
    const customerId = t.tenants.a.customerId;
    t.bus.emit('reading', { customerId, sensorId: x.sensorId, devNo: 'OUTSIDEDEV', carrierId: x.carrierId, ts: 1, temp: 4 });
    t.bus.emit('exception', { customerId, exceptionId: exX, carrierId: x.carrierId, sensorId: x.sensorId, category: 'outside_cat', ongoing: true });
    t.bus.emit('deviceStatus', { customerId, kind: 'gateway', id: x.gatewayId, status: 0 });
    t.bus.emit('reading', { customerId, sensorId: w.sensorId, devNo: 'INSIDEDEV', carrierId: w.carrierId, ts: 2, temp: 5 });
    t.bus.emit('deviceStatus', { customerId, kind: 'sensor', id: w.sensorId, status: 1 });
    for (let i = 0; i < 200 && !text.includes('event: deviceStatus'); i++) await new Promise((s) => setTimeout(s, 10));
    r.destroy();
    expect(text).toContain('INSIDEDEV');
    expect(text).toContain(`"id":${w.sensorId}`);
    expect(text).not.toContain('OUTSIDEDEV');
    expect(text).not.toContain('outside_cat');
    expect(text).not.toContain(`"kind":"gateway"`);
  });
});
