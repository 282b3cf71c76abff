import { describe, expect, it } from 'vitest';
import type { TestCtx } from '../../../test/helper.js';
import { call, requester, withTwoCustomers, type Records } from '../shared/records.fixture.js';
import { failOverdue } from '../../jobs/configTimeout.js';

let t: TestCtx;
let a: Records;
let b: Records;
withTwoCustomers((c) => ({ t, a, b } = c));
const req = requester(() => t);
const upt = (cookie: string, body: unknown) => req(cookie, 'POST', '/service/sensor/config', body);
const ingest = (kind: string, body?: object) =>
  t.app.inject(
    body === undefined
      ? { method: 'GET', url: `/ingest/v1/${a.gatewaySn}/${kind}`, headers: { authorization: `Bearer ${a.secret}` } }
      : { method: 'POST', url: `/ingest/v1/${a.gatewaySn}/${kind}`, headers: { authorization: `Bearer ${a.secret}` }, payload: body },
  );

describe('parameter configuration over MQTT (spec §3, §4, §5; device-protocol.md down/config)', () => {
  it('refuses each broken §5 rule with its field, and changes nothing', async () => {
    const lora = await call(t, a.cookie, 'POST', '/service/sensor/add', { devNo: 'A1LORA1', type: 'lora_th', gatewayId: a.gatewayId });
    const cases: [unknown, string, string][] = [
      [{ ids: [a.sensorId], kind: 'collect', collect: { sampleInterval: 60, exceptionSampleInterval: 90 } }, 'collect.exceptionSampleInterval', 'The exception interval may not be greater than the normal interval'],
      [{ ids: [a.sensorId], kind: 'collect', collect: { sampleInterval: 5 } }, 'collect.sampleInterval', 'The collection interval is a whole number of seconds from 10 to 65535'],
      [{ ids: [a.sensorId], kind: 'collect', collect: { tempChange: 0.125 } }, 'collect.tempChange', 'At most two decimals'],
      [{ ids: [lora.id], kind: 'collect', collect: { tempSampleInterval: 60, tempMinReport: 120, tempMaxReport: 600 } }, 'collect.tempMinReport', 'The minimum report interval may not be greater than the sampling interval'],
      [{ ids: [lora.id], kind: 'collect', collect: { humSampleInterval: 600, humMinReport: 60, humMaxReport: 300 } }, 'collect.humMaxReport', 'The maximum report interval may not be less than the sampling interval'],
      [{ ids: [lora.id], kind: 'collect', collect: { tempMinReport: 600, tempMaxReport: 300 } }, 'collect.tempMinReport', 'The minimum report interval may not be greater than the maximum'],
      [{ ids: [a.sensorId], kind: 'network', network: { extPanId: '00124B00XYZ' } }, 'network.extPanId', 'The extended PAN id is 16 hexadecimal digits'],
      [{ ids: [a.sensorId], kind: 'network', network: { channelMask: '11 15 32' } }, 'network.channelMask', 'The channel mask is channel numbers from 0 to 31 separated by spaces'],
      [{ ids: [a.sensorId], kind: 'network', network: { accessInterval: 299 } }, 'network.accessInterval', 'The network access interval is from 300 to 86400 seconds'],
      [{ ids: [a.sensorId], kind: 'network', network: { appKey: 'ab'.repeat(15) } }, 'network.appKey', 'The App Key is 32 hexadecimal digits'],
      [{ ids: [a.sensorId], kind: 'network', network: { txPower: 21 } }, 'network.txPower', 'The transmit power is from 0 to 20'],
      [{ ids: [a.sensorId], kind: 'collect', collect: {} }, 'kind', 'Set at least one parameter'],
      [{ ids: [a.sensorId, lora.id], kind: 'collect', collect: { sampleInterval: 60 } }, 'ids', 'Devices configured together must be of the same type'],
    ];
    for (const [body, field, msg] of cases) {
      const r = await upt(a.cookie, body);
      expect(r.status, JSON.stringify(r)).toBe(400);
      expect(r.result.errors, JSON.stringify(r)).toMatchObject({ [field]: msg });
    }
    expect((await call(t, a.cookie, 'GET', '/service/sensor/configLog?iDisplayStart=0&iDisplayLength=10')).total).toBe(0);
    // Another customer's sensor is not found, in a batch or alone.
    expect((await upt(a.cookie, { ids: [b.sensorId], kind: 'collect', collect: { sampleInterval: 60 } })).status).toBe(404);
  });

  it('issues one command per device, which the gateway takes, answers and ends; the log shows it; a busy device is refused', async () => {
    const configStatus = async () => (await call(t, a.cookie, 'GET', `/service/sensor/detail?id=${a.sensorId}`)).configStatus;
    expect(await configStatus()).toBe('wait');
    const r = await call(t, a.cookie, 'POST', '/service/sensor/config', { ids: [a.sensorId], kind: 'collect', collect: { sampleInterval: 120, exceptionSampleInterval: 30 } });
    expect(r).toEqual({ commands: 1, published: 0 }); // no MQTT transport in this test: the gateway polls over HTTP
    expect(await configStatus()).toBe('configuring');
    expect((await upt(a.cookie, { ids: [a.sensorId], kind: 'network', network: { txPower: 14 } })).result.errors).toEqual({ ids: 'A device is still being configured: wait for its command to end' });
    let log = await call(t, a.cookie, 'GET', '/service/sensor/configLog?iDisplayStart=0&iDisplayLength=10');
    expect(log.rows[0]).toMatchObject({ devNo: a.devNo, deviceType: 'zigbee_th', orderType: 'collect', status: 'prepare', content: { sampleInterval: 120, exceptionSampleInterval: 30 }, sceneName: 'AlphaWard' });
    // Still configuring: its command cannot be deleted.
    expect((await req(a.cookie, 'DELETE', `/service/sensor/configLog/del?ids=${log.rows[0].id}`)).result.errors).toEqual({ ids: 'A command of a device still being configured cannot be deleted' });

    const polled = await ingest('commands');
    const cmd = polled.json().commands[0];
    expect(cmd).toMatchObject({ type: 'config', dev: a.devNo, params: { sampleInterval: 120, exceptionSampleInterval: 30 } });
    expect((await call(t, a.cookie, 'GET', '/service/sensor/configLog?iDisplayStart=0&iDisplayLength=10')).rows[0].status).toBe('issuing');
    expect((await ingest('ack', { cmdId: cmd.cmdId, result: 'ok' })).statusCode).toBe(200);
    expect(await configStatus()).toBe('configured');
    log = await call(t, a.cookie, 'GET', '/service/sensor/configLog?iDisplayStart=0&iDisplayLength=10');
    expect(log.rows[0]).toMatchObject({ status: 'end', operator: expect.any(String) });
    expect(log.rows[0].finishedAt).toBeGreaterThan(0);
    // Another customer sees none of it, nor may delete it.
    expect((await call(t, b.cookie, 'GET', '/service/sensor/configLog?iDisplayStart=0&iDisplayLength=10')).total).toBe(0);
    expect((await req(b.cookie, 'DELETE', `/service/sensor/configLog/del?ids=${log.rows[0].id}`)).status).toBe(404);
    expect(await call(t, a.cookie, 'DELETE', `/service/sensor/configLog/del?ids=${log.rows[0].id}`)).toEqual({ deleted: 1 });
  });

  it('fails a command never answered within the sensor configuration timeout', async () => {
    await call(t, a.cookie, 'POST', '/service/sensor/config', { ids: [a.sensorId], kind: 'network', network: { extPanId: '00124B0012345678', channelMask: '11 15 20', txPower: 14 } });
    expect(await failOverdue(t.db, 10)).toBe(0);
    await t.db.query(`UPDATE device_command SET created_at = now() - interval '11 minutes' WHERE sensor_id = $1 AND status = 'prepare'`, [a.sensorId]);
    expect(await failOverdue(t.db, 10)).toBe(1);
    const log = await call(t, a.cookie, 'GET', '/service/sensor/configLog?iDisplayStart=0&iDisplayLength=10&status=fail');
    expect(log.rows[0]).toMatchObject({ status: 'fail', orderType: 'network', detail: 'no answer from the gateway within 10 min', content: { extPanId: '00124B0012345678' } });
    // Failed: the device may be configured again.
    expect((await upt(a.cookie, { ids: [a.sensorId], kind: 'network', network: { txPower: 10 } })).state.code).toBe(200000);
    // One sensor's log (its detail page), exactly its own commands.
    const own = await call(t, a.cookie, 'GET', `/service/sensor/configLog?iDisplayStart=0&iDisplayLength=50&sensorId=${a.sensorId}`);
    expect(own.total).toBeGreaterThanOrEqual(2);
    expect(own.rows.every((r: { devNo: string }) => r.devNo === a.devNo)).toBe(true);
    expect((await call(t, a.cookie, 'GET', `/service/sensor/configLog?iDisplayStart=0&iDisplayLength=50&sensorId=${b.sensorId}`)).total).toBe(0);
  });
});
