import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../test/helper.js';
import { enrol, type Enrolled } from './test-fixtures.js';
import { markSilentDevices } from './presence.js';
import { IngestService } from './service.js';
import { partitionName, monthStart } from './partitions.js';
import type { DeviceStatusEvent, LiveReading } from '../platform/events.js';

let t: TestCtx;
let gwA: Enrolled;
let gwB: Enrolled;

beforeAll(async () => {
  t = await setup();
  gwA = await enrol(t.db, t.tenants.a.customerId, 3);
  gwB = await enrol(t.db, t.tenants.b.customerId, 1);
  // A fresh PGlite database with hashed passwords takes long on a busy two-core machine.
}, 180_000);
afterAll(() => t?.close());

const post = (g: Enrolled, kind: string, body: unknown, secret = g.secret) =>
  t.app.inject({
    method: 'POST',
    url: `/ingest/v1/${g.sn}/${kind}`,
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });

const rows = (sensorId: number) =>
  t.db.query<{ t: number; temp: number }>(`SELECT (extract(epoch FROM ts) * 1000)::bigint AS t, temp FROM reading WHERE sensor_id = $1 ORDER BY ts`, [sensorId]);

describe('HTTP ingest', () => {
  it('stores every value exactly as its text would be stored (binary COPY), times to the millisecond, nulls as nulls', async () => {
    const gw = await enrol(t.db, t.tenants.b.customerId, 1);
    const s = gw.sensors[0];
    const ts = Date.now() - 7 * 60_000 + 123;
    const values = { temp: -20.13, hum: 99.99, volt: 3.012345, rssi: -71.5, lqi: 180, gas: 0.000001, door: 1 };
    expect((await post(gw, 'data', { readings: [{ dev: s.dev, ts, ...values }, { dev: s.dev, ts: ts + 1, temp: 4.46 }] })).json()).toMatchObject({ accepted: 2 });
    const [row] = await t.db.query(
      `SELECT (extract(epoch FROM ts) * 1000)::bigint AS t, temp = $2::real AS temp, hum = $3::real AS hum, volt = $4::real AS volt,
              rssi = $5::real AS rssi, lqi = $6::real AS lqi, gas = $7::real AS gas, door
         FROM reading WHERE sensor_id = $1 ORDER BY ts LIMIT 1`,
      [s.id, '-20.13', '99.99', '3.012345', '-71.5', '180', '0.000001'],
    );
    expect(row).toEqual({ t: ts, temp: true, hum: true, volt: true, rssi: true, lqi: true, gas: true, door: 1 });
    const [next] = await t.db.query(`SELECT temp = '4.46'::real AS temp, hum, volt, door FROM reading WHERE sensor_id = $1 ORDER BY ts DESC LIMIT 1`, [s.id]);
    expect(next).toEqual({ temp: true, hum: null, volt: null, door: null });
  });

  it('stores readings, counts a repeated message as duplicates, and files back-fill in time order', async () => {
    const [s] = gwA.sensors;
    const now = Date.now() - 60_000;
    const body = { readings: [{ dev: s.dev, ts: now, temp: 4.5, hum: 55.2, volt: 3.01, rssi: -71, lqi: 180 }] };
    expect((await post(gwA, 'data', body)).json()).toEqual({ accepted: 1, duplicates: 0, rejected: 0 });
    expect((await post(gwA, 'data', body)).json()).toEqual({ accepted: 0, duplicates: 1, rejected: 0 });
    const back = { readings: [2, 1, 3].map((h) => ({ dev: s.dev, ts: now - h * 3_600_000, temp: h })) };
    expect((await post(gwA, 'data', back)).json()).toEqual({ accepted: 3, duplicates: 0, rejected: 0 });
    expect((await rows(s.id)).map((r) => r.temp)).toEqual([3, 2, 1, 4.5]);
    // New and already stored readings in one message: only the new ones are counted and stored.
    const mixed = { readings: [{ dev: s.dev, ts: now - 2 * 3_600_000, temp: 9 }, { dev: s.dev, ts: now - 90 * 60_000, temp: 1.5 }, { dev: s.dev, ts: now, temp: 9 }] };
    expect((await post(gwA, 'data', mixed)).json()).toEqual({ accepted: 1, duplicates: 2, rejected: 0 });
    expect((await rows(s.id)).map((r) => r.temp)).toEqual([3, 2, 1.5, 1, 4.5]);
    const sensor = await t.db.one(`SELECT status, last_temp, (extract(epoch FROM last_ts) * 1000)::bigint AS last FROM sensor WHERE id = $1`, [s.id]);
    expect(sensor).toMatchObject({ status: 1, last: now });
    expect(sensor!.last_temp).toBeCloseTo(4.5);
    const q = await t.db.one(`SELECT customer_id, (extract(epoch FROM min_ts) * 1000)::bigint AS min, (extract(epoch FROM max_ts) * 1000)::bigint AS max, version FROM alarm_queue WHERE sensor_id = $1`, [s.id]);
    expect(q).toMatchObject({ customer_id: gwA.customerId, min: now - 3 * 3_600_000, max: now, version: 3 });
    const part = await t.db.one(`SELECT tableoid::regclass::text AS p FROM reading WHERE sensor_id = $1 AND ts = $2`, [s.id, new Date(now).toISOString()]);
    expect(part!.p).toBe(partitionName(monthStart(now)));
  });

  it('rejects malformed messages whole with a reason, and still takes the next good one', async () => {
    const [, s] = gwA.sensors;
    const bad = ['{"readings": [', { readings: [{ ts: Date.now() }] }, { readings: [{ dev: s.dev }] }, { readings: [{ dev: s.dev, ts: Date.now(), temp: 'NaN' }] }, '{"readings":[{"dev":"X","ts":1,"temp":1e999}]}'];
    const reasons = [];
    for (const b of bad) {
      const res = await post(gwA, 'data', b);
      expect(res.statusCode).toBe(400);
      reasons.push(res.json().error);
    }
    expect(reasons).toEqual(['bad JSON', 'readings[0].dev is missing', 'readings[0].ts is missing', 'readings[0].temp is not a finite number', 'readings[0].temp is not a finite number']);
    expect((await post(gwA, 'data', { readings: [{ dev: s.dev, ts: Date.now(), temp: 5 }] })).json()).toEqual({ accepted: 1, duplicates: 0, rejected: 0 });
    const logged = await t.db.query(`SELECT reason FROM ingest_reject WHERE gateway_sn = $1 AND reason = 'malformed'`, [gwA.sn]);
    expect(logged).toHaveLength(5);
  });

  it('answers 401 for a wrong secret or an unknown gateway', async () => {
    const body = { readings: [] };
    expect((await post(gwA, 'data', body, 'wrong')).statusCode).toBe(401);
    expect((await post(gwA, 'data', body, gwB.secret)).statusCode).toBe(401);
    expect((await post({ ...gwA, sn: 'FFFFFFFFFFFF' }, 'data', body)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: `/ingest/v1/${gwA.sn}/data`, payload: '{}' })).statusCode).toBe(401);
  });

  it('rejects a foreign device on its own and never stores it; also too old and future readings', async () => {
    const [s] = gwA.sensors;
    const foreign = gwB.sensors[0];
    const now = Date.now();
    const res = await post(gwA, 'data', {
      readings: [
        { dev: foreign.dev, ts: now, temp: 1 },
        { dev: 'NOPE0001', ts: now, temp: 1 },
        { dev: s.dev, ts: now - 2000 * 86_400_000, temp: 1 },
        { dev: s.dev, ts: now + 3_600_000, temp: 1 },
        { dev: s.dev, ts: now - 1000, temp: 7 },
      ],
    });
    expect(res.json()).toEqual({ accepted: 1, duplicates: 0, rejected: 4 });
    expect(await rows(foreign.id)).toEqual([]);
    const reasons = await t.db.query<{ reason: string }>(`SELECT reason FROM ingest_reject WHERE gateway_sn = $1 AND reason <> 'malformed' ORDER BY id`, [gwA.sn]);
    expect(reasons.map((r) => r.reason)).toEqual(['foreign_device', 'unknown_device', 'too_old', 'in_future']);
  });

  it('accepts back-fill up to the retention set in the setting table, never less than 5 years under GxP', async () => {
    const [, , s] = gwA.sensors;
    await t.db.query(`INSERT INTO setting (key, value) VALUES ('sensor_history_retention_days', '30')`);
    const backfill = (minusDays: number[]) => JSON.stringify({ readings: minusDays.map((d, i) => ({ dev: s.dev, ts: Date.now() - d * 86_400_000, temp: i })) });
    // The "not for GxP records" mode takes the 30 days as they are (a new service reads the setting afresh).
    const notGxp = new IngestService({ ...t.deps, config: { ...t.config, gxpRecords: false } });
    const gw = (await notGxp.authenticate(gwA.sn, gwA.secret))!;
    expect(await notGxp.handle(gw, 'data', backfill([40, 20]))).toEqual({ accepted: 1, duplicates: 0, rejected: 1 });
    // Under GxP the retention job keeps 5 years whatever is stored, and so a back-filling gateway may send them.
    const gxp = new IngestService(t.deps);
    expect(await gxp.handle(gw, 'data', backfill([41, 1800, 1830]))).toEqual({ accepted: 2, duplicates: 0, rejected: 1 });
    await t.db.query(`DELETE FROM setting WHERE key = 'sensor_history_retention_days'`);
  });

  it('publishes the newest reading and status changes on the bus after the commit', async () => {
    const g = await enrol(t.db, t.tenants.a.customerId, 1);
    const live: LiveReading[] = [];
    const status: DeviceStatusEvent[] = [];
    const onReading = (r: LiveReading) => live.push(r);
    const onStatus = (s: DeviceStatusEvent) => status.push(s);
    t.bus.on('reading', onReading);
    t.bus.on('deviceStatus', onStatus);
    const ts = Date.now() - 5000;
    await post(g, 'data', { readings: [{ dev: g.sensors[0].dev, ts: ts - 1000, temp: 1 }, { dev: g.sensors[0].dev, ts, temp: 2 }] });
    t.bus.off('reading', onReading);
    t.bus.off('deviceStatus', onStatus);
    expect(live).toEqual([expect.objectContaining({ customerId: g.customerId, sensorId: g.sensors[0].id, devNo: g.sensors[0].dev, ts, temp: 2 })]);
    expect(status).toEqual(
      expect.arrayContaining([
        { customerId: g.customerId, kind: 'sensor', id: g.sensors[0].id, status: 1 },
        { customerId: g.customerId, kind: 'gateway', id: g.gatewayId, status: 1 },
      ]),
    );
  });

  it('updates the gateway on a heartbeat, stores events and acks', async () => {
    const hb = { ts: Date.now(), power: 'normal', tcp: true, lte: false, flight: false, ip: '10.0.0.5', wanIp: '203.0.113.7', gps: { lat: 31.2304, lng: 121.4737 }, tz: '+09:00' };
    expect((await post(gwB, 'heartbeat', hb)).json()).toEqual({ accepted: 1, duplicates: 0, rejected: 0 });
    const gw = await t.db.one(`SELECT status, power, tcp, lte, ip, wan_ip, lat, lng, tz, last_seen_at FROM gateway WHERE id = $1`, [gwB.gatewayId]);
    expect(gw).toMatchObject({ status: 1, power: 'normal', tcp: true, lte: false, ip: '10.0.0.5', wan_ip: '203.0.113.7', lat: 31.2304, lng: 121.4737, tz: '+09:00' });
    expect(gw!.last_seen_at).toBeTruthy();
    expect((await post(gwB, 'heartbeat', { tz: 'Europe/Paris' })).statusCode).toBe(400);

    const ev = { ts: Date.now(), type: 'door_open', dev: gwB.sensors[0].dev };
    expect((await post(gwB, 'event', ev)).json()).toEqual({ accepted: 1, duplicates: 0, rejected: 0 });
    expect((await post(gwB, 'event', ev)).json()).toEqual({ accepted: 0, duplicates: 1, rejected: 0 });
    expect((await post(gwB, 'event', { ts: Date.now(), type: 'power_fail' })).json()).toEqual({ accepted: 1, duplicates: 0, rejected: 0 });
    expect((await post(gwB, 'event', { ts: Date.now(), type: 'door_open', dev: gwA.sensors[0].dev })).json()).toEqual({ accepted: 0, duplicates: 0, rejected: 1 });
    expect((await post(gwB, 'event', { ts: Date.now(), type: 'door_open' })).statusCode).toBe(400);
    const events = await t.db.query(`SELECT type, sensor_id FROM gateway_event WHERE gateway_id = $1 ORDER BY id`, [gwB.gatewayId]);
    expect(events).toEqual([{ type: 'door_open', sensor_id: gwB.sensors[0].id }, { type: 'power_fail', sensor_id: null }]);

    await t.db.query(`INSERT INTO device_command (customer_id, gateway_id, cmd_id, kind, dev_no, payload) VALUES ($1, $2, 'c-1', 'config', $3, $4)`, [
      gwB.customerId,
      gwB.gatewayId,
      gwB.sensors[0].dev,
      JSON.stringify({ cmdId: 'c-1', dev: gwB.sensors[0].dev, params: { sampleInterval: 60 } }),
    ]);
    const cmds = await t.app.inject({ method: 'GET', url: `/ingest/v1/${gwB.sn}/commands`, headers: { authorization: `Bearer ${gwB.secret}` } });
    expect(cmds.json()).toEqual({ commands: [{ type: 'config', cmdId: 'c-1', dev: gwB.sensors[0].dev, params: { sampleInterval: 60 } }] });
    expect((await post(gwA, 'ack', { cmdId: 'c-1', result: 'ok' })).json()).toEqual({ accepted: 0, duplicates: 0, rejected: 1 });
    expect((await post(gwB, 'ack', { cmdId: 'c-1', result: 'fail', detail: 'channel mask out of range' })).json()).toEqual({ accepted: 1, duplicates: 0, rejected: 0 });
    expect(await t.db.one(`SELECT status, detail FROM device_command WHERE cmd_id = 'c-1'`)).toEqual({ status: 'fail', detail: 'channel mask out of range' });
  });

  it('marks silent sensors and gateways offline once', async () => {
    const g = await enrol(t.db, t.tenants.a.customerId, 1);
    await t.db.query(`UPDATE sensor SET status = 1, last_ts = now() - interval '10 minutes', sample_interval = 60 WHERE id = $1`, [g.sensors[0].id]);
    await t.db.query(`UPDATE gateway SET status = 1, last_seen_at = now() - interval '6 minutes' WHERE id = $1`, [g.gatewayId]);
    const status: DeviceStatusEvent[] = [];
    const on = (s: DeviceStatusEvent) => status.push(s);
    t.bus.on('deviceStatus', on);
    await markSilentDevices(t.db, t.bus);
    await markSilentDevices(t.db, t.bus);
    t.bus.off('deviceStatus', on);
    expect(status.filter((s) => s.id === g.sensors[0].id && s.kind === 'sensor')).toEqual([{ customerId: g.customerId, kind: 'sensor', id: g.sensors[0].id, status: 0 }]);
    expect(status.filter((s) => s.id === g.gatewayId && s.kind === 'gateway')).toHaveLength(1);
    expect((await t.db.one(`SELECT status FROM sensor WHERE id = $1`, [g.sensors[0].id]))!.status).toBe(0);
  });

  it('passes over a silent sensor that a batch is writing, instead of waiting for it (no deadlock with ingest)', async (ctx) => {
    if (t.db.kind !== 'postgres') return ctx.skip(); // one connection on PGlite: nothing holds a row meanwhile
    const g = await enrol(t.db, t.tenants.a.customerId, 2);
    const [held, free] = g.sensors.map((s) => s.id);
    await t.db.query(`UPDATE sensor SET status = 1, last_ts = now() - interval '10 minutes', sample_interval = 60 WHERE id = ANY($1)`, [[held, free]]);
    const status = () => t.db.query<{ id: number; status: number }>(`SELECT id, status FROM sensor WHERE id = ANY($1) ORDER BY id`, [[held, free]]);
    // The batch holds `held` (as updateSensors does) and is making it fresh.
    await t.db.tx(async (q) => {
      await q.query('SELECT 1 FROM sensor WHERE id = $1 FOR UPDATE', [held]);
      await markSilentDevices(t.db, t.bus);
      expect(await status()).toEqual([held, free].sort((x, y) => x - y).map((id) => ({ id, status: id === held ? 1 : 0 })));
    });
    // The next scan takes it.
    await markSilentDevices(t.db, t.bus);
    expect((await status()).map((r) => r.status)).toEqual([0, 0]);
  });
});
