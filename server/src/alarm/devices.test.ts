import { describe, expect, it } from 'vitest';
import type { TestCtx } from '../../test/helper.js';
import { call, withTwoCustomers, type Records } from '../modules/shared/records.fixture.js';
import { scanDevices } from '../ingest/presence.js';
import { runRelaySwitches } from '../jobs/relaySwitch.js';
import type { ExceptionEvent } from '../platform/events.js';

/*
 * Connection, power and battery exceptions (docs/alarms.md "Connection, power and battery"),
 * each category: opened once, ended when the device says so, one ongoing per subject and
 * category, its notices written once in the customer's language, never seen by another customer.
 */

let t: TestCtx;
let a: Records;
let b: Records;
withTwoCustomers((c) => ({ t, a, b } = c));

interface Ex {
  id: number;
  category: string;
  type: string;
  ongoing: boolean;
  start: number;
  end: number | null;
  last: number | null;
  carrier_id: number | null;
  sensor_id: number | null;
  gateway_id: number | null;
  display_id: number | null;
  relay_id: number | null;
  first_value: number | null;
  peak_value: number | null;
  limit_min: number | null;
}

const exceptions = (category: string, customerId = a.customerId) =>
  t.db.query<Ex>(
    `SELECT id, category, type, ongoing, (extract(epoch FROM start_ts) * 1000)::float8 AS start, (extract(epoch FROM end_ts) * 1000)::float8 AS "end",
            (extract(epoch FROM last_ts) * 1000)::float8 AS last, carrier_id, sensor_id, gateway_id, display_id, relay_id, first_value, peak_value, limit_min
       FROM exception_record WHERE category = $1 AND customer_id = $2 ORDER BY id`,
    [category, customerId],
  );
