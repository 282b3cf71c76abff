import { describe, expect, it } from 'vitest';
import { countByState, translate } from '@coldwatch/contract';
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

describe('monitor page and counts (the board at scale: filtered, searched and paged on the server)', () => {
  const page = (cookie: string, query: string) => call(t, cookie, 'GET', `/service/dm/monitorPage?${query}`);
  const counts = (cookie: string, query = '') => call(t, cookie, 'GET', `/service/dm/monitorCounts?${query}`);

  it('pages the carriers in board order, searches names and sensor numbers, filters by state and counts over every carrier', async () => {
    await t.db.query('UPDATE sensor SET last_temp = 9.5, status = 1 WHERE id = $1', [a.sensorId]);
    for (const name of ['AlphaShelfOne', 'AlphaShelfTwo', 'AlphaShelfThree']) await call(t, a.cookie, 'POST', '/service/carrier/add', { name, type: 2, sceneId: a.sceneId, tempMin: 2, tempMax: 8 });
    const list = await call(t, a.cookie, 'GET', '/service/dm/monitorList');
    const all = list.map((c: any) => c.id);
    // The earlier test's van (alarm off: stopped) is in the list too; the new shelves have no sensor: offline.
    const offlineIds = list.filter((c: any) => c.state === 'offline').map((c: any) => c.id);
    expect(offlineIds).toHaveLength(3);

    const first = await page(a.cookie, 'iDisplayStart=0&iDisplayLength=2');
    expect(first).toMatchObject({ total: all.length, iDisplayStart: 0, iDisplayLength: 2 });
    expect(first.rows.map((c: any) => c.id)).toEqual(all.slice(0, 2));
    const second = await page(a.cookie, 'iDisplayStart=2&iDisplayLength=2');
    expect(second.rows.map((c: any) => c.id)).toEqual(all.slice(2, 4));
    expect(first.rows[0]).toMatchObject({ name: 'AlphaFridge', state: 'abnormal', sensors: [{ devNo: a.devNo, temp: 9.5, tempState: 'high' }] });

    expect((await page(a.cookie, `search=${a.devNo.toLowerCase()}`)).rows.map((c: any) => c.name)).toEqual(['AlphaFridge']);
    expect((await page(a.cookie, 'search=shelft')).rows.map((c: any) => c.name).sort()).toEqual(['AlphaShelfThree', 'AlphaShelfTwo']);

    const abnormal = await page(a.cookie, 'state=abnormal');
    expect(abnormal.rows.map((c: any) => c.name)).toEqual(['AlphaFridge']);
    const offline = await page(a.cookie, 'state=offline&iDisplayLength=2&iDisplayStart=1');
    expect(offline.total).toBe(3);
    expect(offline.rows.map((c: any) => c.id)).toEqual(offlineIds.slice(1, 3));
    expect((await page(a.cookie, 'state=normal')).total).toBe(0);

    expect(await counts(a.cookie)).toEqual({ carriers: all.length, sensors: 1, online: 1, offline: 0, alarm: 1, filters: { all: all.length, abnormal: 1, offline: 3, normal: 0 } });
    expect(await counts(a.cookie, 'state=offline')).toMatchObject({ carriers: 3, sensors: 0, alarm: 0 });
    // A sensor offline puts its carrier under the offline filter too, as the board always did.
    await t.db.query('UPDATE sensor SET status = 0 WHERE id = $1', [a.sensorId]);
    expect(await counts(a.cookie)).toMatchObject({ sensors: 1, online: 0, offline: 1, alarm: 0, filters: { offline: 4, abnormal: 0 } });
    await t.db.query('UPDATE sensor SET status = 1 WHERE id = $1', [a.sensorId]);

    // Back in its zone and its exception (the detail test's) over: normal, and no longer in alarm.
    await t.db.query('UPDATE sensor SET last_temp = 5 WHERE id = $1', [a.sensorId]);
    expect((await page(a.cookie, 'state=normal')).total).toBe(0);
    await t.db.query('UPDATE exception_record SET ongoing = false WHERE carrier_id = $1', [a.carrierId]);
    expect((await page(a.cookie, 'state=normal')).rows.map((c: any) => c.name)).toEqual(['AlphaFridge']);
    expect(await counts(a.cookie, `search=${a.devNo}`)).toMatchObject({ carriers: 1, sensors: 1, alarm: 0, filters: { all: 1, abnormal: 0, offline: 0, normal: 1 } });
  });

  it("sums up the scope's carriers as the whole list would (home's tiles), with the alarms that reach nobody", async () => {
    const list = await call(t, a.cookie, 'GET', '/service/dm/monitorList');
    const summary = await call(t, a.cookie, 'GET', '/service/dm/monitorSummary');
    const byState = { normal: 0, abnormal: 0, offline: 0, stopped: 0 } as Record<string, number>;
    const byStatus: Record<string, number> = {};
    for (const c of list) {
      byState[c.state] += 1;
      byStatus[c.status] = (byStatus[c.status] ?? 0) + 1;
    }
    const nobody = list.filter((c: any) => c.alarmOn && c.reachesNobody);
    expect(nobody.length).toBeGreaterThan(0); // the shelves have no contact
    expect(summary).toEqual({
      total: list.length,
      byState,
      byStatus,
      boundSensors: list.reduce((n: number, c: any) => n + c.sensors.length, 0),
      alarmOff: list.filter((c: any) => !c.alarmOn).length,
      reachNobody: nobody.length,
      reachNobodyNames: nobody.slice(0, 3).map((c: any) => c.name),
      // table.test.ts checks these against the list.
      alarms: expect.objectContaining({ on: expect.any(Number) }),
    });
    const beta = await t.login('beta');
    expect((await call(t, beta, 'GET', `/service/dm/monitorSummary?customerId=${a.customerId}`)).total).toBe(0);
  });

  it("counts the overview's groups and finds its sensors not reporting as the whole list would", async () => {
    await t.db.query('UPDATE sensor SET status = 0 WHERE id = $1', [a.sensorId]);
    const list = await call(t, a.cookie, 'GET', '/service/dm/monitorList');
    const overview = await call(t, a.cookie, 'GET', '/service/dm/monitorOverview');
    const state = (c: any) => c.state;
    expect(overview.byType).toEqual(countByState(list, (c: any) => c.type, () => '', state));
    expect(overview.byScene).toEqual(countByState(list, (c: any) => c.sceneId, (c: any) => c.sceneLabel, state).map((g) => ({ ...g, customerName: list[0].customerName })));
    const offline = list.flatMap((c: any) => c.sensors.filter((s: any) => s.status !== 1).map((s: any) => ({ id: s.id, devNo: s.devNo, status: s.status, lastTs: s.lastTs, carrierId: c.id, carrierName: c.name })));
    expect(offline.map((s: any) => s.devNo)).toEqual([a.devNo]);
    expect(overview.offlineSensors).toEqual({ total: offline.length, rows: offline });
    await t.db.query('UPDATE sensor SET status = 1 WHERE id = $1', [a.sensorId]);
    expect((await call(t, a.cookie, 'GET', '/service/dm/monitorOverview')).offlineSensors).toEqual({ total: 0, rows: [] });
    const beta = await t.login('beta');
    expect(JSON.stringify(await call(t, beta, 'GET', '/service/dm/monitorOverview'))).not.toContain(a.devNo);
  });

  it("never shows another customer's carriers; the platform sees both", async () => {
    const beta = await t.login('beta');
    const seen = await page(beta, 'iDisplayLength=100');
    expect(seen.rows.map((c: any) => c.customerId)).not.toContain(a.customerId);
    expect((await counts(beta)).carriers).toBe(seen.total);
    expect((await page(beta, `customerId=${a.customerId}`)).total).toBe(0);
    const root = await t.login('admin');
    expect((await page(root, `customerId=${a.customerId}&iDisplayLength=100`)).rows.map((c: any) => c.customerId)).toEqual(expect.arrayContaining([a.customerId]));
    expect((await page(root, 'iDisplayLength=100')).rows.map((c: any) => c.id)).toEqual(expect.arrayContaining([a.carrierId, b.carrierId]));
  });

  it('refuses an unknown state filter and a page longer than 100, in the caller\'s language', async () => {
    const bad = await t.app.inject({ method: 'GET', url: '/service/dm/monitorPage?state=broken', headers: { cookie: a.cookie, 'accept-language': 'en-US' } });
    expect(bad.json().state.code).not.toBe(200000);
    expect(bad.json().state.msg).toContain(translate('errors.rule.monitorFilter', 'en-US'));
    const long = await t.app.inject({ method: 'GET', url: '/service/dm/monitorPage?iDisplayLength=101', headers: { cookie: a.cookie } });
    expect(long.json().state.code).not.toBe(200000);
    expect((await page(a.cookie, 'iDisplayLength=100')).iDisplayLength).toBe(100);
  });
});
