import { describe, expect, it } from 'vitest';
import type { TestCtx } from '../../../test/helper.js';
import { call, withTwoCustomers, type Records } from '../shared/records.fixture.js';
import { runExport } from '../../jobs/export/index.js';
import type { ExportPayload } from '../download/exports.js';

/*
 * The monitoring-point table at scale (docs/scaling.md "The board at 100,000 points"): paged,
 * filtered by the exact state, searched and sorted (live values too) on the server, exported as a
 * job; home's alarm mode widget summed on the server. The whole monitor list is the oracle: every
 * answer here must be what the browser used to make of it.
 */

let t: TestCtx;
let a: Records;
withTwoCustomers((c) => ({ t, a } = c));

const table = (cookie: string, query = '') => call(t, cookie, 'GET', `/service/dm/monitorTable?${query.includes('iDisplayLength') ? '' : 'iDisplayLength=100&'}${query}`);
const names = async (cookie: string, query = '') => (await table(cookie, query)).rows.map((r: { name: string }) => r.name);
const HOUR = 3_600_000;

/** A's carriers besides AlphaFridge (5 °C, in zone, normal): one too warm, one cold and older, one without sensors, one with its alarm off in a scene of its own. */
async function seed() {
  const add = (body: object) => call(t, a.cookie, 'POST', '/service/carrier/add', { type: 2, sceneId: a.sceneId, tempMin: 2, tempMax: 8, ...body });
  const sensor = async (carrierId: number, devNo: string, temp: number, agoMs: number) => {
    const s = await call(t, a.cookie, 'POST', '/service/sensor/add', { devNo, type: 'zigbee_th', gatewayId: a.gatewayId, carrierId });
    await t.db.query(`UPDATE sensor SET status = 1, last_temp = $2, last_hum = 50, last_ts = now() - make_interval(secs => $3::float8 / 1000) WHERE id = $1`, [s.id, temp, agoMs]);
  };
  await sensor((await add({ name: 'Bravo' })).id, 'AlphaT2', 9.5, 2 * HOUR);
  await sensor((await add({ name: 'Charlie' })).id, 'AlphaT3', 3, 3 * HOUR);
  await add({ name: 'Delta' });
  const other = await call(t, a.cookie, 'POST', '/service/scene/add', { label: 'AlphaAnnex' });
  await add({ name: 'Echo', alarmOn: false, sceneId: other.id });
  return other.id as number;
}

