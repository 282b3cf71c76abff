import { beforeAll, describe, expect, it } from 'vitest';
import { translate } from '@coldwatch/contract';
import type { TestCtx } from '../../../test/helper.js';
import { call, requester, withTwoCustomers, type Records } from '../shared/records.fixture.js';
import { pdfText } from '../report/pdf.fixture.js';
import { expectRefused } from './param.fixture.js';

/*
 * The device parameters of /sys/paramsetup (spec §3): the default transmission intervals are
 * what a new sensor, display or relay gets when its form (or import row) names none, and the
 * labels per page lay out the sensor label sheet. Each is changed here and its effect seen.
 */

let t: TestCtx;
let a: Records;
let b: Records;
let root: string;
withTwoCustomers((c) => ({ t, a, b } = c));
beforeAll(async () => {
  root = await t.login('admin');
});
const req = requester(() => t);
const put = (key: string, value: unknown) => req(root, 'PUT', '/service/param/update', { key, value });
const labels = (cookie: string, ids: unknown) =>
  t.app.inject({ method: 'POST', url: '/service/label/sensor', headers: { cookie, 'accept-language': 'en-US' }, payload: { ids } });

describe('default transmission intervals', () => {
  it('a new sensor, display and relay without an interval get the parameter; one naming its own keeps it; a change without one keeps the current', async () => {
    expect((await put('sensor_interval_seconds', 120)).state.code).toBe(200000);
    expect((await put('display_interval_seconds', 90)).state.code).toBe(200000);
    expect((await put('relay_interval_seconds', 45)).state.code).toBe(200000);

    const s = await call(t, a.cookie, 'POST', '/service/sensor/add', { devNo: 'ALPHAIV1', type: 'zigbee_th', gatewayId: a.gatewayId });
    expect((await call(t, a.cookie, 'GET', `/service/sensor/detail?id=${s.id}`)).sampleInterval).toBe(120);
    const own = await call(t, a.cookie, 'POST', '/service/sensor/add', { devNo: 'ALPHAIV2', type: 'zigbee_th', gatewayId: a.gatewayId, sampleInterval: 30 });
    expect((await call(t, a.cookie, 'GET', `/service/sensor/detail?id=${own.id}`)).sampleInterval).toBe(30);
    await call(t, a.cookie, 'POST', '/service/sensor/upt', { id: own.id, devNo: 'ALPHAIV2', type: 'zigbee_th', gatewayId: a.gatewayId, description: 'moved' });
    expect((await call(t, a.cookie, 'GET', `/service/sensor/detail?id=${own.id}`)).sampleInterval).toBe(30);

    const d = await call(t, a.cookie, 'POST', '/service/display/add', { devNo: 'ALPHAD1', name: 'Door display', gatewayId: a.gatewayId });
    expect((await call(t, a.cookie, 'GET', `/service/display/detail?id=${d.id}`)).heartbeatInterval).toBe(90);
    const r = await call(t, a.cookie, 'POST', '/service/relay/add', { devNo: 'ALPHAR1', name: 'Fan relay', gatewayId: a.gatewayId });
    expect((await call(t, a.cookie, 'GET', `/service/relay/detail?id=${r.id}`)).reportInterval).toBe(45);

    expect((await put('sensor_interval_seconds', 60)).state.code).toBe(200000);
    const s2 = await call(t, a.cookie, 'POST', '/service/sensor/add', { devNo: 'ALPHAIV3', type: 'zigbee_th', gatewayId: a.gatewayId });
    expect((await call(t, a.cookie, 'GET', `/service/sensor/detail?id=${s2.id}`)).sampleInterval).toBe(60);
  });

  it('refuses an interval or a label count out of its range and keeps the value', async () => {
    const bad = [
      ['sensor_interval_seconds', 9, 'errors.param.sensorInterval'],
      ['sensor_interval_seconds', 65536, 'errors.param.sensorInterval'],
      ['display_interval_seconds', 86401, 'errors.param.displayInterval'],
      ['relay_interval_seconds', 9, 'errors.param.relayInterval'],
      ['relay_interval_seconds', 12.5, 'errors.param.relayInterval'],
      ['labels_per_page', 0, 'errors.param.labelsPerPage'],
      ['labels_per_page', 41, 'errors.param.labelsPerPage'],
    ] as const;
    await expectRefused(put, bad);
    expect((await put('display_interval_seconds', 3600)).state.code).toBe(200000);
    const read = (await req(a.cookie, 'GET', '/service/share/param')).result;
    expect(read).toMatchObject({ display_interval_seconds: '3600', relay_interval_seconds: '45', labels_per_page: '12' });
  });
});

describe('labels per page', () => {
  it('lays out the sensor label sheet: as many labels a page as the parameter says, each with its number', async () => {
    const ids = [a.sensorId];
    for (const n of ['ALPHALB1', 'ALPHALB2']) ids.push((await call(t, a.cookie, 'POST', '/service/sensor/add', { devNo: n, type: 'zigbee_th', gatewayId: a.gatewayId, carrierId: a.carrierId })).id);

    expect((await put('labels_per_page', 1)).state.code).toBe(200000);
    const one = await labels(a.cookie, ids);
    expect(one.statusCode).toBe(200);
    expect(one.headers['content-type']).toContain('application/pdf');
    const pages = await pdfText(one.rawPayload);
    expect(pages).toHaveLength(3);
    expect(pages[0]).toContain(a.devNo);
    expect(pages[2]).toContain('ALPHALB2');
    expect(pages[0]).toContain('AlphaFridge');

    expect((await put('labels_per_page', 2)).state.code).toBe(200000);
    expect(await pdfText((await labels(a.cookie, ids)).rawPayload)).toHaveLength(2);
    expect((await put('labels_per_page', 12)).state.code).toBe(200000);
    const all = await pdfText((await labels(a.cookie, ids)).rawPayload);
    expect(all).toHaveLength(1);
    for (const n of [a.devNo, 'ALPHALB1', 'ALPHALB2']) expect(all[0]).toContain(n);
  });

  it("refuses another customer's sensor (404, nothing printed), no sensor and too many", async () => {
    const foreign = await labels(a.cookie, [a.sensorId, b.sensorId]);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.headers['content-type']).not.toContain('application/pdf');
    const none = await labels(a.cookie, []);
    expect(none.statusCode).toBe(400);
    expect(none.json().result.errors.ids).toBe(translate('errors.label.none', 'en-US'));
    const many = await labels(a.cookie, Array.from({ length: 501 }, (_, i) => i + 1));
    expect(many.json().result.errors.ids).toBe(translate('errors.label.tooMany', 'en-US'));
  });
});