const notices = (exceptionId: number) => t.db.query<{ recipient: string; subject: string; content: string }>('SELECT recipient, subject, content FROM notice_log WHERE exception_id = $1 ORDER BY recipient', [exceptionId]);
const post = (rec: Records, kind: string, body: unknown) =>
  t.app.inject({ method: 'POST', url: `/ingest/v1/${rec.gatewaySn}/${kind}`, headers: { authorization: `Bearer ${rec.secret}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
/** A scan, with the exception events it told the bus. */
async function scan() {
  const events: ExceptionEvent[] = [];
  const on = (e: ExceptionEvent) => events.push(e);
  t.bus.on('exception', on);
  const figures = await scanDevices(t.db, t.bus);
  t.bus.off('exception', on);
  return { figures, events };
}
/** Everything of A quiet and fresh again: no ongoing device exception, sensor and gateway running. */
async function reset() {
  // Ended where they began: an end at now() would cover the times the next test sends (a late event is judged against it).
  await t.db.query(`UPDATE exception_record SET ongoing = false, end_ts = start_ts WHERE ongoing AND type <> 'data'`);
  await t.db.query(`UPDATE sensor SET status = 1, last_ts = now() - interval '1 minute', last_volt = 3.0, sample_interval = 60 WHERE id = ANY($1)`, [[a.sensorId, b.sensorId]]);
  await t.db.query(`UPDATE gateway SET status = 1, last_seen_at = now() WHERE id = ANY($1)`, [[a.gatewayId, b.gatewayId]]);
  await t.db.query(`DELETE FROM monitor_task`);
}
const setEmail = (rec: Records, email: string) => t.db.query('UPDATE contact SET email = $2 WHERE id = $1', [rec.contactId, email]);

describe('sensor connection (sensor_connect)', () => {
  it('a running sensor silent past its task opens one exception when the scan marks it offline, with one notice per contact in the customer language', async () => {
    await reset();
    await setEmail(a, 'nurse@alpha.test');
    const last = await t.db.one<{ t: number }>(`UPDATE sensor SET last_ts = now() - interval '11 minutes' WHERE id = $1 RETURNING (extract(epoch FROM last_ts) * 1000)::float8 AS t`, [a.sensorId]);
    const { figures, events } = await scan();
    expect(figures).toMatchObject({ offline: 1, opened: 1 });
    expect((await t.db.one('SELECT status FROM sensor WHERE id = $1', [a.sensorId]))!.status).toBe(0);
    const [ex] = await exceptions('sensor_connect');
    // It starts when the silence passed the default task (10 minutes after the last reading).
    expect(ex).toMatchObject({ type: 'offline', ongoing: true, sensor_id: a.sensorId, carrier_id: a.carrierId, gateway_id: a.gatewayId, last: last!.t, start: last!.t + 600_000 });
    expect(events).toEqual([expect.objectContaining({ customerId: a.customerId, exceptionId: Number(ex.id), sensorId: a.sensorId, category: 'sensor_connect', ongoing: true })]);
    const mails = await notices(ex.id);
    // Alpha's users chose no language: Chinese, the product's default.
    expect(mails).toEqual([expect.objectContaining({ recipient: 'nurse@alpha.test', subject: '【冷链告警】AlphaFridge：传感器离线（AlphaT1）' })]);
    expect(mails[0].content).toContain('离线时间');
    // B's fresh sensor was left alone.
    expect(await exceptions('sensor_connect', b.customerId)).toEqual([]);
  });

  it('a second scan opens nothing more and writes no more notices', async () => {
    const before = await exceptions('sensor_connect');
    const { figures } = await scan();
    expect(figures).toMatchObject({ offline: 0, opened: 0, notices: 0 });
    expect(await exceptions('sensor_connect')).toEqual(before);
    expect(await notices(before[0].id)).toHaveLength(1);
  });

  it("the sensor's next reading ends it at that reading's time, in the writer's transaction", async () => {
    const [open] = await exceptions('sensor_connect');
    const events: ExceptionEvent[] = [];
    const on = (e: ExceptionEvent) => events.push(e);
    t.bus.on('exception', on);
    const ts = Date.now() - 1000;
    expect((await post(a, 'data', { readings: [{ dev: a.devNo, ts, temp: 5 }] })).json()).toMatchObject({ accepted: 1 });
    t.bus.off('exception', on);
    const [ex] = await exceptions('sensor_connect');
    expect(ex).toMatchObject({ id: open.id, ongoing: false, end: ts });
    expect((await t.db.one('SELECT status FROM sensor WHERE id = $1', [a.sensorId]))!.status).toBe(1);
    expect(events).toEqual([expect.objectContaining({ exceptionId: Number(open.id), category: 'sensor_connect', ongoing: false })]);
  });

  it('a stopped task raises nothing, though the sensor still goes offline; a running task never judges below 3 × the sample interval + 60 s', async () => {
    await reset();
    const admin = a.cookie;
    await call(t, admin, 'PUT', '/service/monitorTask/update', { family: 'zbp', intervalValue: 1, intervalUnit: 'minute', status: 0 });
    await t.db.query(`UPDATE sensor SET last_ts = now() - interval '11 minutes' WHERE id = $1`, [a.sensorId]);
    expect((await scan()).figures).toMatchObject({ offline: 1, opened: 0 });
    expect((await exceptions('sensor_connect')).filter((e) => e.ongoing)).toEqual([]);

    await reset();
    await call(t, admin, 'PUT', '/service/monitorTask/update', { family: 'zbp', intervalValue: 1, intervalUnit: 'minute', status: 1 });
    // One minute of task, but a sample interval of 60 s: offline only after 240 s.
    await t.db.query(`UPDATE sensor SET last_ts = now() - interval '3 minutes' WHERE id = $1`, [a.sensorId]);
    expect((await scan()).figures).toMatchObject({ offline: 0, opened: 0 });
    await t.db.query(`UPDATE sensor SET last_ts = now() - interval '5 minutes', sample_interval = 10 WHERE id = $1`, [a.sensorId]);
    expect((await scan()).figures).toMatchObject({ offline: 1, opened: 1 });
    const [ex] = (await exceptions('sensor_connect')).filter((e) => e.ongoing);
    // Ten-second samples: a floor of 90 s, above the task's minute: 90 s count.
    expect(ex.start - ex.last!).toBe(90_000);
  });

  it('a sensor whose monitoring point has its alarm off, or no point, raises nothing', async () => {
    await reset();
    await t.db.query('UPDATE carrier SET alarm_on = false WHERE id = $1', [a.carrierId]);
    await t.db.query(`UPDATE sensor SET last_ts = now() - interval '20 minutes' WHERE id = $1`, [a.sensorId]);
    expect((await scan()).figures).toMatchObject({ offline: 1, opened: 0 });
    await t.db.query('UPDATE carrier SET alarm_on = true WHERE id = $1', [a.carrierId]);
  });
});

describe('gateway, display and relay connection', () => {
  it('a silent gateway opens gateway_connect once, mailed to the contacts of the points it serves; its heartbeat ends it', async () => {
    await reset();
    await setEmail(a, 'nurse@alpha.test');
    await t.db.query(`UPDATE gateway SET last_seen_at = now() - interval '6 minutes' WHERE id = $1`, [a.gatewayId]);
    expect((await scan()).figures).toMatchObject({ offline: 1, opened: 1 });
    expect((await scan()).figures).toMatchObject({ offline: 0, opened: 0 });
    const [ex] = (await exceptions('gateway_connect')).filter((e) => e.ongoing);
    expect(ex).toMatchObject({ type: 'offline', gateway_id: a.gatewayId, sensor_id: null, carrier_id: a.carrierId });
    const mails = await notices(ex.id);
    expect(mails.map((m) => m.recipient)).toEqual(['nurse@alpha.test']);
    expect(mails[0].subject).toBe(`【冷链告警】AlphaFridge：网关离线（${a.gatewaySn} AlphaGateway）`);
    expect((await post(a, 'heartbeat', { ts: Date.now(), power: 'normal' })).json()).toMatchObject({ accepted: 1 });
    expect((await exceptions('gateway_connect')).find((e) => e.id === ex.id)).toMatchObject({ ongoing: false });
    expect((await t.db.one('SELECT status FROM gateway WHERE id = $1', [a.gatewayId]))!.status).toBe(1);
  });

  it("a display and a relay lose their connection with their gateway's presence, by their own task; heard again, both end", async () => {
    await reset();
    const display = (await t.db.one<{ id: number }>(`INSERT INTO display (customer_id, dev_no, name, gateway_id, carrier_id, status) VALUES ($1, 'AlphaD9', 'AlphaScreen', $2, $3, 1) RETURNING id`, [a.customerId, a.gatewayId, a.carrierId]))!.id;
    const relay = (await t.db.one<{ id: number }>(`INSERT INTO relay (customer_id, dev_no, name, gateway_id, carrier_id, status) VALUES ($1, 'AlphaR9', 'AlphaFan', $2, $3, 1) RETURNING id`, [a.customerId, a.gatewayId, a.carrierId]))!.id;
    // The relay's task is longer than the silence: only the display is judged lost.
    await call(t, a.cookie, 'PUT', '/service/monitorTask/update', { family: 'relay', intervalValue: 1, intervalUnit: 'hour', status: 1 });
    await call(t, a.cookie, 'PUT', '/service/monitorTask/update', { family: 'display', intervalValue: 2, intervalUnit: 'minute', status: 1 });
    await t.db.query(`UPDATE gateway SET last_seen_at = now() - interval '3 minutes' WHERE id = $1`, [a.gatewayId]);
    await scan();
    await scan();
    expect((await exceptions('display_connect')).filter((e) => e.ongoing)).toEqual([expect.objectContaining({ display_id: display, gateway_id: a.gatewayId, carrier_id: a.carrierId })]);
    expect(await exceptions('relay_connect')).toEqual([]);
    // The gateway itself is not offline yet (5 minutes): data from it is its presence.
    await call(t, a.cookie, 'PUT', '/service/monitorTask/update', { family: 'relay', intervalValue: 2, intervalUnit: 'minute', status: 1 });
    await scan();
    expect((await exceptions('relay_connect')).filter((e) => e.ongoing)).toEqual([expect.objectContaining({ relay_id: relay })]);
    expect((await post(a, 'heartbeat', { ts: Date.now() })).json()).toMatchObject({ accepted: 1 });
    expect([...(await exceptions('display_connect')), ...(await exceptions('relay_connect'))].filter((e) => e.ongoing)).toEqual([]);
    // Heard, then silent again: a new silence, a new exception; a stopped display raises none.
    // (As if they had ended ten minutes ago, so that the gateway was heard after them.)
    await t.db.query(`UPDATE exception_record SET start_ts = start_ts - interval '10 minutes', end_ts = end_ts - interval '10 minutes' WHERE display_id = $1 OR relay_id = $2`, [display, relay]);
    await t.db.query('UPDATE display SET status = 2 WHERE id = $1', [display]);
    await t.db.query(`UPDATE gateway SET last_seen_at = now() - interval '3 minutes' WHERE id = $1`, [a.gatewayId]);
    await scan();
    expect((await exceptions('display_connect')).filter((e) => e.ongoing)).toEqual([]);
    expect((await exceptions('relay_connect')).filter((e) => e.ongoing)).toHaveLength(1);
    await t.db.query('DELETE FROM exception_record WHERE display_id = $1 OR relay_id = $2', [display, relay]);
    await t.db.query('DELETE FROM display WHERE id = $1', [display]);
    await t.db.query('DELETE FROM relay WHERE id = $1', [relay]);
  });
});

describe('gateway power failure (gateway_blackout)', () => {
  it('power_fail opens it, a redelivery changes nothing, power_restore ends it at its time', async () => {
    await reset();
    const fail = Date.now() - 60_000;
    expect((await post(a, 'event', { ts: fail, type: 'power_fail' })).json()).toMatchObject({ accepted: 1 });
    expect((await post(a, 'event', { ts: fail, type: 'power_fail' })).json()).toMatchObject({ duplicates: 1 });
    const [ex] = await exceptions('gateway_blackout');
    expect(ex).toMatchObject({ type: 'power', ongoing: true, start: fail, gateway_id: a.gatewayId });
    expect((await notices(ex.id)).map((m) => m.subject)).toEqual([`【冷链告警】AlphaFridge：网关断电（${a.gatewaySn} AlphaGateway）`]);
    const restore = Date.now() - 10_000;
    expect((await post(a, 'event', { ts: restore, type: 'power_restore' })).json()).toMatchObject({ accepted: 1 });
    expect(await exceptions('gateway_blackout')).toEqual([expect.objectContaining({ id: ex.id, ongoing: false, end: restore })]);
  });

  it('a power_fail that arrives after its restore is recorded as already over', async () => {
    const fail = Date.now() - 50 * 60_000;
    await post(a, 'event', { ts: fail + 5 * 60_000, type: 'power_restore' });
    await post(a, 'event', { ts: fail, type: 'power_fail' });
    const ex = (await exceptions('gateway_blackout')).find((e) => e.start === fail)!;
    expect(ex).toMatchObject({ ongoing: false, end: fail + 5 * 60_000 });
    expect((await notices(ex.id))[0].subject).toContain('已结束');
  });

  it('a gateway without a point of its own files it under the one point its sensors serve', async () => {
    await reset();
    await t.db.query('UPDATE gateway SET carrier_id = NULL WHERE id = $1', [a.gatewayId]);
    // (Three hours back, clear of the times the other tests send, and without their restores,
    // which would end a failure before them at once.)
    await t.db.query('DELETE FROM gateway_event WHERE gateway_id = $1', [a.gatewayId]);
    await post(a, 'event', { ts: Date.now() - 3 * 3_600_000, type: 'power_fail' });
    expect((await exceptions('gateway_blackout')).filter((e) => e.ongoing)).toEqual([expect.objectContaining({ carrier_id: a.carrierId })]);
    // Serving two points, it is filed under none (the mail names both).
    await post(a, 'event', { ts: Date.now() - 3 * 3_600_000 + 10_000, type: 'power_restore' });
    const other = await call(t, a.cookie, 'POST', '/service/carrier/add', { name: 'AlphaFreezer', type: 2, sceneId: a.sceneId, tempMin: -25, tempMax: -15 });
    const sensor = await call(t, a.cookie, 'POST', '/service/sensor/add', { devNo: 'AlphaT7', type: 'zigbee_t', gatewayId: a.gatewayId, carrierId: other.id });
    await post(a, 'event', { ts: Date.now() - 3 * 3_600_000 + 20_000, type: 'power_fail' });
    expect((await exceptions('gateway_blackout')).filter((e) => e.ongoing)).toEqual([expect.objectContaining({ carrier_id: null })]);
    await t.db.query('UPDATE gateway SET carrier_id = $2 WHERE id = $1', [a.gatewayId, a.carrierId]);
    await t.db.query('DELETE FROM sensor WHERE id = $1', [sensor.id]);
  });

  it("the heartbeat's power: standby (on its battery) opens it, normal (mains) ends it", async () => {
    await reset();
    const ts = Date.now() - 5_000;
    await post(a, 'heartbeat', { ts, power: 'standby' });
    await post(a, 'heartbeat', { ts: ts + 1000, power: 'standby' });
    expect((await exceptions('gateway_blackout')).filter((e) => e.ongoing)).toEqual([expect.objectContaining({ start: ts })]);
    await post(a, 'heartbeat', { ts: ts + 2000, power: 'normal' });
    expect((await exceptions('gateway_blackout')).filter((e) => e.ongoing)).toEqual([]);
  });
});

describe('low battery (low_battery)', () => {
  it("a reading's volt below its type's threshold opens it; it follows the lowest value and ends only above threshold + margin", async () => {
    await reset();
    const reading = (volt: number, ago = 0) => post(a, 'data', { readings: [{ dev: a.devNo, ts: Date.now() - ago, temp: 5, volt }] });
    await reading(2.41, 3000);
    await scan();
    await reading(2.38, 2000);
    await scan();
    let [ex] = await exceptions('low_battery');
    // ZigBee (zbp): 2.5 V.
    expect(ex).toMatchObject({ type: 'power', ongoing: true, sensor_id: a.sensorId, limit_min: 2.5 });
    expect(ex.first_value).toBeCloseTo(2.41, 5);
    expect(ex.peak_value).toBeCloseTo(2.38, 5);
    await reading(2.55, 1000);
    await scan();
    expect((await exceptions('low_battery'))[0].ongoing).toBe(true);
    await reading(3.05);
    await scan();
    [ex] = await exceptions('low_battery');
    expect(ex.ongoing).toBe(false);
    expect(await exceptions('low_battery')).toHaveLength(1);
  });

  it('a low_battery event of a sensor opens it for that sensor', async () => {
    await reset();
    // (reset() ended the one before just now, which would cover the event's time.)
    await t.db.query(`DELETE FROM exception_record WHERE category = 'low_battery'`);
    const ts = Date.now() - 1000;
    expect((await post(a, 'event', { ts, type: 'low_battery', dev: a.devNo })).json()).toMatchObject({ accepted: 1 });
    expect((await exceptions('low_battery')).filter((e) => e.ongoing)).toEqual([expect.objectContaining({ start: ts, sensor_id: a.sensorId, first_value: null })]);
  });
});

describe('one ongoing per subject and category', () => {
  it.each([
    ['sensor', `INSERT INTO exception_record (customer_id, sensor_id, type, category, start_ts) VALUES ($1, $2, 'offline', 'sensor_connect', now())`, () => [a.customerId, a.sensorId]],
    ['gateway', `INSERT INTO exception_record (customer_id, gateway_id, type, category, start_ts) VALUES ($1, $2, 'power', 'gateway_blackout', now())`, () => [a.customerId, a.gatewayId]],
  ] as const)('a second ongoing row of the same %s and category is refused by its index', async (_kind, insert, params) => {
    await reset();
    await t.db.query(insert, params());
    await expect(t.db.query(insert, params())).rejects.toThrow(/exception_one_ongoing/);
    await reset();
  });

  it('a display and a relay each keep their own', async () => {
    await reset();
    const d = (await t.db.one<{ id: number }>(`INSERT INTO display (customer_id, dev_no, name, gateway_id) VALUES ($1, 'AlphaD8', 'AlphaScreen', $2) RETURNING id`, [a.customerId, a.gatewayId]))!.id;
    const d2 = (await t.db.one<{ id: number }>(`INSERT INTO display (customer_id, dev_no, name, gateway_id) VALUES ($1, 'AlphaD7', 'AlphaScreen2', $2) RETURNING id`, [a.customerId, a.gatewayId]))!.id;
    const insert = `INSERT INTO exception_record (customer_id, gateway_id, display_id, type, category, start_ts) VALUES ($1, $2, $3, 'offline', 'display_connect', now())`;
    await t.db.query(insert, [a.customerId, a.gatewayId, d]);
    // Two displays of one gateway: two subjects.
    await t.db.query(insert, [a.customerId, a.gatewayId, d2]);
    await expect(t.db.query(insert, [a.customerId, a.gatewayId, d])).rejects.toThrow(/exception_one_ongoing_display/);
    await t.db.query('DELETE FROM exception_record WHERE display_id = ANY($1)', [[d, d2]]);
    await t.db.query('DELETE FROM display WHERE id = ANY($1)', [[d, d2]]);
  });
});

describe('what a device exception is not', () => {
  it("another customer never sees them: B's exception list and notice log hold none of A's", async () => {
    await reset();
    await setEmail(a, 'nurse@alpha.test');
    await t.db.query(`UPDATE sensor SET last_ts = now() - interval '30 minutes' WHERE id = $1`, [a.sensorId]);
    await scan();
    const mine = await call(t, a.cookie, 'GET', '/service/exception/page?iDisplayLength=100&category=sensor_connect&ongoing=true');
    expect(mine.rows.map((r: { sensorId: number }) => r.sensorId)).toEqual([a.sensorId]);
    for (const url of ['/service/exception/page?iDisplayLength=100', '/service/notice/page?iDisplayLength=100']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie: b.cookie } });
      expect(res.body).not.toContain('Alpha');
      expect(res.body).not.toContain(a.devNo);
    }
  });

  it('they do not count as abnormal on the board', async () => {
    // The ongoing sensor_connect of the test before is on A's carrier.
    const list = await call(t, a.cookie, 'GET', '/service/dm/monitorList');
    const fridge = list.find((c: { id: number }) => c.id === a.carrierId);
    expect(fridge.openExceptions).toBe(0);
    expect(fridge.state).not.toBe('abnormal');
    const detail = await call(t, a.cookie, 'GET', `/service/dm/mpDetail?carrierId=${a.carrierId}`);
    expect(detail.openExceptions).toBe(0);
    // The board shows the device's own state instead.
    expect(fridge.sensors[0]).toMatchObject({ status: 0, ongoing: ['sensor_connect'] });
    // A data exception does (the control).
    const data = await t.db.one<{ id: number }>(`INSERT INTO exception_record (customer_id, carrier_id, sensor_id, type, category, start_ts) VALUES ($1, $2, $3, 'data', 'temp_high', now()) RETURNING id`, [a.customerId, a.carrierId, a.sensorId]);
    expect((await call(t, a.cookie, 'GET', '/service/dm/monitorList')).find((c: { id: number }) => c.id === a.carrierId).openExceptions).toBe(1);
    await t.db.query('DELETE FROM exception_record WHERE id = $1', [data!.id]);
  });

  it("a gateway's power failure shows on the sensors reporting through it", async () => {
    await reset();
    await post(a, 'event', { ts: Date.now() - 1000, type: 'power_fail' });
    const fridge = (await call(t, a.cookie, 'GET', '/service/dm/monitorList')).find((c: { id: number }) => c.id === a.carrierId);
    expect(fridge.sensors[0].ongoing).toEqual(['gateway_blackout']);
    expect(fridge.openExceptions).toBe(0);
    await post(a, 'event', { ts: Date.now(), type: 'power_restore' });
  });

  it('they do not switch an intelligent relay; a temperature exception does', async () => {
    await reset();
    const relay = await call(t, a.cookie, 'POST', '/service/relay/add', { devNo: 'AlphaR5', name: 'AlphaFan', gatewayId: a.gatewayId, carrierId: a.carrierId });
    await call(t, a.cookie, 'POST', '/service/relay/switch', { ids: [relay.id], mode: 'intelligent', cancelTime: 600 });
    await t.db.query(`UPDATE sensor SET last_ts = now() - interval '30 minutes' WHERE id = $1`, [a.sensorId]);
    await scan();
    await post(a, 'event', { ts: Date.now() - 1000, type: 'power_fail' });
    expect((await exceptions('sensor_connect')).filter((e) => e.ongoing)).toHaveLength(1);
    await runRelaySwitches(t.deps);
    expect(await call(t, a.cookie, 'GET', `/service/relay/detail?id=${relay.id}`)).toMatchObject({ switch: { conditionReached: false } });
    await t.db.query(`INSERT INTO exception_record (customer_id, carrier_id, sensor_id, type, category, start_ts) VALUES ($1, $2, $3, 'data', 'temp_high', now())`, [a.customerId, a.carrierId, a.sensorId]);
    await runRelaySwitches(t.deps);
    expect(await call(t, a.cookie, 'GET', `/service/relay/detail?id=${relay.id}`)).toMatchObject({ switch: { conditionReached: true } });
  });
});
