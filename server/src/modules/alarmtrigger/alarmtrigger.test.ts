import { describe, expect, it } from 'vitest';
import type { TestCtx } from '../../../test/helper.js';
import { call, requester, withTwoCustomers, type Records } from '../shared/records.fixture.js';

/** Alarm triggers (spec §3, §2 /sysAlarm): the §5 rules with passing and failing examples, binding, the §8 delete warning, the pause. */

let t: TestCtx;
let a: Records;
let b: Records;
withTwoCustomers((c) => ({ t, a, b } = c));
const req = requester(() => t);
const base = { name: 'Night watch', channels: ['email', 'sms'], repeatTimes: 3, repeatIntervalMin: 5, timePoints: ['08:00', '08:30'] };
const count = async () => Number((await t.db.one<{ n: number }>(`SELECT count(*)::int AS n FROM alarm_trigger WHERE customer_id = $1`, [a.customerId]))!.n);

describe('alarm triggers', () => {
  it('stores a trigger with its recipients and hours, binds carriers, and reads back what was stored', async () => {
    const { id } = await call(t, a.cookie, 'POST', '/service/alarmTrigger/add', {
      ...base, contactIds: [a.contactId], groupNames: ['Pharmacy'], levels: [2], windows: [{ start: '22:00', end: '06:00' }], weekdays: [1, 2, 3, 4, 5],
      offChannels: ['voice'], offLevels: [2], delayS: 60, tempMargin: 0.5, humMargin: 3, escalateAfterMin: 10, noticeType: 'openEnd', carrierIds: [a.carrierId], reason: 'GSP',
    });
    const d = await call(t, a.cookie, 'GET', `/service/alarmTrigger/detail?id=${id}`);
    expect(d).toMatchObject({
      name: 'Night watch', channels: ['email', 'sms'], contactIds: [a.contactId], groupNames: ['Pharmacy'], levels: [2], windows: [{ start: '22:00', end: '06:00' }],
      weekdays: [1, 2, 3, 4, 5], offChannels: ['voice'], offLevels: [2], timePoints: ['08:00', '08:30'], delayS: 60, tempMargin: 0.5, humMargin: 3,
      repeatTimes: 3, repeatIntervalMin: 5, escalateAfterMin: 10, noticeType: 'openEnd', carrierIds: [a.carrierId], reason: 'GSP',
    });
    // The carrier reads its trigger's delay, margins and channels; hasTrigger = a zone set.
    const c = await call(t, a.cookie, 'GET', `/service/carrier/detail?id=${a.carrierId}`);
    expect(c).toMatchObject({ triggerId: id, triggerName: 'Night watch', channels: ['email', 'sms'], alarmDelayS: 60, tempMargin: 0.5, humMargin: 3 });
    expect((await call(t, a.cookie, 'GET', `/service/alarmTrigger/page?carrierId=${a.carrierId}`)).rows.map((r: { id: number }) => r.id)).toEqual([id]);
    expect((await call(t, a.cookie, 'GET', '/service/alarmTrigger/options')).map((o: { name: string }) => o.name)).toContain('Night watch');
    const log = await t.db.query(`SELECT method FROM sys_log WHERE module = 'alarmTrigger' AND customer_id = $1`, [a.customerId]);
    expect(log.map((l) => l.method)).toContain('add');
  });

  it.each([
    ['a time point 10 minutes after another', { timePoints: ['08:00', '08:10'] }, 'timePoints', 'Time points must be at least 30 minutes apart'],
    ['two time points 20 minutes apart over midnight', { timePoints: ['23:50', '00:10'] }, 'timePoints', 'Time points must be at least 30 minutes apart'],
    ['an eighth time point', { timePoints: ['00:00', '03:00', '06:00', '09:00', '12:00', '15:00', '18:00', '21:00'] }, 'timePoints', 'At most 7 time points'],
    ['a repeat interval of 0', { repeatIntervalMin: 0 }, 'repeatIntervalMin', 'The repeat interval is a whole number of minutes from 1 to 1440'],
    ['a negative repeat interval', { repeatIntervalMin: -5 }, 'repeatIntervalMin', 'The repeat interval is a whole number of minutes from 1 to 1440'],
    ['an empty weekday set', { weekdays: [] }, 'weekdays', 'Choose at least one weekday'],
    ['no channel', { channels: [] }, 'channels', 'Choose at least one alarm method'],
    ['a time of 24:00', { timePoints: ['24:00'] }, 'timePoints.0', 'A time is written HH:MM, from 00:00 to 23:59'],
  ])('refuses %s with the spec message, storing nothing', async (_what, body, field, msg) => {
    const before = await count();
    const r = await req(a.cookie, 'POST', '/service/alarmTrigger/add', { ...base, name: `Bad ${field}`, ...body });
    expect(r.status).toBe(400);
    expect(r.result.errors[field]).toBe(msg);
    expect(await count()).toBe(before);
  });

  it.each([
    ['seven time points 30 minutes apart', { timePoints: ['08:00', '08:30', '09:00', '09:30', '10:00', '10:30', '11:00'] }],
    ['a repeat interval of 1 minute', { repeatIntervalMin: 1 }],
    ['one weekday', { weekdays: [7] }],
  ])('takes %s', async (what, body) => {
    const { id } = await call(t, a.cookie, 'POST', '/service/alarmTrigger/add', { ...base, name: `Good ${what}`, ...body });
    expect(await call(t, a.cookie, 'DELETE', `/service/alarmTrigger/del?ids=${id}`)).toEqual({ deleted: 1 });
  });

  it("refuses a recipient or a carrier of another customer: nothing stored, nothing bound", async () => {
    const before = await count();
    const foreign = await req(a.cookie, 'POST', '/service/alarmTrigger/add', { ...base, name: 'Foreign contact', contactIds: [b.contactId] });
    expect(foreign.status).toBe(404);
    const carrier = await req(a.cookie, 'POST', '/service/alarmTrigger/add', { ...base, name: 'Foreign carrier', carrierIds: [b.carrierId] });
    expect(carrier.status).toBe(404);
    expect(await count()).toBe(before);
    expect((await t.db.one<{ trigger_id: number | null }>('SELECT trigger_id FROM carrier WHERE id = $1', [b.carrierId]))!.trigger_id).toBeNull();
    // Nor can a carrier of A be bound to B's trigger from A's carrier dialog.
    const bt = await call(t, b.cookie, 'POST', '/service/alarmTrigger/add', { ...base, name: 'B trigger' });
    const detail = await call(t, a.cookie, 'GET', `/service/carrier/detail?id=${a.carrierId}`);
    const upd = await req(a.cookie, 'PUT', '/service/carrier/update', { id: a.carrierId, name: detail.name, type: detail.type, sceneId: detail.sceneId, tempMin: 2, tempMax: 8, triggerId: bt.id });
    expect(upd.status).toBe(404);
  });

  it('a trigger bound to a carrier cannot be deleted (§8 warning); unbound, it can', async () => {
    const { id } = await call(t, a.cookie, 'POST', '/service/alarmTrigger/add', { ...base, name: 'Bound one', carrierIds: [a.carrierId] });
    const r = await req(a.cookie, 'DELETE', `/service/alarmTrigger/del?ids=${id}`);
    expect(r.state).toEqual({ code: 500000, msg: 'The alarm trigger Bound one is bound to 1 carriers and cannot be deleted: bind them to another trigger first' });
    expect((await t.db.query('SELECT id FROM alarm_trigger WHERE id = $1', [id])).length).toBe(1);
    await call(t, a.cookie, 'PUT', '/service/alarmTrigger/update', { ...base, id, name: 'Bound one', carrierIds: [] });
    expect(await call(t, a.cookie, 'DELETE', `/service/alarmTrigger/del?ids=${id}`)).toEqual({ deleted: 1 });
  });

  it("another customer's trigger is neither seen, changed nor deleted", async () => {
    const { id } = await call(t, a.cookie, 'POST', '/service/alarmTrigger/add', { ...base, name: 'Private' });
    expect((await req(b.cookie, 'GET', `/service/alarmTrigger/detail?id=${id}`)).status).toBe(404);
    expect((await req(b.cookie, 'PUT', '/service/alarmTrigger/update', { ...base, id, name: 'Taken' })).status).toBe(404);
    expect((await req(b.cookie, 'DELETE', `/service/alarmTrigger/del?ids=${id}`)).status).toBe(404);
    expect((await call(t, b.cookie, 'GET', '/service/alarmTrigger/page')).rows.map((r: { name: string }) => r.name)).not.toContain('Private');
    expect((await t.db.one<{ name: string }>('SELECT name FROM alarm_trigger WHERE id = $1', [id]))!.name).toBe('Private');
  });

  it('pauses a carrier until a time with a reason, logs it with the switch log, and resumes it', async () => {
    const until = Date.now() + 3_600_000;
    expect(await call(t, a.cookie, 'PUT', '/service/carrier/alarmPause', { ids: [a.carrierId], until, reason: 'defrosting' })).toEqual({ changed: 1 });
    expect(await call(t, a.cookie, 'GET', `/service/carrier/detail?id=${a.carrierId}`)).toMatchObject({ pausedUntil: until, pauseReason: 'defrosting' });
    const past = await req(a.cookie, 'PUT', '/service/carrier/alarmPause', { ids: [a.carrierId], until: Date.now() - 1000, reason: 'x' });
    expect(past.result.errors).toEqual({ until: 'The pause must end in the future, at most 30 days from now' });
    const log = await call(t, a.cookie, 'GET', `/service/alarmLog/page?carrierId=${a.carrierId}`);
    expect(log.rows[0]).toMatchObject({ reason: 'defrosting', pausedUntil: until, alarmOn: true });
    expect(await call(t, a.cookie, 'PUT', '/service/carrier/alarmPause', { ids: [a.carrierId], until: null, reason: 'done' })).toEqual({ changed: 1 });
    expect(await call(t, a.cookie, 'GET', `/service/carrier/detail?id=${a.carrierId}`)).toMatchObject({ pausedUntil: null });
    // A reason in the switch body goes to the log too.
    await call(t, a.cookie, 'PUT', '/service/carrier/alarmSwitch', { ids: [a.carrierId], alarmOn: false, reason: 'moved out' });
    expect((await call(t, a.cookie, 'GET', `/service/alarmLog/page?carrierId=${a.carrierId}`)).rows[0]).toMatchObject({ alarmOn: false, reason: 'moved out', pausedUntil: null });
    await call(t, a.cookie, 'PUT', '/service/carrier/alarmSwitch', { ids: [a.carrierId], alarmOn: true });
    expect((await req(b.cookie, 'PUT', '/service/carrier/alarmPause', { ids: [a.carrierId], until, reason: 'x' })).status).toBe(404);
  });
});
