import { describe, expect, it } from 'vitest';
import type { TestCtx } from '../../../test/helper.js';
import { call, requester, withTwoCustomers, type Records } from '../shared/records.fixture.js';

/** Display screens (spec §3 Display; §8 "display (terminal) already exists"). */

let t: TestCtx;
let a: Records;
let b: Records;
withTwoCustomers((c) => ({ t, a, b } = c));
const req = requester(() => t);
const add = (body: Record<string, unknown>) => req(a.cookie, 'POST', '/service/display/add', { devNo: 'D0000001', name: 'Ward screen', gatewayId: a.gatewayId, ...body });

describe('display screens', () => {
  it('refuses bad settings with their field, a taken number with the spec\'s message, another customer\'s gateway or carrier', async () => {
    expect((await add({ alarmDuration: 0 })).result.errors).toEqual({ alarmDuration: 'The alarm duration is a whole number of seconds from 1 to 3600' });
    expect((await add({ heartbeatInterval: 5 })).result.errors).toEqual({ heartbeatInterval: 'The heartbeat interval is a whole number of seconds from 10 to 86400' });
    expect((await add({ alarmDuration: 120, alarmInterval: 60 })).result.errors).toEqual({ alarmInterval: 'The alarm interval may not be shorter than the alarm duration' });
    const taken = await add({ devNo: a.devNo });
    expect(taken.state).toEqual({ code: 420, msg: 'The display (terminal) already exists' });
    expect((await add({ gatewayId: b.gatewayId })).status).toBe(404);
    expect((await add({ carrierId: b.carrierId })).status).toBe(404);
    expect((await call(t, a.cookie, 'GET', '/service/display/page?iDisplayStart=0&iDisplayLength=10')).total).toBe(0);
  });

  it('enrols, lists, changes, stops and deletes a display; its number is then taken for sensors too', async () => {
    const { id } = (await add({ carrierId: a.carrierId, alarmDuration: 30, alarmInterval: 600 })).result;
    expect(await call(t, a.cookie, 'GET', `/service/display/detail?id=${id}`)).toMatchObject({
      devNo: 'D0000001', name: 'Ward screen', type: 'display1', carrierName: 'AlphaFridge', alarmOn: true, alarmDuration: 30, alarmInterval: 600, heartbeatInterval: 60, status: 0,
    });
    expect((await req(b.cookie, 'POST', '/service/sensor/add', { devNo: 'D0000001', type: 'zigbee_th', gatewayId: b.gatewayId })).state.code).toBe(420);
    expect((await req(b.cookie, 'GET', `/service/display/detail?id=${id}`)).status).toBe(404);
    await call(t, a.cookie, 'PUT', '/service/display/update', { id, devNo: 'D0000001', name: 'Ward screen', nickname: 'Nurses', gatewayId: a.gatewayId, alarmOn: false });
    expect((await call(t, a.cookie, 'GET', '/service/display/page?iDisplayStart=0&iDisplayLength=10&name=Nurses')).rows).toEqual([expect.objectContaining({ id, alarmOn: false, carrierId: null })]);
    expect((await call(t, a.cookie, 'PUT', '/service/display/status', { ids: [id], stopped: true })).changed).toBe(1);
    expect((await call(t, a.cookie, 'GET', '/service/display/page?iDisplayStart=0&iDisplayLength=10&status=2')).total).toBe(1);
    expect((await req(a.cookie, 'DELETE', `/service/gateway/del?ids=${a.gatewayId}`)).state.code).not.toBe(200000);
    expect((await call(t, a.cookie, 'DELETE', `/service/display/del?ids=${id}`)).deleted).toBe(1);
  });

  it('a switched-off type: a display that has it keeps it on a change, one that chooses it anew is refused (400 on type)', async () => {
    const root = await t.login('admin');
    const kept = (await add({ devNo: 'D0000002' })).result;
    const other = (await add({ devNo: 'D0000003' })).result;
    // A display enrolled under a type the catalogue no longer lists.
    await t.db.query(`UPDATE display SET type = 'display0' WHERE id = $1`, [other.id]);
    await call(t, root, 'PUT', '/service/deviceType/update', { kind: 'display', code: 'display1', enabled: false, remark: '' });
    try {
      const change = (id: number, devNo: string) => req(a.cookie, 'PUT', '/service/display/update', { id, devNo, name: 'Renamed', type: 'display1', gatewayId: a.gatewayId });
      expect((await change(kept.id, 'D0000002')).state.code).toBe(200000);
      const refused = await change(other.id, 'D0000003');
      expect(refused.status).toBe(400);
      expect(refused.result.errors).toEqual({ type: 'This type is switched off in the type catalogue and cannot be chosen for a new device or carrier' });
      expect((await call(t, a.cookie, 'GET', `/service/display/detail?id=${other.id}`)).type).toBe('display0');
    } finally {
      await call(t, root, 'PUT', '/service/deviceType/update', { kind: 'display', code: 'display1', enabled: true, remark: '' });
    }
    expect((await call(t, a.cookie, 'DELETE', `/service/display/del?ids=${kept.id},${other.id}`)).deleted).toBe(2);
  });
});
