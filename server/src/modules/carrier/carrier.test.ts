import { describe, expect, it } from 'vitest';
import type { TestCtx } from '../../../test/helper.js';
import { call, requester, withTwoCustomers, type Records } from '../shared/records.fixture.js';

let t: TestCtx;
let a: Records;
let b: Records;
withTwoCustomers((c) => ({ t, a, b } = c));
const req = requester(() => t);
const body = (over: Record<string, unknown> = {}) => ({ name: 'Cold room', type: 4, sceneId: a.sceneId, ...over });

describe('carrier rules of spec §5 (each passes and fails)', () => {
  const cases: [string, Record<string, unknown>, string | null][] = [
    ['zone min below max', { tempMin: 2, tempMax: 8 }, null],
    ['zone min above max', { tempMin: 9, tempMax: 8 }, 'tempMin'],
    ['zone with both bounds', { humMin: 10, humMax: 90 }, null],
    ['zone with one bound', { humMin: 10 }, 'humMax'],
    ['temperature inside -327.67..327.67', { tempMin: -327.67, tempMax: 327.67 }, null],
    ['temperature outside', { tempMin: -400, tempMax: 8 }, 'tempMin'],
    ['two decimals', { tempMin: 2.25, tempMax: 8 }, null],
    ['three decimals', { tempMin: 2.255, tempMax: 8 }, 'tempMin'],
    ['humidity 0..100', { humMin: 0, humMax: 100 }, null],
    ['humidity above 100', { humMin: 0, humMax: 101 }, 'humMax'],
    ['known type', { type: 7 }, null],
    ['unknown type', { type: 9 }, 'type'],
    ['name of 50', { name: 'n'.repeat(50) }, null],
    ['name of 51', { name: 'n'.repeat(51) }, 'name'],
    ['transport mode', { mode: 'transport' }, null],
    ['unknown mode', { mode: 'flying' }, 'mode'],
    ['known load type', { loadType: 1 }, null],
    ['unknown load type', { loadType: 42 }, 'loadType'],
    ['balanced sample mode', { sampleMode: 'balanced' }, null],
    ['unknown sample mode', { sampleMode: 'median' }, 'sampleMode'],
    ['no trigger', { triggerId: null }, null],
    ['a trigger id that is not one', { triggerId: 'x' }, 'triggerId'],
  ];
  it.each(cases)('%s', async (_label, over, field) => {
    const r = await req(a.cookie, 'POST', '/service/carrier/add', body({ name: `C ${Math.random()}`.slice(0, 20), ...over }));
    if (field === null) expect(r.state.code).toBe(200000);
    else {
      expect(r.status).toBe(400);
      // An array's item error is keyed by its path (contactIds.0): the form maps it to the field.
      expect(Object.keys(r.result.errors).map((k) => k.split('.')[0])).toContain(field);
    }
  });

  it('reads its alarm delay and margins from its trigger, the defaults without one; an update that leaves the trigger out keeps it', async () => {
    const plain = await call(t, a.cookie, 'POST', '/service/carrier/add', body({ name: 'Defaults' }));
    expect(await call(t, a.cookie, 'GET', `/service/carrier/detail?id=${plain.id}`)).toMatchObject({ alarmDelayS: 0, tempMargin: 0.3, humMargin: 2, triggerId: null, channels: ['email'] });
    const trig = await call(t, a.cookie, 'POST', '/service/alarmTrigger/add', { name: 'Delayed', delayS: 300, tempMargin: 0.5, humMargin: 3.25 });
    const set = await call(t, a.cookie, 'POST', '/service/carrier/add', body({ name: 'Delayed', triggerId: trig.id }));
    expect(await call(t, a.cookie, 'GET', `/service/carrier/detail?id=${set.id}`)).toMatchObject({ alarmDelayS: 300, tempMargin: 0.5, humMargin: 3.25, triggerId: trig.id });
    await call(t, a.cookie, 'PUT', '/service/carrier/update', body({ id: set.id, name: 'Delayed' }));
    const page = await call(t, a.cookie, 'GET', '/service/carrier/page?name=Delayed');
    expect(page.rows[0]).toMatchObject({ alarmDelayS: 300, triggerId: trig.id });
    await call(t, a.cookie, 'PUT', '/service/carrier/update', body({ id: set.id, name: 'Delayed', triggerId: null }));
    expect(await call(t, a.cookie, 'GET', `/service/carrier/detail?id=${set.id}`)).toMatchObject({ alarmDelayS: 0, triggerId: null });
  });

  it('rejects a duplicate name within a customer with 418, allows it for another customer', async () => {
    const dup = await req(a.cookie, 'POST', '/service/carrier/add', body({ name: 'AlphaFridge' }));
    expect(dup.state).toEqual({ code: 418, msg: 'The name already exists' });
    const other = await req(b.cookie, 'POST', '/service/carrier/add', body({ name: 'AlphaFridge', sceneId: b.sceneId }));
    expect(other.state.code).toBe(200000);
    await call(t, a.cookie, 'POST', '/service/carrier/add', body({ name: 'Cold room' }));
    const rename = await req(a.cookie, 'PUT', '/service/carrier/update', body({ id: a.carrierId, name: 'Cold room' }));
    expect(rename.state.code).toBe(418);
  });

  it('refuses a humidity zone on a carrier whose sensors are all thermometers', async () => {
    const c = await call(t, a.cookie, 'POST', '/service/carrier/add', body({ name: 'Thermo only', tempMin: 2, tempMax: 8 }));
    await call(t, a.cookie, 'POST', '/service/sensor/add', { devNo: 'ALPHATONLY', type: 'lora_t', gatewayId: a.gatewayId, carrierId: c.id });
    const bad = await req(a.cookie, 'PUT', '/service/carrier/update', body({ id: c.id, name: 'Thermo only', humMin: 30, humMax: 70 }));
    expect(bad.status).toBe(400);
    expect(bad.result.errors.humMin).toBe('A thermometer cannot have a humidity range');
    // The seeded carrier has a hygrothermograph: its humidity zone stays editable.
    const good = await req(a.cookie, 'PUT', '/service/carrier/update', body({ id: a.carrierId, name: 'AlphaFridge', type: 2, tempMin: 2, tempMax: 8, humMin: 35, humMax: 65, contactIds: [a.contactId] }));
    expect(good.state.code).toBe(200000);
  });
});

