import { beforeAll, describe, expect, it } from 'vitest';
import type { TestCtx } from '../../../test/helper.js';
import { call, requester, withTwoCustomers, type Records } from '../shared/records.fixture.js';
import { returnDueLoans } from '../../jobs/loanReturn.js';
import { rollupAll } from '../../ingest/rollup.js';
import { startAlarm } from '../../alarm/index.js';

let t: TestCtx;
let a: Records;
let b: Records;
let root: string;
withTwoCustomers((c) => ({ t, a, b } = c));
beforeAll(async () => {
  root = await t.login('admin');
});
const req = requester(() => t);
const DAY = 86_400_000;
const lend = (cookie: string, body: Record<string, unknown>) =>
  req(cookie, 'POST', '/service/deviceTransfer/add', { sensorIds: [a.sensorId], borrowerId: b.customerId, gatewayId: b.gatewayId, endsAt: Date.now() + DAY, ...body });
const loans = (cookie: string, state: 'current' | 'history') => call(t, cookie, 'GET', `/service/deviceTransfer/page?state=${state}&iDisplayStart=0&iDisplayLength=10`);
const sensors = (cookie: string, extra = '') => call(t, cookie, 'GET', `/service/sensor/page?iDisplayStart=0&iDisplayLength=50${extra}`);
const send = (r: Records, temp: number, ts: number) =>
  t.app.inject({ method: 'POST', url: `/ingest/v1/${r.gatewaySn}/data`, headers: { authorization: `Bearer ${r.secret}` }, payload: { readings: [{ dev: a.devNo, ts, temp, hum: 50 }] } }).then((x) => x.json());
const history = (cookie: string) => req(cookie, 'GET', `/service/share/history?deviceNo=${a.devNo}&start=${Date.now() - 3_600_000}&end=${Date.now() + 60_000}&maxPoints=100`);

