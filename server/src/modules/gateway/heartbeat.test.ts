import { beforeAll, describe, expect, it } from 'vitest';
import type { TestCtx } from '../../../test/helper.js';
import { call, requester, withTwoCustomers, type Records } from '../shared/records.fixture.js';
import { enforceRetention } from '../../jobs/retention.js';

/** Gateway heartbeat history (spec §3 Gateway; settings "gateway heartbeat history on/off and days"). */

let t: TestCtx;
let a: Records;
let b: Records;
let root: string;
withTwoCustomers((c) => ({ t, a, b } = c));
beforeAll(async () => {
  root = await t.login('admin');
});
const req = requester(() => t);
const beat = (body: object) => t.app.inject({ method: 'POST', url: `/ingest/v1/${a.gatewaySn}/heartbeat`, headers: { authorization: `Bearer ${a.secret}` }, payload: body });
const history = (cookie: string) => req(cookie, 'GET', `/service/gateway/heartbeats?gatewayId=${a.gatewayId}&iDisplayStart=0&iDisplayLength=10`);

describe('gateway heartbeat history', () => {
  it('keeps each heartbeat while the parameter is on, none while off, for its days; only the owner sees it', async () => {
    const ts = Date.now() - 5_000;
    expect((await beat({ ts, power: 'standby', tcp: true, lte: false, ip: '10.0.0.5', gps: { lat: 31.2304, lng: 121.4737 } })).statusCode).toBe(200);
    let h = await history(a.cookie);
    expect(h.result.rows).toEqual([expect.objectContaining({ ts, power: 'standby', tcp: true, lte: false, ip: '10.0.0.5', lat: 31.2304, lng: 121.4737 })]);
    expect((await history(b.cookie)).status).toBe(404);

    await call(t, root, 'PUT', '/service/param/update', { key: 'gateway_heartbeat_history', value: 'off' });
    try {
      expect((await beat({ power: 'normal' })).statusCode).toBe(200);
      h = await history(a.cookie);
      expect(h.result.total).toBe(1);
      // The gateway's state still follows its heartbeats.
      expect((await call(t, a.cookie, 'GET', `/service/gateway/detail?id=${a.gatewayId}`)).power).toBe('normal');
    } finally {
      await call(t, root, 'PUT', '/service/param/update', { key: 'gateway_heartbeat_history', value: 'on' });
    }
    expect((await req(root, 'PUT', '/service/param/update', { key: 'gateway_heartbeat_history', value: 'maybe' })).state.code).not.toBe(200000);

    await t.db.query(`UPDATE gateway_heartbeat SET received_at = now() - interval '31 days'`);
    expect((await enforceRetention(t.db)).heartbeats).toBe(1);
    expect((await history(a.cookie)).result.total).toBe(0);
  });
});