describe('carrier reads and writes', () => {
  it('pages with filters: type, scene subtree, name, status', async () => {
    const sub = await call(t, a.cookie, 'POST', '/service/scene/add', { label: 'Sub', parentId: a.sceneId });
    await call(t, a.cookie, 'POST', '/service/carrier/add', body({ name: 'Deep van', type: 3, sceneId: sub.id, status: 3 }));
    const page = await call(t, a.cookie, 'GET', `/service/carrier/page?iDisplayStart=0&iDisplayLength=15&sceneId=${a.sceneId}&type=3`);
    expect(page).toMatchObject({ total: 1, iDisplayStart: 0, iDisplayLength: 15 });
    expect(page.rows[0]).toMatchObject({ name: 'Deep van', sceneId: sub.id, status: 3, customerName: 'Alpha Hospital' });
    expect((await call(t, a.cookie, 'GET', '/service/carrier/page?name=deep&status=3')).total).toBe(1);
    expect((await call(t, a.cookie, 'GET', '/service/carrier/page?name=deep&status=1')).total).toBe(0);
    const all = await call(t, a.cookie, 'GET', '/service/carrier/page?iDisplayLength=2');
    expect(all.rows).toHaveLength(2);
    expect(all.total).toBeGreaterThan(2);
    expect(JSON.stringify(all)).not.toContain('Beta');
  });

  it('shows contacts on detail and bound devices with latest values on atomCarrier', async () => {
    const d = await call(t, a.cookie, 'GET', `/service/carrier/detail?id=${a.carrierId}`);
    expect(d).toMatchObject({ id: a.carrierId, tempMin: 2, tempMax: 8, contactIds: [a.contactId] });
    const atom = await call(t, a.cookie, 'GET', `/service/atomCarrier/${a.carrierId}`);
    expect(atom.carrier.name).toBe('AlphaFridge');
    expect(atom.sensors[0]).toMatchObject({ devNo: a.devNo, temp: 5, hum: 50, tempState: 'normal', inRange: true });
    expect(atom.gateways[0]).toMatchObject({ sn: a.gatewaySn });
    expect(atom.gateways[0]).not.toHaveProperty('secret_hash');
  });

  it("refuses contacts and scenes of another customer", async () => {
    const foreignContact = await req(a.cookie, 'POST', '/service/carrier/add', body({ name: 'X1', contactIds: [b.contactId] }));
    expect(foreignContact.status).toBe(404);
    const foreignScene = await req(a.cookie, 'POST', '/service/carrier/add', body({ name: 'X2', sceneId: b.sceneId }));
    expect(foreignScene.status).toBe(404);
  });

  it('refuses to delete a carrier with sensors bound, deletes one without', async () => {
    const busy = await req(a.cookie, 'DELETE', `/service/carrier/del?ids=${a.carrierId}`);
    expect(busy.state).toEqual({ code: 500000, msg: 'The carrier still has devices bound' });
    const c = await call(t, a.cookie, 'POST', '/service/carrier/add', body({ name: 'Spare box' }));
    expect(await call(t, a.cookie, 'DELETE', `/service/carrier/del?ids=${c.id}`)).toEqual({ deleted: 1 });
    const mixed = await req(a.cookie, 'DELETE', `/service/carrier/del?ids=${b.carrierId}`);
    expect(mixed.status).toBe(404);
    const log = await t.db.one(`SELECT count(*)::int AS n FROM sys_log WHERE module = 'carrier' AND method = 'del' AND result = 1`);
    expect(log!.n).toBe(1);
  });
});

