import { describe, expect, it } from 'vitest';
import type { TestCtx } from '../../../test/helper.js';
import { call, requester, withTwoCustomers, type Records } from '../shared/records.fixture.js';

/** Stopping and enabling devices (spec §4): a stopped device's messages are refused with a logged reason. */

let t: TestCtx;
let a: Records;
let b: Records;
withTwoCustomers((c) => ({ t, a, b } = c));
const req = requester(() => t);

const send = (rec: Records, temp: number, dev = rec.devNo) =>
  t.app.inject({
    method: 'POST',
    url: `/ingest/v1/${rec.gatewaySn}/data`,
    headers: { authorization: `Bearer ${rec.secret}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ readings: [{ dev, ts: Date.now() - Math.round(Math.random() * 1000), temp }] }),
  });
const rejects = async (reason: string) =>
  (await t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM ingest_reject WHERE reason = $1', [reason]))!.n;
const readings = async (sensorId: number) => (await t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM reading WHERE sensor_id = $1', [sensorId]))!.n;

describe('stopping a gateway', () => {
  it('refuses its messages (HTTP 403, reason in the reject log, nothing stored) until it is enabled again', async () => {
    const before = await readings(a.sensorId);
    expect((await call(t, a.cookie, 'PUT', '/service/gateway/status', { ids: [a.gatewayId], stopped: true })).changed).toBe(1);
    expect((await call(t, a.cookie, 'GET', `/service/gateway/detail?id=${a.gatewayId}`)).status).toBe(2);
    const refused = await send(a, 5.5);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'stopped_gateway', accepted: 0, rejected: 1 });
    expect(await rejects('stopped_gateway')).toBe(1);
    expect(await readings(a.sensorId)).toBe(before);
    // Another customer's gateway is not touched.
    expect((await send(b, 5)).json()).toMatchObject({ accepted: 1 });

    // Stopping twice changes nothing more; enabling makes it offline until it reports, then online.
    expect((await call(t, a.cookie, 'PUT', '/service/gateway/status', { ids: [a.gatewayId], stopped: true })).changed).toBe(0);
    expect((await call(t, a.cookie, 'PUT', '/service/gateway/status', { ids: [a.gatewayId], stopped: false })).changed).toBe(1);
    expect((await send(a, 5.6)).json()).toMatchObject({ accepted: 1 });
    expect(await readings(a.sensorId)).toBe(before + 1);
  });

  it("refuses another customer's gateway (404) and an empty selection (400), and changes nothing", async () => {
    expect((await req(b.cookie, 'PUT', '/service/gateway/status', { ids: [a.gatewayId], stopped: true })).status).toBe(404);
    expect((await req(a.cookie, 'PUT', '/service/gateway/status', { ids: [], stopped: true })).status).toBe(400);
    expect((await call(t, a.cookie, 'GET', `/service/gateway/detail?id=${a.gatewayId}`)).status).not.toBe(2);
  });
});

describe('stopping a sensor', () => {
  it('refuses its readings with the reason stopped_device while the gateway\'s other traffic goes on', async () => {
    const before = await readings(a.sensorId);
    expect((await call(t, a.cookie, 'PUT', '/service/sensor/status', { ids: [a.sensorId], stopped: true })).changed).toBe(1);
    const r = await send(a, 6);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ accepted: 0, rejected: 1 });
    expect(await rejects('stopped_device')).toBe(1);
    expect(await readings(a.sensorId)).toBe(before);
    await call(t, a.cookie, 'PUT', '/service/sensor/status', { ids: [a.sensorId], stopped: false });
    expect((await send(a, 6.1)).json()).toMatchObject({ accepted: 1 });
    const log = await call(t, a.cookie, 'GET', '/service/syslog/page?module=sensor');
    expect(log.rows.map((x: { method: string }) => x.method)).toEqual(expect.arrayContaining(['stop', 'enable']));
  });
});
