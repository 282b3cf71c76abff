import { beforeAll, describe, expect, it } from 'vitest';
import { VERIFY_STATUS } from '@coldwatch/contract';
import type { TestCtx } from '../../../test/helper.js';
import { call, requester, withTwoCustomers, type Records } from '../shared/records.fixture.js';
import { EXPECTED, seedExample } from '../mapping/mapping.fixture.js';
import { advanceVerifyTasks } from '../../jobs/verifyTask.js';

/** Verification tasks (spec §2 /arch/verificationTask, §4; issue 29): result, refusals, states on the job, notices. */

let t: TestCtx;
let a: Records;
let b: Records;
withTwoCustomers((c) => ({ t, a, b } = c));
const req = requester(() => t);
let ex: Awaited<ReturnType<typeof seedExample>>;
beforeAll(async () => {
  ex = await seedExample(t, a);
  // The fixture's contact gets an address, so that the notices have a mail recipient.
  await t.db.query(`UPDATE contact SET email = 'nurse@alpha.test' WHERE id = $1`, [a.contactId]);
});

const HOUR = 3_600_000;
const body = (over: Record<string, unknown> = {}) => ({
  name: 'Fridge mapping', carrierId: a.carrierId, sensorIds: [ex.ids.T1, ex.ids.T2, ex.ids.T3], setpoint: 5, humSetpoint: 50,
  startTime: ex.start - 60_000, recordStart: ex.start, endTime: ex.end, intervalS: 60, conditions: 'empty, door closed', ...over,
});
const notices = async (type: string) => (await t.db.query(`SELECT recipient, subject, content FROM notice_log WHERE customer_id = $1 AND type = $2 ORDER BY id`, [a.customerId, type]));

