import { beforeAll, describe, expect, it } from 'vitest';
import type { TestCtx } from '../../../test/helper.js';
import { call, requester, withTwoCustomers, type Records } from '../shared/records.fixture.js';

/** Smart bases (spec §2 /device/base; §3 base types; the type catalogue's switch; one number namespace). */

let t: TestCtx;
let a: Records;
let b: Records;
let root: string;
withTwoCustomers((c) => ({ t, a, b } = c));
beforeAll(async () => {
  root = await t.login('admin');
});
const req = requester(() => t);
const add = (body: Record<string, unknown>) => req(a.cookie, 'POST', '/service/base/add', { devNo: 'B0000001', name: 'Incubator base', type: 'thermohygro', gatewayId: a.gatewayId, ...body });

describe('smart bases', () => {
  it('refuses an unknown type, a switched-off type, a taken number and another customer\'s gateway; enrols, stops and deletes one', async () => {
    expect((await add({ type: '868' })).result.errors).toEqual({ type: 'Choose a smart base type from the list' });
    await call(t, root, 'PUT', '/service/deviceType/update', { kind: 'base', code: '433', enabled: false, remark: '' });
    try {
      expect((await add({ type: '433' })).result.errors).toEqual({ type: 'This type is switched off in the type catalogue and cannot be chosen for a new device or carrier' });
    } finally {
      await call(t, root, 'PUT', '/service/deviceType/update', { kind: 'base', code: '433', enabled: true, remark: '' });
    }
    expect((await add({ devNo: a.devNo })).state.code).toBe(420);
    expect((await add({ gatewayId: b.gatewayId })).status).toBe(404);

    const { id } = (await add({ carrierId: a.carrierId })).result;
    expect(await call(t, a.cookie, 'GET', `/service/base/detail?id=${id}`)).toMatchObject({ devNo: 'B0000001', type: 'thermohygro', carrierName: 'AlphaFridge', status: 0 });
    expect((await call(t, a.cookie, 'GET', '/service/base/page?iDisplayStart=0&iDisplayLength=10&type=915')).total).toBe(0);
    expect((await req(b.cookie, 'GET', `/service/base/detail?id=${id}`)).status).toBe(404);
    expect((await req(b.cookie, 'POST', '/service/relay/add', { devNo: 'B0000001', name: 'x', gatewayId: b.gatewayId })).state.code).toBe(420);
    expect((await call(t, a.cookie, 'PUT', '/service/base/status', { ids: [id], stopped: true })).changed).toBe(1);
    expect((await call(t, a.cookie, 'GET', `/service/base/detail?id=${id}`)).status).toBe(2);
    expect((await call(t, a.cookie, 'DELETE', `/service/base/del?ids=${id}`)).deleted).toBe(1);
  });
});
