import { describe, expect, it } from 'vitest';
import type { TestCtx } from '../../../test/helper.js';
import { verifyGatewaySecret } from '../../ingest/secret.js';
import { call, requester, withTwoCustomers, type Records } from '../shared/records.fixture.js';

let t: TestCtx;
let a: Records;
let b: Records;
withTwoCustomers((c) => ({ t, a, b } = c));
const req = requester(() => t);
const hashOf = async (id: number) => (await t.db.one<{ secret_hash: string }>('SELECT secret_hash FROM gateway WHERE id = $1', [id]))!.secret_hash;

describe('gateway rules (each passes and fails)', () => {
  const cases: [string, Record<string, unknown>, string | null][] = [
    ['sn as 12 upper-case hex', { sn: 'A4C138F0021B' }, null],
    ['sn in lower case', { sn: 'a4c138f0021c' }, 'sn'],
    ['sn with separators', { sn: 'A4:C1:38:F0:02:1D' }, 'sn'],
    ['time zone +08:00', { sn: 'A4C138F0021E', tz: '+08:00' }, null],
    ['time zone +13:00', { sn: 'A4C138F0021F', tz: '+13:00' }, 'tz'],
    ['known type', { sn: 'A4C138F00220', type: 'gw1_gps' }, null],
    ['unknown type', { sn: 'A4C138F00221', type: 'gw9' }, 'type'],
  ];
  it.each(cases)('%s', async (_l, over, field) => {
    const r = await req(a.cookie, 'POST', '/service/gateway/add', { name: 'Gw', ...over });
    if (field === null) expect(r.state.code).toBe(200000);
    else {
      expect(r.status).toBe(400);
      expect(r.result.errors).toHaveProperty(field);
    }
  });

  it('rejects a MAC already enrolled, by any customer, with 420', async () => {
    const dup = await req(b.cookie, 'POST', '/service/gateway/add', { sn: a.gatewaySn, name: 'Copy' });
    expect(dup.state).toEqual({ code: 420, msg: 'The gateway MAC already exists' });
    const upd = await req(a.cookie, 'PUT', '/service/gateway/update', { id: a.gatewayId, sn: b.gatewaySn, name: 'AlphaGateway' });
    expect(upd.state.code).toBe(420);
  });
});

describe('gateway secret', () => {
  it('is returned once on add, stored only as a hash, and replaced by resetSecret', async () => {
    expect(a.secret.length).toBeGreaterThanOrEqual(32);
    const stored = await hashOf(a.gatewayId);
    expect(stored).not.toContain(a.secret);
    expect(verifyGatewaySecret(stored, a.secret)).toBe(true);
    const detail = await call(t, a.cookie, 'GET', `/service/gateway/detail?id=${a.gatewayId}`);
    expect(JSON.stringify(detail)).not.toMatch(/secret/i);
    const reset = await call(t, a.cookie, 'POST', `/service/gateway/resetSecret?id=${a.gatewayId}`);
    expect(reset).toMatchObject({ id: a.gatewayId, sn: a.gatewaySn });
    expect(reset.secret).not.toBe(a.secret);
    const now = await hashOf(a.gatewayId);
    expect(verifyGatewaySecret(now, a.secret)).toBe(false);
    expect(verifyGatewaySecret(now, reset.secret)).toBe(true);
    const log = await t.db.one<{ params: any }>(`SELECT params FROM sys_log WHERE module = 'gateway' AND method = 'resetSecret'`);
    expect(JSON.stringify(log!.params)).not.toContain(reset.secret);
  });

  it("cannot reset another customer's gateway", async () => {
    const before = await hashOf(a.gatewayId);
    const r = await req(b.cookie, 'POST', `/service/gateway/resetSecret?id=${a.gatewayId}`);
    expect(r.status).toBe(404);
    expect(await hashOf(a.gatewayId)).toBe(before);
  });
});

describe('gateway reads and writes', () => {
  it('shows status and heartbeat fields on page, and sensors on /service/gateway/{id}', async () => {
    const seen = Date.UTC(2025, 0, 2, 3, 4, 5);
    await t.db.query(`UPDATE gateway SET status = 1, last_seen_at = $2, power = 'normal', tcp = true, lte = false, ip = '10.0.0.5', wan_ip = '203.0.113.7' WHERE id = $1`, [a.gatewayId, new Date(seen)]);
    const page = await call(t, a.cookie, 'GET', `/service/gateway/page?sn=${a.gatewaySn.slice(0, 4)}&status=1`);
    expect(page.total).toBe(1);
    expect(page.rows[0]).toMatchObject({ sn: a.gatewaySn, status: 1, lastSeenAt: seen, power: 'normal', tcp: true, lte: false, ip: '10.0.0.5', wanIp: '203.0.113.7', carrierName: 'AlphaFridge', sensorCount: 1 });
    expect(page.rows[0]).not.toHaveProperty('secret_hash');
    const one = await call(t, a.cookie, 'GET', `/service/gateway/${a.gatewayId}`);
    expect(one.sensors.map((s: any) => s.devNo)).toEqual([a.devNo]);
    expect((await req(a.cookie, 'GET', `/service/gateway/${b.gatewayId}`)).status).toBe(404);
  });

  it("binds only a carrier of the gateway's customer", async () => {
    const r = await req(a.cookie, 'PUT', '/service/gateway/update', { id: a.gatewayId, sn: a.gatewaySn, name: 'AlphaGateway', carrierId: b.carrierId });
    expect(r.status).toBe(404);
    const ok = await req(a.cookie, 'PUT', '/service/gateway/update', { id: a.gatewayId, sn: a.gatewaySn, name: 'Renamed', nickname: 'north', carrierId: null });
    expect(ok.state.code).toBe(200000);
  });

  it('refuses to delete a gateway with sensors, deletes one without', async () => {
    const busy = await req(a.cookie, 'DELETE', `/service/gateway/del?ids=${a.gatewayId}`);
    expect(busy.state).toEqual({ code: 500000, msg: 'The gateway still has sensors' });
    const g = await call(t, a.cookie, 'POST', '/service/gateway/add', { sn: 'ABCDEF012345', name: 'Spare' });
    expect(await call(t, a.cookie, 'DELETE', `/service/gateway/del?ids=${g.id}`)).toEqual({ deleted: 1 });
  });
});
