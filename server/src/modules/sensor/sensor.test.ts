import { describe, expect, it } from 'vitest';
import type { TestCtx } from '../../../test/helper.js';
import { call, requester, withTwoCustomers, type Records } from '../shared/records.fixture.js';

let t: TestCtx;
let a: Records;
let b: Records;
withTwoCustomers((c) => ({ t, a, b } = c));
const req = requester(() => t);
let n = 0;
const body = (over: Record<string, unknown> = {}) => ({ devNo: `ALPHAS${++n}`, type: 'zigbee_t', gatewayId: a.gatewayId, ...over });

describe('sensor rules of spec §5 (each passes and fails)', () => {
  const cases: [string, Record<string, unknown>, string | null][] = [
    ['device number of 30 letters and digits', { devNo: 'D'.repeat(30) }, null],
    ['device number of 31', { devNo: 'D'.repeat(31) }, 'devNo'],
    ['device number with a space', { devNo: 'D 1' }, 'devNo'],
    ['collection interval of 10 s', { sampleInterval: 10 }, null],
    ['collection interval below 10 s', { sampleInterval: 9 }, 'sampleInterval'],
    ['collection interval above 65535', { sampleInterval: 65536 }, 'sampleInterval'],
    ['known type', { type: '4g_th_gps' }, null],
    ['unknown type', { type: 'nfc' }, 'type'],
    ['calibration expiry as a date', { calibExpiry: '2027-03-31' }, null],
    ['calibration expiry not a date', { calibExpiry: '31/03/2027' }, 'calibExpiry'],
    ['calibration expiry on a day that does not exist', { calibExpiry: '2027-02-31' }, 'calibExpiry'],
    ['calibration notice in the future', { calibNotice: Date.now() + 86_400_000 }, null],
    ['calibration notice before now', { calibNotice: Date.now() - 3_600_000 }, 'calibNotice'],
    ['time zone UTC-12', { tz: '-12:00' }, null],
    ['time zone beyond UTC+12', { tz: '+13:00' }, 'tz'],
  ];
  it.each(cases)('%s', async (_l, over, field) => {
    const r = await req(a.cookie, 'POST', '/service/sensor/add', body(over));
    if (field === null) expect(r.state.code).toBe(200000);
    else {
      expect(r.status).toBe(400);
      expect(r.result.errors).toHaveProperty(field);
    }
  });

  it('keeps a calibration notice already passed when the sensor is saved unchanged, and shows the fields back', async () => {
    const made = await call(t, a.cookie, 'POST', '/service/sensor/add', body({ calibExpiry: '2027-01-15', calibNotice: Date.now() + 60_000, tz: '+05:30' }));
    const past = Date.now() - 86_400_000;
    await t.db.query('UPDATE sensor SET calib_notice = $2 WHERE id = $1', [made.id, new Date(past)]);
    const cur = await call(t, a.cookie, 'GET', `/service/sensor/detail?id=${made.id}`);
    expect(cur).toMatchObject({ calibExpiry: '2027-01-15', calibNotice: past, tz: '+05:30' });
    const same = await req(a.cookie, 'PUT', '/service/sensor/update', { id: made.id, devNo: cur.devNo, type: cur.type, gatewayId: cur.gatewayId, calibExpiry: cur.calibExpiry, calibNotice: past, tz: cur.tz });
    expect(same.state.code).toBe(200000);
    const moved = await req(a.cookie, 'PUT', '/service/sensor/update', { id: made.id, devNo: cur.devNo, type: cur.type, gatewayId: cur.gatewayId, calibNotice: past - 1000 });
    expect(moved.status).toBe(400);
    expect(moved.result.errors).toHaveProperty('calibNotice');
  });

  it('rejects a device number held anywhere on the platform', async () => {
    const dup = await req(b.cookie, 'POST', '/service/sensor/add', { devNo: a.devNo, type: 'zigbee_t', gatewayId: b.gatewayId });
    expect(dup.state).toEqual({ code: 420, msg: 'The number already exists' });
    const own = await req(a.cookie, 'POST', '/service/sensor/upt', { id: a.sensorId, devNo: b.devNo, type: 'zigbee_th', gatewayId: a.gatewayId });
    expect(own.state.code).toBe(420);
  });

  it('binds only a gateway and carrier of the same customer', async () => {
    expect((await req(a.cookie, 'POST', '/service/sensor/add', body({ gatewayId: b.gatewayId }))).status).toBe(404);
    expect((await req(a.cookie, 'POST', '/service/sensor/add', body({ carrierId: b.carrierId }))).status).toBe(404);
    // A platform user sees both customers: mixing them is refused with a clear message.
    const root = await t.login('admin');
    const mixed = await req(root, 'POST', '/service/sensor/add', body({ gatewayId: a.gatewayId, carrierId: b.carrierId }));
    expect(mixed.state).toEqual({ code: 500000, msg: 'The carrier does not belong to this customer' });
    const same = await req(root, 'POST', '/service/sensor/add', body({ gatewayId: b.gatewayId, carrierId: b.carrierId, type: 'zigbee_th' }));
    expect(same.state.code).toBe(200000);
    expect((await t.db.one('SELECT customer_id FROM sensor WHERE id = $1', [same.result.id]))!.customer_id).toBe(b.customerId);
  });

  it('refuses a thermometer as the only climate sensor of a carrier with a humidity zone', async () => {
    const c = await call(t, a.cookie, 'POST', '/service/carrier/add', { name: 'Humid', type: 5, sceneId: a.sceneId, humMin: 20, humMax: 80 });
    const bad = await req(a.cookie, 'POST', '/service/sensor/add', body({ carrierId: c.id }));
    expect(bad.status).toBe(400);
    expect(bad.result.errors.carrierId).toBe('A thermometer cannot have a humidity range');
    expect(await req(a.cookie, 'POST', '/service/sensor/add', body({ carrierId: c.id, type: 'lora_th' }))).toMatchObject({ state: { code: 200000 } });
    // With a hygrothermograph present a thermometer may join; a door magnet never counts.
    expect((await req(a.cookie, 'POST', '/service/sensor/add', body({ carrierId: c.id }))).state.code).toBe(200000);
    expect((await req(a.cookie, 'POST', '/service/sensor/add', body({ carrierId: c.id, type: 'magnet' }))).state.code).toBe(200000);
  });
});