describe('verification tasks', () => {
  it('a task for a past period is terminated at once and answers the mapping figures of its recording', async () => {
    const { id } = await call(t, a.cookie, 'POST', '/service/verifyTask/add', body());
    const d = await call(t, a.cookie, 'GET', `/service/verifyTask/detail?id=${id}`);
    expect(d).toMatchObject({ status: VERIFY_STATUS.terminated, endedAt: ex.end, durationMin: 2, conditions: 'empty, door closed' });
    expect(d.devices.map((x: { devNo: string }) => x.devNo)).toEqual([ex.devNos.T1, ex.devNos.T2, ex.devNos.T3]);
    for (const [k, v] of Object.entries(EXPECTED.temp)) expect(d.result[k], k).toBeCloseTo(v, 9);
    for (const [k, v] of Object.entries(EXPECTED.hum)) expect(d.result.humidity[k], k).toBeCloseTo(v, 9);
    expect(d.result).toMatchObject({ hottest: ex.devNos.T2, coldest: ex.devNos.T3, centre: ex.devNos.T1 });
    // The centre marked on the task.
    await call(t, a.cookie, 'PUT', '/service/verifyTask/update', { ...body({ centreSensorId: ex.ids.T3 }), id });
    expect((await call(t, a.cookie, 'GET', `/service/verifyTask/detail?id=${id}`)).result.centreDeviation).toBeCloseTo(-0.9, 9);
    const page = await call(t, a.cookie, 'GET', '/service/verifyTask/page?iDisplayStart=0&iDisplayLength=15');
    expect(page.rows.map((r: { id: number }) => r.id)).toContain(id);
    expect(await notices('verifyDone')).toEqual([]);
    await call(t, a.cookie, 'DELETE', `/service/verifyTask/del?ids=${id}`);
  });

  it.each([
    ['no devices', { sensorIds: [] }, 400, 'Choose at least one device, each once (at most 50)'],
    ['a device of another carrier', { sensorIds: [-1] }, 400, "Every device must be a probe of the task's carrier"],
    ['a start after the end', { startTime: 2 * HOUR, endTime: HOUR, recordStart: HOUR }, 400, 'The start cannot be later than the end'],
    ['a record start outside the task', { recordStart: 0 }, 400, 'The record start lies between the start and the end'],
    ['a set point outside the probes\' range', { setpoint: -40.5 }, 400, 'The set point is outside the range the probes can measure (-40 to 85)'],
    ['a centre that is not one of its devices', { sensorIds: [-2], centreSensorId: -3 }, 400, 'The centre point must be one of the chosen devices'],
    ['an offline delay shorter than the data delay', { dataDelayMin: 30, offlineDelayMin: 10 }, 400, 'The offline delay cannot be shorter than the data delay'],
  ])('refuses %s with the spec message', async (_what, over, status, msg) => {
    // Placeholders: -1 is B's sensor, -2/-3 A's own probes, resolved here (the table is built before the fixture).
    const ids: Record<number, number> = { [-1]: b.sensorId, [-2]: ex.ids.T1, [-3]: ex.ids.T2 };
    const fix = (v: unknown) => (Array.isArray(v) ? v.map((x) => ids[x] ?? x) : typeof v === 'number' && ids[v] ? ids[v] : v);
    const o = Object.fromEntries(Object.entries(over).map(([k, v]) => [k, fix(v)]));
    const r = await req(a.cookie, 'POST', '/service/verifyTask/add', body(o));
    expect(r.status).toBe(status);
    expect(JSON.stringify(r)).toContain(msg);
    expect((await t.db.query('SELECT 1 FROM verify_task')).length).toBe(0);
  });

  it("another customer's carrier is a missing one (404); its tasks are neither seen nor changed", async () => {
    expect((await req(b.cookie, 'POST', '/service/verifyTask/add', { ...body(), carrierId: a.carrierId, sensorIds: [b.sensorId] })).status).toBe(404);
    const { id } = await call(t, a.cookie, 'POST', '/service/verifyTask/add', body());
    expect((await req(b.cookie, 'GET', `/service/verifyTask/detail?id=${id}`)).status).toBe(404);
    expect((await req(b.cookie, 'DELETE', `/service/verifyTask/del?ids=${id}`)).status).toBe(404);
    expect((await call(t, b.cookie, 'GET', '/service/verifyTask/page?iDisplayStart=0&iDisplayLength=15')).total).toBe(0);
    await call(t, a.cookie, 'DELETE', `/service/verifyTask/del?ids=${id}`);
  });

  it('moves along its times on the job: to be started, starting, recording, terminated; a running task is neither deleted nor changed', async () => {
    const now = Date.now();
    const { id } = await call(t, a.cookie, 'POST', '/service/verifyTask/add', body({ startTime: now + HOUR, recordStart: now + 2 * HOUR, endTime: now + 3 * HOUR, notifyComplete: true }));
    const status = async () => (await call(t, a.cookie, 'GET', `/service/verifyTask/detail?id=${id}`)).status;
    expect(await status()).toBe(VERIFY_STATUS.toStart);
    await advanceVerifyTasks(t.db, now + HOUR + 1);
    expect(await status()).toBe(VERIFY_STATUS.starting);
    const del = await req(a.cookie, 'DELETE', `/service/verifyTask/del?ids=${id}`);
    expect(del.state.msg).toBe('A running task cannot be deleted');
    expect((await req(a.cookie, 'PUT', '/service/verifyTask/update', { ...body(), id })).state.msg).toBe('A running task cannot be changed: terminate it first');
    await advanceVerifyTasks(t.db, now + 2 * HOUR + 1);
    expect(await status()).toBe(VERIFY_STATUS.recording);
    expect((await req(a.cookie, 'POST', `/service/verifyTask/start?id=${id}`)).state.msg).toBe("Not possible in the task's present state");
    const r = await advanceVerifyTasks(t.db, now + 3 * HOUR);
    expect(await status()).toBe(VERIFY_STATUS.terminated);
    expect(r.completed).toBe(1);
    const done = await notices('verifyDone');
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({ recipient: 'nurse@alpha.test' });
    expect(done[0].content).toContain('Fridge mapping');
    // A second pass tells nothing again.
    await advanceVerifyTasks(t.db, now + 3 * HOUR + 1);
    expect(await notices('verifyDone')).toHaveLength(1);
    expect(await call(t, a.cookie, 'DELETE', `/service/verifyTask/del?ids=${id}`)).toEqual({ deleted: 1 });
  });

  it('start recording and terminate by hand; while recording it tells a data delay, an offline device and an exception, each once', async () => {
    const now = Date.now();
    const { id } = await call(t, a.cookie, 'POST', '/service/verifyTask/add', body({ startTime: now + HOUR, recordStart: now + HOUR, endTime: now + 5 * HOUR, dataDelayMin: 10, offlineDelayMin: 20 }));
    await call(t, a.cookie, 'POST', `/service/verifyTask/start?id=${id}`);
    const d = await call(t, a.cookie, 'GET', `/service/verifyTask/detail?id=${id}`);
    expect(d.status).toBe(VERIFY_STATUS.recording);
    expect(d.recordStart).toBeLessThanOrEqual(Date.now());
    // T1 reported just now (the fixture's readings); T2 and T3 never since the record start.
    await t.db.query('UPDATE sensor SET last_ts = now() WHERE id = $1', [ex.ids.T1]);
    await t.db.query('UPDATE sensor SET last_ts = NULL WHERE id = ANY($1::int[])', [[ex.ids.T2, ex.ids.T3]]);
    await advanceVerifyTasks(t.db, d.recordStart + 15 * 60_000);
    expect((await notices('verifyDelay')).map((n) => n.content).join()).toContain(`${ex.devNos.T2}, ${ex.devNos.T3}`);
    expect(await notices('verifyOffline')).toEqual([]);
    await advanceVerifyTasks(t.db, d.recordStart + 25 * 60_000);
    expect(await notices('verifyDelay')).toHaveLength(1);
    expect(await notices('verifyOffline')).toHaveLength(1);
    // An exception of a task device that starts while recording, told once; one from before the record start is not.
    await t.db.query(`INSERT INTO exception_record(customer_id, carrier_id, sensor_id, type, category, start_ts) VALUES ($1, $2, $3, 'data', 'temp_low', $4)`, [a.customerId, a.carrierId, ex.ids.T2, new Date(d.recordStart - HOUR)]);
    await advanceVerifyTasks(t.db, d.recordStart + 26 * 60_000);
    expect(await notices('verifyException')).toEqual([]);
    await t.db.query(`UPDATE exception_record SET ongoing = false, end_ts = start_ts WHERE customer_id = $1`, [a.customerId]);
    await t.db.query(`INSERT INTO exception_record(customer_id, carrier_id, sensor_id, type, category, start_ts) VALUES ($1, $2, $3, 'data', 'temp_high', $4)`, [a.customerId, a.carrierId, ex.ids.T2, new Date(d.recordStart + 60_000)]);
    await advanceVerifyTasks(t.db, d.recordStart + 27 * 60_000);
    await advanceVerifyTasks(t.db, d.recordStart + 28 * 60_000);
    const told = await notices('verifyException');
    expect(told).toHaveLength(1);
    expect(told[0].content).toContain(ex.devNos.T2);
    await call(t, a.cookie, 'POST', `/service/verifyTask/terminate?id=${id}`);
    const end = await call(t, a.cookie, 'GET', `/service/verifyTask/detail?id=${id}`);
    expect(end).toMatchObject({ status: VERIFY_STATUS.terminated, endedAt: expect.any(Number) });
    expect((await req(a.cookie, 'POST', `/service/verifyTask/terminate?id=${id}`)).state.msg).toBe("Not possible in the task's present state");
    await call(t, a.cookie, 'DELETE', `/service/verifyTask/del?ids=${id}`);
  });

  it('an operator only views: adding is refused with 500102', async () => {
    await t.addUser(a.customerId, 'alphaop');
    const op = await t.login('alphaop');
    expect((await call(t, op, 'GET', '/service/verifyTask/page?iDisplayStart=0&iDisplayLength=15')).total).toBe(0);
    expect((await req(op, 'POST', '/service/verifyTask/add', body())).state.code).toBe(500102);
  });
});
