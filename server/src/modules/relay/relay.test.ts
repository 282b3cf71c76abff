import { describe, expect, it } from 'vitest';
import type { TestCtx } from '../../../test/helper.js';
import { call, requester, withTwoCustomers, type Records } from '../shared/records.fixture.js';
import { runRelaySwitches } from '../../jobs/relaySwitch.js';

/** Relays (spec §3 Relay) and their switching (§4 Device switch; device-protocol.md down/output). */

let t: TestCtx;
let a: Records;
let b: Records;
withTwoCustomers((c) => ({ t, a, b } = c));
const req = requester(() => t);
const add = (body: Record<string, unknown>) => req(a.cookie, 'POST', '/service/relay/add', { devNo: 'R0000001', name: 'Fan', gatewayId: a.gatewayId, ...body });
const switchIt = (body: Record<string, unknown>) => req(a.cookie, 'POST', '/service/relay/switch', body);
const gw = (kind: string, body?: object) =>
  t.app.inject(
    body === undefined
      ? { method: 'GET', url: `/ingest/v1/${a.gatewaySn}/${kind}`, headers: { authorization: `Bearer ${a.secret}` } }
      : { method: 'POST', url: `/ingest/v1/${a.gatewaySn}/${kind}`, headers: { authorization: `Bearer ${a.secret}` }, payload: body },
  );
/** The gateway takes its waiting output commands and acknowledges them all. */
async function gatewayApplies(): Promise<{ dev: string; on: boolean }[]> {
  const cmds = (await gw('commands')).json().commands.filter((c: { type: string }) => c.type === 'output');
  for (const c of cmds) expect((await gw('ack', { cmdId: c.cmdId, result: 'ok' })).statusCode).toBe(200);
  return cmds.map((c: { dev: string; on: boolean }) => ({ dev: c.dev, on: c.on }));
}
const relay = (id: number) => call(t, a.cookie, 'GET', `/service/relay/detail?id=${id}`);
const log = (id: number) => call(t, a.cookie, 'GET', `/service/relay/switchLog?relayId=${id}&iDisplayStart=0&iDisplayLength=20`);