describe('lending (spec §2 /sys/deviceTransfer, §3 Secondment)', () => {
  it('refuses a bad loan with its field and lends nothing', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ endsAt: Date.now() - 1000 }, 'endsAt', 'The loan must end in the future'],
      [{ endsAt: Date.now() + 11 * 366 * DAY }, 'endsAt', 'A loan lasts at most ten years'],
      [{ sensorIds: [] }, 'sensorIds', 'Choose at least one sensor'],
      [{ borrowerId: a.customerId, gatewayId: a.gatewayId }, 'borrowerId', 'The borrower must be another customer'],
      [{ gatewayId: a.gatewayId }, 'gatewayId', "The gateway must be one of the borrower's"],
      [{ sensorIds: [a.sensorId, b.sensorId] }, 'sensorIds', 'Sensors lent together must belong to the same customer'],
    ];
    for (const [body, field, msg] of cases) {
      const r = await lend(root, body);
      expect(r.status, JSON.stringify(r)).toBe(400);
      expect(r.result.errors, JSON.stringify(r)).toMatchObject({ [field]: msg });
    }
    // Lending is the platform's (spec §6: /sys/deviceTransfer is level 2, system scope).
    expect((await lend(a.cookie, {})).state.code).toBe(500102);
    expect((await loans(root, 'current')).total).toBe(0);
  });

  it('moves the sensor to the borrower for the period: each side sees its part, ingest follows, the owner gets it back with its binding', async () => {
    const before = await sensors(a.cookie);
    expect((await lend(root, { note: 'for the vaccination campaign' })).result).toEqual({ lent: 1 });

    // The owner: the loan is current, the sensor is not in its list or detail, its gateway cannot go.
    const out = await call(t, a.cookie, 'GET', '/service/sensor/lentOut?iDisplayStart=0&iDisplayLength=10');
    expect((await loans(root, 'current')).rows).toEqual(out.rows);
    expect(out.rows).toEqual([expect.objectContaining({ devNo: a.devNo, borrowerName: expect.stringContaining('Beta'), note: 'for the vaccination campaign', endedAt: null })]);
    expect((await sensors(a.cookie)).total).toBe(before.total - 1);
    expect((await req(a.cookie, 'GET', `/service/sensor/detail?id=${a.sensorId}`)).status).toBe(404);
    expect((await req(a.cookie, 'DELETE', `/service/gateway/del?ids=${a.gatewayId}`)).state.code).not.toBe(200000);
    // The borrower: borrowed, with its end, under its gateway; the loan itself is the owner's record.
    const borrowed = await sensors(b.cookie, '&borrowed=true');
    expect(borrowed.rows).toEqual([expect.objectContaining({ id: a.sensorId, devNo: a.devNo, customerId: b.customerId, gatewayId: b.gatewayId, carrierId: null, lentUntil: expect.any(Number) })]);
    // The owner's latest values are not the borrower's: offline and blank until it reports through the borrower's gateway.
    expect(borrowed.rows[0]).toMatchObject({ status: 0, lastTs: null, temp: null, hum: null });
    expect((await call(t, b.cookie, 'GET', '/service/sensor/lentOut?iDisplayStart=0&iDisplayLength=10')).total).toBe(0);
    expect((await sensors(b.cookie, '&borrowed=false')).rows.map((s: { id: number }) => s.id)).toEqual([b.sensorId]);
    // The borrower binds it, but cannot renumber, retype or delete it; a second loan of it is refused.
    const upd = { id: a.sensorId, devNo: a.devNo, type: 'zigbee_th', gatewayId: b.gatewayId, carrierId: b.carrierId };
    expect((await req(b.cookie, 'PUT', '/service/sensor/update', upd)).state.code).toBe(200000);
    expect((await req(b.cookie, 'PUT', '/service/sensor/update', { ...upd, devNo: 'RENAMED1' })).result.errors).toEqual({ devNo: 'A borrowed sensor keeps its number and type' });
    expect((await req(b.cookie, 'DELETE', `/service/sensor/del?ids=${a.sensorId}`)).state.msg).toBe('A borrowed sensor cannot be deleted: it goes back to its owner when the loan ends');
    expect((await lend(root, { borrowerId: a.customerId, gatewayId: a.gatewayId })).result.errors).toEqual({ sensorIds: 'A sensor is already on loan (lent out or borrowed)' });

    // Ingest: the owner's gateway hearing it is refused as lent; the borrower's files it under the borrower.
    const ts = Date.now() - 1000;
    expect(await send(a, 6.5, ts)).toMatchObject({ accepted: 0, rejected: 1 });
    expect(await t.db.one(`SELECT reason FROM ingest_reject WHERE gateway_sn = $1 AND dev_no = $2 ORDER BY id DESC LIMIT 1`, [a.gatewaySn, a.devNo])).toEqual({ reason: 'lent_device' });
    expect(await send(b, 7.5, ts)).toMatchObject({ accepted: 1, rejected: 0 });
    // History: the borrower sees only what came while it held the sensor.
    const hb = await history(b.cookie);
    expect(hb.result.points.map((p: { temp: number }) => p.temp)).toEqual([7.5]);
    // Beyond a week the rollups answer: a bucket holding both customers' readings is one row each.
    await rollupAll(t.db);
    const long = await req(b.cookie, 'GET', `/service/share/history?deviceNo=${a.devNo}&start=${Date.now() - 8 * DAY}&end=${Date.now() + 60_000}&maxPoints=100`);
    expect(long.result.source).toBe('1h');
    expect(new Set(long.result.points.map((p: { temp: number }) => p.temp))).toEqual(new Set([7.5]));

    // Revoke: the platform's, as lending.
    const loanId = out.rows[0].id;
    expect((await req(a.cookie, 'PUT', '/service/deviceTransfer/revoke', { ids: [loanId] })).state.code).toBe(500102);
    expect((await call(t, root, 'PUT', '/service/deviceTransfer/revoke', { ids: [loanId] }))).toEqual({ revoked: 1 });
    expect((await req(root, 'PUT', '/service/deviceTransfer/revoke', { ids: [loanId] })).state.msg).toBe('The loan has already ended');
    const home = await call(t, a.cookie, 'GET', `/service/sensor/detail?id=${a.sensorId}`);
    expect(home).toMatchObject({ customerId: a.customerId, gatewayId: a.gatewayId, carrierId: a.carrierId, lentUntil: null });
    expect((await sensors(b.cookie, '&borrowed=true')).total).toBe(0);
    expect((await call(t, a.cookie, 'GET', '/service/sensor/lentOut?iDisplayStart=0&iDisplayLength=10')).total).toBe(0);
    expect((await loans(root, 'history')).rows[0]).toMatchObject({ id: loanId, endReason: 'revoked', endedBy: expect.any(String), endedAt: expect.any(Number) });
    // The owner's history is its own readings, before and after, without the borrower's.
    const ha = await history(a.cookie);
    expect(ha.result.points.length).toBe(10);
    expect(ha.result.points.every((p: { temp: number }) => p.temp === 5)).toBe(true);
    expect((await history(b.cookie)).status).toBe(404);
    expect(await send(a, 5.5, Date.now())).toMatchObject({ accepted: 1 });
  });

  it("keeps each side's excursions apart: the borrower's exception starts at its own first reading, the owner's ends at the hand-over", async () => {
    const alarm = startAlarm(t.deps, { pollMs: 60_000 });
    try {
      // After every reading the suite has sent (the future tolerance is ten minutes): one run each side.
      const t0 = Date.now() + 60_000;
      const post = (r: Records, ts: number, temp: number) =>
        t.app.inject({ method: 'POST', url: `/ingest/v1/${r.gatewaySn}/data`, headers: { authorization: `Bearer ${r.secret}` }, payload: { readings: [{ dev: a.devNo, ts, temp, hum: 50 }] } });
      await post(a, t0, 12);
      await post(a, t0 + 60_000, 12.5);
      await alarm.drain();
      const ownerEx = () => t.db.query(`SELECT customer_id, ongoing, start_ts, last_ts, first_value, peak_value FROM exception_record WHERE sensor_id = $1 AND customer_id = $2 AND type = 'data'`, [a.sensorId, a.customerId]);
      expect(await ownerEx()).toEqual([expect.objectContaining({ ongoing: true, start_ts: new Date(t0), first_value: 12, peak_value: 12.5 })]);

      expect((await lend(root, {})).result).toEqual({ lent: 1 });
      const [owner] = await ownerEx();
      expect(owner).toMatchObject({ ongoing: false, last_ts: new Date(t0 + 60_000), peak_value: 12.5 });
      await call(t, b.cookie, 'PUT', '/service/sensor/update', { id: a.sensorId, devNo: a.devNo, type: 'zigbee_th', gatewayId: b.gatewayId, carrierId: b.carrierId });
      await post(b, t0 + 120_000, 13);
      await alarm.drain();
      const borrowerEx = await t.db.query(`SELECT ongoing, start_ts, first_value, peak_value FROM exception_record WHERE sensor_id = $1 AND customer_id = $2 AND type = 'data'`, [a.sensorId, b.customerId]);
      expect(borrowerEx).toEqual([expect.objectContaining({ ongoing: true, start_ts: new Date(t0 + 120_000), first_value: 13, peak_value: 13 })]);
      expect(await ownerEx()).toEqual([owner]);
    } finally {
      await alarm.stop();
      const current = await loans(root, 'current');
      if (current.total) await call(t, root, 'PUT', '/service/deviceTransfer/revoke', { ids: current.rows.map((r: { id: number }) => r.id) });
    }
  });

  it('ends a loan whose period ran out (job loan-return)', async () => {
    expect((await lend(root, {})).result).toEqual({ lent: 1 });
    expect(await returnDueLoans(t.db, t.bus)).toBe(0);
    await t.db.query(`UPDATE device_loan SET ends_at = now() - interval '1 second' WHERE ended_at IS NULL`);
    expect(await returnDueLoans(t.db, t.bus)).toBe(1);
    expect(await call(t, a.cookie, 'GET', `/service/sensor/detail?id=${a.sensorId}`)).toMatchObject({ customerId: a.customerId, lentUntil: null });
    expect((await loans(root, 'history')).rows[0]).toMatchObject({ endReason: 'expired', endedBy: null });
  });
});
