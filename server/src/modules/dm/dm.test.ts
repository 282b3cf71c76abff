import { describe, expect, it } from 'vitest';
import type { TestCtx } from '../../../test/helper.js';
import { call, withTwoCustomers, type Records } from '../shared/records.fixture.js';

let t: TestCtx;
let a: Records;
let b: Records;
withTwoCustomers((c) => ({ t, a, b } = c));

describe('monitoring point detail', () => {
  it('shows the carrier, its zone, sensors with latest values and open exceptions', async () => {
    await t.db.query(
      `INSERT INTO exception_record(customer_id, carrier_id, sensor_id, type, category, start_ts) VALUES ($1, $2, $3, 'data', 'temp_high', now())`,
      [a.customerId, a.carrierId, a.sensorId],
    );
    await t.db.query('UPDATE sensor SET last_temp = 9.5 WHERE id = $1', [a.sensorId]);
    const r = await call(t, a.cookie, 'GET', `/service/dm/mpDetail?carrierId=${a.carrierId}`);
    expect(r.zone).toEqual({ tempMin: 2, tempMax: 8, humMin: 30, humMax: 70 });
    expect(r.openExceptions).toBe(1);
    expect(r.carrier).toMatchObject({ id: a.carrierId, state: 'abnormal' });
    expect(r.sensors[0]).toMatchObject({ devNo: a.devNo, temp: 9.5, hum: 50, tempState: 'high', humState: 'normal', inRange: false, status: 1 });
    const beta = await t.login('beta');
    const foreign = await t.app.inject({ method: 'GET', url: `/service/dm/mpDetail?carrierId=${a.carrierId}`, headers: { cookie: beta } });
    expect(foreign.statusCode).toBe(404);
  });
});

describe('monitor list', () => {
  it('lists every carrier in scope with sensors and range states, filtered by scene and type', async () => {
    const list = await call(t, a.cookie, 'GET', '/service/dm/monitorList');
    expect(list.map((c: any) => c.name)).toEqual(['AlphaFridge']);
    expect(list[0].sensors[0]).toMatchObject({ devNo: a.devNo, tempState: 'high' });
    const other = await call(t, a.cookie, 'POST', '/service/scene/add', { label: 'Other' });
    await call(t, a.cookie, 'POST', '/service/carrier/add', { name: 'Van', type: 3, sceneId: other.id, alarmOn: false });
    const byScene = await call(t, a.cookie, 'GET', `/service/dm/monitorList?sceneId=${other.id}`);
    expect(byScene).toHaveLength(1);
    expect(byScene[0]).toMatchObject({ name: 'Van', state: 'stopped', sensors: [] });
    expect(await call(t, a.cookie, 'GET', '/service/dm/monitorList?type=3')).toHaveLength(1);
    const root = await t.login('admin');
    const all = await call(t, root, 'GET', '/service/dm/monitorList');
    expect(all.map((c: any) => c.id)).toEqual(expect.arrayContaining([a.carrierId, b.carrierId]));
  });
});
