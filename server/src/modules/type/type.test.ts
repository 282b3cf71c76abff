import { describe, expect, it } from 'vitest';
import type { TestCtx } from '../../../test/helper.js';
import { call, requester, withTwoCustomers, type Records } from '../shared/records.fixture.js';

let t: TestCtx;
let a: Records;
let b: Records;
withTwoCustomers((c) => ({ t, a, b } = c));
const req = requester(() => t);

describe('the device-type and carrier-type catalogues (spec §3, §7 share/getDeviceType, getCarrierType)', () => {
  it('every signed-in user reads them: each type with what it reports, offered, and the caller\'s own count', async () => {
    const all = await call(t, a.cookie, 'GET', '/service/share/getDeviceType');
    const kinds = new Set(all.map((d: { kind: string }) => d.kind));
    expect([...kinds].sort()).toEqual(['base', 'display', 'gas', 'gateway', 'magnet', 'relay', 'sensor']);
    expect(all.find((d: { code: string }) => d.code === 'zigbee_th')).toMatchObject({ kind: 'sensor', readings: ['temp', 'hum', 'volt', 'rssi', 'lqi'], enabled: true, inUse: 1 });
    expect(all.find((d: { code: string }) => d.code === 'lora_t').readings).toEqual(['temp', 'volt', 'rssi']);
    expect(all.filter((d: { kind: string }) => d.kind === 'gas').map((d: { code: string }) => d.code)).toEqual(['0x00', '0x01', '0x04', '0x0A', '0x32', 'co2']);
    const gateways = await call(t, b.cookie, 'GET', '/service/share/getDeviceType/gateway');
    expect(gateways.map((d: { code: string; inUse: number }) => [d.code, d.inUse])).toEqual([['gw1', 0], ['gw1_gps', 0], ['gw2', 1]]);
    const bad = await req(a.cookie, 'GET', '/service/share/getDeviceType/toaster');
    expect(bad.status).toBe(400);
    const carriers = await call(t, a.cookie, 'GET', '/service/share/getCarrierType');
    expect(carriers.map((c: { type: number; key: string; inUse: number }) => [c.type, c.key, c.inUse])).toEqual([
      [1, 'incubator', 0], [2, 'refrigerator', 1], [3, 'vehicle', 0], [4, 'refrigeratory', 0], [5, 'warehouse', 0], [6, 'store', 0], [7, 'other', 0],
    ]);
  });

  it('a scene-limited user counts only the devices and carriers within its scenes', async () => {
    const empty = (await t.db.one<{ id: number }>(`INSERT INTO scene (customer_id, code, label) VALUES ($1, 'a-empty', 'Empty ward') RETURNING id`, [a.customerId]))!.id;
    const limitedId = await t.addUser(a.customerId, 'alphatypes', 'Operator');
    await t.db.query('INSERT INTO user_scene (user_id, customer_id, scene_id) VALUES ($1, $2, $3)', [limitedId, a.customerId, empty]);
    const limited = await t.login('alphatypes');
    const inUse = async (cookie: string) => {
      const devices = await call(t, cookie, 'GET', '/service/share/getDeviceType');
      const carriers = await call(t, cookie, 'GET', '/service/share/getCarrierType');
      const find = (rows: { code?: string; key?: string; inUse: number }[], k: string) => rows.find((r) => r.code === k || r.key === k)!.inUse;
      return [find(devices, 'zigbee_th'), find(devices, 'gw2'), find(carriers, 'refrigerator')];
    };
    expect(await inUse(a.cookie)).toEqual([1, 1, 1]);
    expect(await inUse(limited)).toEqual([0, 0, 0]);
    await t.db.query('INSERT INTO user_scene (user_id, customer_id, scene_id) VALUES ($1, $2, $3)', [limitedId, a.customerId, a.sceneId]);
    expect(await inUse(limited)).toEqual([1, 1, 1]);
  });

  it('only the platform manages them: a customer administrator gets 500102 and nothing changes', async () => {
    expect((await req(a.cookie, 'PUT', '/service/deviceType/update', { kind: 'sensor', code: 'zigbee_t', enabled: false })).state.code).toBe(500102);
    expect((await req(a.cookie, 'PUT', '/service/carrierType/update', { type: 3, enabled: false })).state.code).toBe(500102);
    expect((await call(t, a.cookie, 'GET', '/service/share/getDeviceType/sensor')).every((d: { enabled: boolean }) => d.enabled)).toBe(true);
  });

  it('a switched-off type is refused for new devices and carriers and for a change of type; what exists keeps it', async () => {
    const root = await t.login('admin');
    await call(t, root, 'PUT', '/service/deviceType/update', { kind: 'sensor', code: 'zigbee_th', enabled: false, remark: 'Discontinued by the vendor' });
    await call(t, root, 'PUT', '/service/deviceType/update', { kind: 'gateway', code: 'gw2', enabled: false });
    await call(t, root, 'PUT', '/service/carrierType/update', { type: 3, enabled: false });
    expect((await call(t, a.cookie, 'GET', '/service/share/getDeviceType/sensor')).find((d: { code: string }) => d.code === 'zigbee_th')).toMatchObject({ enabled: false, remark: 'Discontinued by the vendor' });
    try {
      const refused = await req(a.cookie, 'POST', '/service/sensor/add', { devNo: 'A1NEW1', type: 'zigbee_th', gatewayId: a.gatewayId });
      expect(refused.status).toBe(400);
      expect(refused.state.msg).toBe('This type is switched off in the type catalogue and cannot be chosen for a new device or carrier');
      expect(refused.result.errors).toEqual({ type: 'This type is switched off in the type catalogue and cannot be chosen for a new device or carrier' });
      // Passing example: an offered type.
      expect((await req(a.cookie, 'POST', '/service/sensor/add', { devNo: 'A1NEW2', type: 'zigbee_t', gatewayId: a.gatewayId })).state.code).toBe(200000);
      // The existing zigbee_th sensor is edited without changing its type.
      const s = await call(t, a.cookie, 'GET', `/service/sensor/detail?id=${a.sensorId}`);
      expect((await req(a.cookie, 'PUT', '/service/sensor/update', { id: a.sensorId, devNo: s.devNo, type: 'zigbee_th', gatewayId: a.gatewayId, carrierId: a.carrierId, description: 'kept' })).state.code).toBe(200000);
      expect((await req(a.cookie, 'POST', '/service/gateway/add', { sn: 'A10000000F01', name: 'New', type: 'gw2' })).status).toBe(400);
      expect((await req(a.cookie, 'POST', '/service/carrier/add', { name: 'Van', type: 3, sceneId: a.sceneId })).status).toBe(400);
      expect((await req(a.cookie, 'POST', '/service/carrier/add', { name: 'Store room', type: 6, sceneId: a.sceneId })).state.code).toBe(200000);
      // The log says who switched what.
      const log = await call(t, root, 'GET', '/service/syslog/page?iDisplayStart=0&iDisplayLength=5&module=type');
      expect(log.rows.map((r: { content: string }) => r.content)).toEqual(expect.arrayContaining(['switch off device type sensor zigbee_th', 'switch off carrier type 3']));
    } finally {
      await call(t, root, 'PUT', '/service/deviceType/update', { kind: 'sensor', code: 'zigbee_th', enabled: true });
      await call(t, root, 'PUT', '/service/deviceType/update', { kind: 'gateway', code: 'gw2', enabled: true });
      await call(t, root, 'PUT', '/service/carrierType/update', { type: 3, enabled: true });
    }
    expect((await req(a.cookie, 'POST', '/service/sensor/add', { devNo: 'A1NEW3', type: 'zigbee_th', gatewayId: a.gatewayId })).state.code).toBe(200000);
  });

  it('refuses an unknown type (404) and a bad body (400)', async () => {
    const root = await t.login('admin');
    expect((await req(root, 'PUT', '/service/deviceType/update', { kind: 'sensor', code: 'toaster', enabled: false })).status).toBe(404);
    expect((await req(root, 'PUT', '/service/deviceType/update', { kind: 'fridge', code: 'x', enabled: false })).result.errors).toHaveProperty('kind');
    expect((await req(root, 'PUT', '/service/carrierType/update', { type: 9, enabled: false })).result.errors).toHaveProperty('type');
    expect((await req(root, 'PUT', '/service/carrierType/update', { type: 2, enabled: false, remark: 'x'.repeat(251) })).result.errors).toHaveProperty('remark');
  });
});