describe('the alarm switch and its log (spec §2 /noti/alarmLog)', () => {
  it('keeps every §3 field and says whether anything can raise its alarm: a zone set (hasTrigger)', async () => {
    const trig = await call(t, a.cookie, 'POST', '/service/alarmTrigger/add', { name: 'Full fields', channels: ['email', 'sms'] });
    const c = await call(t, a.cookie, 'POST', '/service/carrier/add', body({ name: 'Full fields', mode: 'transport', loadType: 1, traceable: true, isKpi: false, sampleMode: 'avg', triggerId: trig.id, tempMin: null, tempMax: null }));
    const d = await call(t, a.cookie, 'GET', `/service/carrier/detail?id=${c.id}`);
    // A trigger without a zone: nothing can raise the alarm.
    expect(d).toMatchObject({ mode: 'transport', loadType: 1, traceable: true, isKpi: false, sampleMode: 'avg', channels: ['email', 'sms'], hasTrigger: false });
    // A zone without a trigger: the carrier's contacts are told by e-mail (docs/alarms.md), so not grey.
    expect((await call(t, a.cookie, 'GET', `/service/carrier/detail?id=${a.carrierId}`)).hasTrigger).toBe(true);
  });

  it('switches off and on, logs each change once, and filters the list by the switch', async () => {
    const off = await call(t, a.cookie, 'PUT', '/service/carrier/alarmSwitch', { ids: [a.carrierId], alarmOn: false });
    expect(off).toEqual({ changed: 1 });
    // Already off: nothing changes, nothing is logged.
    expect(await call(t, a.cookie, 'PUT', '/service/carrier/alarmSwitch', { ids: [a.carrierId], alarmOn: false })).toEqual({ changed: 0 });
    expect((await call(t, a.cookie, 'GET', `/service/carrier/page?alarmOn=false`)).rows.map((r: { id: number }) => r.id)).toContain(a.carrierId);
    const log = await call(t, a.cookie, 'GET', `/service/alarmLog/page?carrierId=${a.carrierId}`);
    expect(log.total).toBe(1);
    expect(log.rows[0]).toMatchObject({ carrierName: 'AlphaFridge', alarmOn: false, operator: 'alpha', customerName: 'Alpha Hospital' });
    await call(t, a.cookie, 'PUT', '/service/carrier/alarmSwitch', { ids: [a.carrierId], alarmOn: true });
    const again = await call(t, a.cookie, 'GET', `/service/alarmLog/page?carrierId=${a.carrierId}&alarmOn=true`);
    expect(again.total).toBe(1);
    // Beta sees none of it, and cannot switch Alpha's carrier.
    expect((await call(t, b.cookie, 'GET', '/service/alarmLog/page')).total).toBe(0);
    const foreign = await req(b.cookie, 'PUT', '/service/carrier/alarmSwitch', { ids: [a.carrierId], alarmOn: false });
    expect(foreign.status).toBe(404);
    expect((await call(t, a.cookie, 'GET', `/service/carrier/detail?id=${a.carrierId}`)).alarmOn).toBe(true);
  });

  it('refuses an empty selection, and logs a switch changed through the edit form', async () => {
    const empty = await req(a.cookie, 'PUT', '/service/carrier/alarmSwitch', { ids: [], alarmOn: false });
    expect(empty.status).toBe(400);
    const c = await call(t, a.cookie, 'POST', '/service/carrier/add', body({ name: 'Edited switch' }));
    await call(t, a.cookie, 'PUT', '/service/carrier/update', body({ id: c.id, name: 'Edited switch', alarmOn: false }));
    const log = await call(t, a.cookie, 'GET', `/service/alarmLog/page?carrierName=edited`);
    expect(log.rows).toEqual([expect.objectContaining({ carrierId: c.id, alarmOn: false })]);
  });
});

