import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../../test/helper.js';

let t: TestCtx;
beforeAll(async () => {
  t = await setup({ MQTT_PORT: '18999' });
});
afterAll(() => t.close());

describe('where gateways connect (set-up wizard)', () => {
  it('answers the host the user reached the console by and the broker port; a viewer may not ask', async () => {
    const cookie = await t.login('alpha');
    const res = await t.app.inject({ method: 'GET', url: '/service/wizard/connectInfo', headers: { cookie, host: 'console.example:8080' } });
    expect(res.json().result).toEqual({ mqttHost: 'console.example', mqttPort: 18999, externalBroker: false, httpIngest: 'http://console.example:8080/ingest/v1' });
    await t.addUser(t.tenants.a.customerId, 'alphaview');
    const viewer = await t.login('alphaview');
    const denied = await t.app.inject({ method: 'GET', url: '/service/wizard/connectInfo', headers: { cookie: viewer } });
    expect(denied.json().state.code).toBe(500102);
  });
});