describe('relays and switching', () => {
  let id = 0;

  it('refuses bad relays with their field: MAC, reporting interval, a number taken by a sensor, another customer\'s gateway', async () => {
    expect((await add({ mac: 'A4:C1:38:ZZ:00:01' })).result.errors).toEqual({ mac: 'A MAC is six pairs of hexadecimal digits' });
    expect((await add({ reportInterval: 5 })).result.errors).toEqual({ reportInterval: 'The reporting interval is a whole number of seconds from 10 to 86400' });
    expect((await add({ devNo: b.devNo })).state.code).toBe(420);
    expect((await add({ gatewayId: b.gatewayId })).status).toBe(404);
    const ok = await add({ mac: 'a4-c1-38-00-00-01', carrierId: a.carrierId });
    expect(ok.state.code).toBe(200000);
    id = ok.result.id;
    expect(await relay(id)).toMatchObject({ devNo: 'R0000001', mac: 'A4C138000001', output: null, switch: null, pending: false, carrierName: 'AlphaFridge' });
    // Numbers are one namespace on the platform: a sensor cannot take a relay's.
    expect((await req(b.cookie, 'POST', '/service/sensor/add', { devNo: 'R0000001', type: 'zigbee_th', gatewayId: b.gatewayId })).state.code).toBe(420);
    // A gateway with a relay on it cannot be deleted.
    expect((await req(a.cookie, 'DELETE', `/service/gateway/del?ids=${a.gatewayId}`)).state.code).not.toBe(200000);
  });

  it('refuses a bad switch with its field and changes nothing', async () => {
    expect((await switchIt({ ids: [id], mode: 'manual', on: true, cancelTime: -1 })).result.errors).toEqual({ cancelTime: 'The cancel time is a whole number of seconds, 0 or more (0 or blank: never)' });
    expect((await switchIt({ ids: [id], mode: 'manual' })).result.errors).toEqual({ on: 'Choose on or off' });
    expect((await switchIt({ ids: [id], mode: 'toggle', on: true })).result.errors).toEqual({ mode: 'Choose intelligent, manual, direct or cancel' });
    expect((await switchIt({ ids: [b.gatewayId + 1000], mode: 'manual', on: true })).status).toBe(404);
    expect((await log(id)).total).toBe(0);
  });

  it('switches by hand until cancelled: the gateway gets the output, its ack confirms it; cancel is a user termination that restores the output', async () => {
    expect((await call(t, a.cookie, 'POST', '/service/relay/switch', { ids: [id], mode: 'manual', on: true, cancelTime: 0 }))).toEqual({ switched: 1, published: 0 });
    expect(await relay(id)).toMatchObject({ pending: true, output: null, switch: { mode: 'manual', turnOn: true, endsAt: null } });
    expect(await gatewayApplies()).toEqual([{ dev: 'R0000001', on: true }]);
    expect(await relay(id)).toMatchObject({ pending: false, output: true });

    await call(t, a.cookie, 'POST', '/service/relay/switch', { ids: [id], mode: 'cancel' });
    expect(await gatewayApplies()).toEqual([{ dev: 'R0000001', on: false }]);
    expect(await relay(id)).toMatchObject({ output: false, switch: null });
    expect((await log(id)).rows[0]).toMatchObject({ mode: 'manual', turnOn: true, endKind: 'terminate', result: 'userTermination', endedBy: expect.any(String) });
  });

  it('a direct switch ignores the condition and reverts by itself at its cancel time; a new switch ends the running one', async () => {
    await call(t, a.cookie, 'POST', '/service/relay/switch', { ids: [id], mode: 'manual', on: true });
    await gatewayApplies();
    await call(t, a.cookie, 'POST', '/service/relay/switch', { ids: [id], mode: 'direct', on: true, cancelTime: 30 });
    let rows = (await log(id)).rows;
    expect(rows[1]).toMatchObject({ mode: 'manual', endKind: 'start', result: 'user' });
    expect(rows[0]).toMatchObject({ mode: 'direct', cancelAfterS: 30, result: 'ignoreCondition', endedAt: null });
    await gatewayApplies();
    expect(await runRelaySwitches(t.deps)).toEqual({ ended: 0, published: 0 });
    await t.db.query(`UPDATE relay_switch SET started_at = now() - interval '31 seconds' WHERE relay_id = $1 AND ended_at IS NULL`, [id]);
    expect((await runRelaySwitches(t.deps)).ended).toBe(1);
    // Back to the output before the switches: off.
    expect(await gatewayApplies()).toEqual([{ dev: 'R0000001', on: false }]);
    rows = (await log(id)).rows;
    expect(rows[0]).toMatchObject({ mode: 'direct', endKind: 'revert', endedBy: null });
    expect(await relay(id)).toMatchObject({ output: false, switch: null });
  });

  it('an intelligent switch follows its carrier: on while it has an ongoing exception, the condition recorded as reached', async () => {
    await call(t, a.cookie, 'POST', '/service/relay/switch', { ids: [id], mode: 'intelligent', cancelTime: 600 });
    expect(await relay(id)).toMatchObject({ switch: { mode: 'intelligent', turnOn: false, conditionReached: false, endsAt: expect.any(Number) } });
    await gatewayApplies();
    const ex = await t.db.one<{ id: number }>(
      `INSERT INTO exception_record(customer_id, carrier_id, sensor_id, type, category, start_ts) VALUES ($1, $2, $3, 'data', 'temp_high', now()) RETURNING id`,
      [a.customerId, a.carrierId, a.sensorId],
    );
    await runRelaySwitches(t.deps);
    expect(await gatewayApplies()).toEqual([{ dev: 'R0000001', on: true }]);
    expect(await relay(id)).toMatchObject({ output: true, switch: { conditionReached: true } });
    await t.db.query(`UPDATE exception_record SET ongoing = false, end_ts = now() WHERE id = $1`, [ex!.id]);
    await runRelaySwitches(t.deps);
    expect(await gatewayApplies()).toEqual([{ dev: 'R0000001', on: false }]);

    // Stopping the relay ends its switch; a stopped relay is not switched.
    expect((await call(t, a.cookie, 'PUT', '/service/relay/status', { ids: [id], stopped: true })).changed).toBe(1);
    expect((await log(id)).rows[0]).toMatchObject({ mode: 'intelligent', endKind: 'terminate', result: 'userTermination', conditionReached: true });
    expect((await switchIt({ ids: [id], mode: 'manual', on: true })).result.errors).toEqual({ ids: 'A stopped relay cannot be switched: enable it first' });
    expect((await relay(id)).status).toBe(2);
  });

  it('intelligent switching needs a carrier to follow', async () => {
    const bare = await call(t, a.cookie, 'POST', '/service/relay/add', { devNo: 'R0000002', name: 'Siren', gatewayId: a.gatewayId });
    expect((await switchIt({ ids: [bare.id], mode: 'intelligent' })).result.errors).toEqual({ ids: 'Intelligent switching follows a monitoring point: bind the relay to one first' });
    expect((await call(t, a.cookie, 'DELETE', `/service/relay/del?ids=${bare.id}`)).deleted).toBe(1);
  });

  it('a switched-off type: a relay that has it keeps it on a change, one that chooses it anew is refused (400 on type)', async () => {
    const root = await t.login('admin');
    const kept = await call(t, a.cookie, 'POST', '/service/relay/add', { devNo: 'R0000003', name: 'Heater', gatewayId: a.gatewayId });
    const other = await call(t, a.cookie, 'POST', '/service/relay/add', { devNo: 'R0000004', name: 'Lamp', gatewayId: a.gatewayId });
    // A relay enrolled under a type the catalogue no longer lists.
    await t.db.query(`UPDATE relay SET type = 'relay0' WHERE id = $1`, [other.id]);
    await call(t, root, 'PUT', '/service/deviceType/update', { kind: 'relay', code: 'relay1', enabled: false, remark: '' });
    try {
      const change = (id: number, devNo: string) => req(a.cookie, 'PUT', '/service/relay/update', { id, devNo, name: 'Renamed', type: 'relay1', gatewayId: a.gatewayId });
      expect((await change(kept.id, 'R0000003')).state.code).toBe(200000);
      const refused = await change(other.id, 'R0000004');
      expect(refused.status).toBe(400);
      expect(refused.result.errors).toEqual({ type: 'This type is switched off in the type catalogue and cannot be chosen for a new device or carrier' });
      expect((await relay(other.id)).type).toBe('relay0');
    } finally {
      await call(t, root, 'PUT', '/service/deviceType/update', { kind: 'relay', code: 'relay1', enabled: true, remark: '' });
    }
    expect((await call(t, a.cookie, 'DELETE', `/service/relay/del?ids=${kept.id},${other.id}`)).deleted).toBe(2);
  });
});