describe('binding sensors through the carrier form (sensorIds)', () => {
  it('binds exactly the sensors given, unbinds the others, and refuses a foreign sensor', async () => {
    const s2 = await call(t, a.cookie, 'POST', '/service/sensor/add', { devNo: 'ALPHABIND2', type: 'zigbee_th', gatewayId: a.gatewayId });
    const c = await call(t, a.cookie, 'POST', '/service/carrier/add', body({ name: 'Bound by form', sensorIds: [s2.id] }));
    expect((await call(t, a.cookie, 'GET', `/service/sensor/detail?id=${s2.id}`)).carrierId).toBe(c.id);
    const foreign = await req(a.cookie, 'PUT', '/service/carrier/update', body({ id: c.id, name: 'Bound by form', sensorIds: [b.sensorId] }));
    expect(foreign.status).toBe(404);
    expect((await call(t, a.cookie, 'GET', `/service/sensor/detail?id=${s2.id}`)).carrierId).toBe(c.id);
    await call(t, a.cookie, 'PUT', '/service/carrier/update', body({ id: c.id, name: 'Bound by form', sensorIds: [] }));
    expect((await call(t, a.cookie, 'GET', `/service/sensor/detail?id=${s2.id}`)).carrierId).toBeNull();
  });

  it('refuses binding only thermometers to a carrier with a humidity zone, and binds nothing', async () => {
    const th = await call(t, a.cookie, 'POST', '/service/sensor/add', { devNo: 'ALPHATHERMO', type: 'lora_t', gatewayId: a.gatewayId });
    const r = await req(a.cookie, 'POST', '/service/carrier/add', body({ name: 'Hum zone', humMin: 30, humMax: 60, sensorIds: [th.id] }));
    expect(r.status).toBe(400);
    expect((await call(t, a.cookie, 'GET', `/service/sensor/detail?id=${th.id}`)).carrierId).toBeNull();
    expect((await call(t, a.cookie, 'GET', '/service/carrier/page?name=Hum%20zone')).total).toBe(0);
  });
});

describe('operate record of a carrier (its system-log entries)', () => {
  it('lists its add, updates and switches newest first, nothing of other carriers, and 404 for a foreign carrier', async () => {
    const made = await call(t, a.cookie, 'POST', '/service/carrier/add', { name: 'RecordFridge', type: 2, sceneId: a.sceneId, tempMin: 2, tempMax: 8 });
    await call(t, a.cookie, 'PUT', '/service/carrier/update', { id: made.id, name: 'RecordFridge', type: 2, sceneId: a.sceneId, tempMin: 3, tempMax: 8 });
    await call(t, a.cookie, 'PUT', '/service/carrier/alarmSwitch', { ids: [made.id, a.carrierId], alarmOn: false });
    await call(t, a.cookie, 'PUT', '/service/carrier/alarmSwitch', { ids: [a.carrierId], alarmOn: true });
    const rec = await call(t, a.cookie, 'GET', `/service/carrier/operateRecord?id=${made.id}`);
    expect(rec.rows.map((r: { method: string }) => r.method)).toEqual(['alarmSwitch', 'update', 'add']);
    expect(rec.rows[2].params).toMatchObject({ name: 'RecordFridge', id: made.id });
    const beta = await t.login('beta');
    expect((await t.app.inject({ method: 'GET', url: `/service/carrier/operateRecord?id=${made.id}`, headers: { cookie: beta } })).statusCode).toBe(404);
  });
});