describe('sensor reads and writes', () => {
  it('pages with filters and lists by type, within scope', async () => {
    const page = await call(t, a.cookie, 'GET', `/service/sensor/page?devNo=${a.devNo}`);
    expect(page.total).toBe(1);
    expect(page.rows[0]).toMatchObject({ devNo: a.devNo, type: 'zigbee_th', gatewaySn: a.gatewaySn, carrierName: 'AlphaFridge', temp: 5, hum: 50, status: 1 });
    expect((await call(t, a.cookie, 'GET', '/service/sensor/page?bound=false')).rows.every((r: any) => r.carrierId === null)).toBe(true);
    const lst = await call(t, a.cookie, 'GET', '/service/sensor/lst/zigbee_th');
    expect(lst.map((s: any) => s.devNo)).toContain(a.devNo);
    expect(JSON.stringify(lst)).not.toContain(b.devNo);
    expect((await req(a.cookie, 'GET', '/service/sensor/lst/nfc')).status).toBe(400);
  });

  it('updates through PUT /update and POST /upt and deletes', async () => {
    await call(t, a.cookie, 'PUT', '/service/sensor/update', { id: a.sensorId, devNo: a.devNo, type: 'zigbee_th', gatewayId: a.gatewayId, carrierId: a.carrierId, description: 'door side' });
    await call(t, a.cookie, 'POST', '/service/sensor/upt', { id: a.sensorId, devNo: a.devNo, type: 'zigbee_th', gatewayId: a.gatewayId, carrierId: a.carrierId, sampleInterval: 120 });
    const d = await call(t, a.cookie, 'GET', `/service/sensor/detail?id=${a.sensorId}`);
    expect(d).toMatchObject({ sampleInterval: 120, description: '' });
    const s = await call(t, a.cookie, 'POST', '/service/sensor/add', body());
    expect(await call(t, a.cookie, 'DELETE', `/service/sensor/del?ids=${s.id}`)).toEqual({ deleted: 1 });
    expect((await req(a.cookie, 'DELETE', `/service/sensor/del?ids=${b.sensorId}`)).status).toBe(404);
  });
});