describe('monitoring-point table', () => {
  let annex: number;

  it('pages in board order, sorts by name, by state (who needs a look first) and by live value and time, nulls last either way', async () => {
    annex = await seed();
    const list = await call(t, a.cookie, 'GET', '/service/dm/monitorList');
    const first = await table(a.cookie, 'iDisplayStart=0&iDisplayLength=2');
    expect(first.total).toBe(5);
    expect(first.rows.map((r: { id: number }) => r.id)).toEqual(list.slice(0, 2).map((c: { id: number }) => c.id));
    expect((await table(a.cookie, 'iDisplayStart=4&iDisplayLength=2')).rows.map((r: { id: number }) => r.id)).toEqual([list[4].id]);
    // A row is the whole list's carrier, its live sensors included.
    expect(first.rows[0]).toEqual(list[0]);

    expect(await names(a.cookie, 'sort=name')).toEqual(['AlphaFridge', 'Bravo', 'Charlie', 'Delta', 'Echo']);
    expect(await names(a.cookie, 'sort=name&order=desc')).toEqual(['Echo', 'Delta', 'Charlie', 'Bravo', 'AlphaFridge']);
    expect(await names(a.cookie, 'sort=state')).toEqual(['Bravo', 'Delta', 'AlphaFridge', 'Charlie', 'Echo']);
    expect(await names(a.cookie, 'sort=temp')).toEqual(['Charlie', 'AlphaFridge', 'Bravo', 'Delta', 'Echo']);
    expect(await names(a.cookie, 'sort=temp&order=desc')).toEqual(['Bravo', 'AlphaFridge', 'Charlie', 'Delta', 'Echo']);
    expect(await names(a.cookie, 'sort=ts&order=desc')).toEqual(['AlphaFridge', 'Bravo', 'Charlie', 'Delta', 'Echo']);
    expect(await names(a.cookie, 'sort=ts&order=desc&iDisplayStart=1&iDisplayLength=2')).toEqual(['Bravo', 'Charlie']);
  });

  it('filters by the exact state (stopped too), a search of names and sensor numbers and the scene subtree, before paging', async () => {
    expect(await names(a.cookie, 'state=stopped')).toEqual(['Echo']);
    expect(await names(a.cookie, 'state=offline')).toEqual(['Delta']);
    expect(await names(a.cookie, 'state=normal&sort=temp&order=desc')).toEqual(['AlphaFridge', 'Charlie']);
    const page = await table(a.cookie, 'state=normal&sort=temp&iDisplayStart=1&iDisplayLength=1');
    expect(page.total).toBe(2);
    expect(page.rows.map((r: { name: string }) => r.name)).toEqual(['AlphaFridge']);
    expect(await names(a.cookie, 'search=alphat2')).toEqual(['Bravo']);
    expect(await names(a.cookie, `sceneId=${annex}`)).toEqual(['Echo']);
    expect((await table(a.cookie, 'state=abnormal&search=charlie')).total).toBe(0);
  });

  it("shows nothing of another customer's, whichever path (SQL or the scan) answers", async () => {
    const beta = await t.login('beta');
    for (const q of ['', 'sort=name', 'sort=temp', 'state=normal', `customerId=${a.customerId}`, `customerId=${a.customerId}&sort=state`, 'search=Alpha']) {
      const seen = await table(beta, q);
      expect(seen.rows.map((r: { customerId: number }) => r.customerId)).not.toContain(a.customerId);
      expect(JSON.stringify(seen)).not.toContain('Alpha');
    }
    expect((await table(beta, `customerId=${a.customerId}&sort=temp`)).total).toBe(0);
    const root = await t.login('admin');
    expect(await names(root, `customerId=${a.customerId}&sort=temp`)).toEqual(['Charlie', 'AlphaFridge', 'Bravo', 'Delta', 'Echo']);
  });

  it('refuses a sort or a state it does not know', async () => {
    for (const q of ['sort=volt', 'state=broken', 'order=up']) {
      const res = await t.app.inject({ method: 'GET', url: `/service/dm/monitorTable?${q}`, headers: { cookie: a.cookie } });
      expect(res.json().state.code).not.toBe(200000);
    }
  });

  it('counts the alarm modes on the server as the widget counted the whole list', async () => {
    const charlie = (await table(a.cookie, 'search=Charlie')).rows[0];
    await t.db.query(`UPDATE carrier SET paused_until = now() + interval '1 hour' WHERE id = $1`, [charlie.id]);
    await t.db.query(`UPDATE carrier SET temp_min = NULL, temp_max = NULL WHERE name = 'Delta' AND customer_id = $1`, [a.customerId]);
    const list = await call(t, a.cookie, 'GET', '/service/dm/monitorList');
    const now = Date.now();
    const want = { on: 0, off: 0, noTrigger: 0, paused: 0, byChannel: { email: 0, sms: 0, voice: 0 } as Record<string, number> };
    for (const c of list) {
      if (!c.hasTrigger) want.noTrigger += 1;
      else if (!c.alarmOn) want.off += 1;
      else if (c.pausedUntil !== null && c.pausedUntil > now) want.paused += 1;
      else want.on += 1;
      if (c.alarmOn) for (const ch of c.channels) want.byChannel[ch] += 1;
    }
    expect(want).toMatchObject({ on: 2, off: 1, noTrigger: 1, paused: 1 });
    expect((await call(t, a.cookie, 'GET', '/service/dm/monitorSummary')).alarms).toEqual(want);
    const beta = await t.login('beta');
    expect((await call(t, beta, 'GET', `/service/dm/monitorSummary?customerId=${a.customerId}`)).alarms).toEqual({ on: 0, off: 0, noTrigger: 0, paused: 0, byChannel: { email: 0, sms: 0, voice: 0 } });
  });

  it("exports the whole filtered view in the table's order as a job, and nothing of it to another customer", async () => {
    const created = await call(t, a.cookie, 'POST', '/service/exportTask/monitorPoints', { state: 'all', sort: 'temp', order: 'desc', format: 'csv' });
    expect(created.name).toMatch(/^monitoring-points-\d{8}-\d{4}\.csv$/);
    const job = await t.db.one<{ id: number; payload: ExportPayload }>(`SELECT id, payload FROM job WHERE name = 'export' AND state = 'queued' AND (payload->>'recordId')::int = $1`, [created.id]);
    await runExport(t.db, job!.payload);
    const file = await t.app.inject({ method: 'GET', url: `/service/download/record/download?id=${created.id}`, headers: { cookie: a.cookie } });
    const lines = file.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines.map((l) => l.split(',')[0])).toEqual([expect.any(String), 'Bravo', 'AlphaFridge', 'Charlie', 'Delta', 'Echo']);
    expect(lines[1]).toContain('9.5');
    const beta = await t.login('beta');
    const theirs = await call(t, beta, 'POST', '/service/exportTask/monitorPoints', { customerId: a.customerId, format: 'csv' });
    const theirJob = await t.db.one<{ payload: ExportPayload }>(`SELECT payload FROM job WHERE name = 'export' AND (payload->>'recordId')::int = $1`, [theirs.id]);
    await runExport(t.db, theirJob!.payload);
    const empty = await t.app.inject({ method: 'GET', url: `/service/download/record/download?id=${theirs.id}`, headers: { cookie: beta } });
    expect(empty.body.replace(/^\uFEFF/, '').trim().split('\r\n')).toHaveLength(1);
  });
});
