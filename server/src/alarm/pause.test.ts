import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../test/helper.js';
import { evaluateSensor } from './evaluator.js';
import { resumeDuePauses } from './pause.js';
import { ingest, site, type Site } from './testkit.js';

/**
 * The end of an alarm pause (docs/alarms.md "Triggers", job alarm-resume): the alarm-switch log
 * shows the resume, an excursion still going on then is told at once, one that ended during the
 * pause is not, and a second run tells nobody twice.
 */

let t: TestCtx;
beforeAll(async () => {
  t = await setup();
}, 180_000);
afterAll(() => t?.close());

const cid = () => t.tenants.a.customerId;
const recent = (temps: number[]) => temps.map((v, i) => [Date.now() - (temps.length - i) * 1000, v] as [number, number]);
const notices = (s: Site) =>
  t.db.query<{ recipient: string; status: number; result: string; subject: string }>(
    `SELECT n.recipient, n.status, n.result, n.subject FROM notice_log n JOIN exception_record e ON e.id = n.exception_id WHERE e.sensor_id = $1 ORDER BY n.id`,
    [s.sensorId],
  );
async function pausedSite(name: string, email: string, temps: number[]) {
  const s = await site(t.db, cid(), { name, emails: [email] });
  await t.db.query(`UPDATE carrier SET paused_until = now() + interval '1 hour', pause_reason = 'defrost' WHERE id = $1`, [s.carrierId]);
  await ingest(t.db, s, recent(temps));
  await t.db.tx((q) => evaluateSensor(q, s.sensorId));
  return s;
}

describe('the end of an alarm pause', () => {
  it('logs the resume and tells an excursion still going on, not one that ended during the pause, and only once', async () => {
    const going = await pausedSite('Still warm', 'warm@alpha.test', [5, 9.5]);
    const over = await pausedSite('Cooled again', 'cool@alpha.test', [5, 9.5, 5]);
    // During the pause: both recorded, marked, nobody told.
    for (const s of [going, over]) expect((await notices(s)).map((n) => [n.status, n.result])).toEqual([[3, 'paused']]);
    const before = await t.db.tx((q) => resumeDuePauses(q, Date.now()));
    expect(before).toEqual({ resumed: 0, notices: 0 });

    const r = await t.db.tx((q) => resumeDuePauses(q, Date.now() + 2 * 3600_000));
    expect(r).toEqual({ resumed: 2, notices: 1 });
    const told = await notices(going);
    expect(told.slice(1).map((n) => [n.recipient, n.status])).toEqual([['warm@alpha.test', 0]]);
    expect(told[1].subject).toMatch(/Still warm/);
    expect(await notices(over)).toHaveLength(1);
    const log = await t.db.query<{ carrier_id: number; operator: string; reason: string }>(
      `SELECT carrier_id, operator, reason FROM alarm_switch_log WHERE carrier_id = ANY($1::int[]) ORDER BY carrier_id`,
      [[going.carrierId, over.carrierId]],
    );
    expect(log.map((l) => [l.carrier_id, l.operator, l.reason])).toEqual([
      [going.carrierId, 'system', 'pause ended: defrost'],
      [over.carrierId, 'system', 'pause ended: defrost'],
    ]);

    // A second run (a retry, another replica) resumes and tells nothing again.
    expect(await t.db.tx((q) => resumeDuePauses(q, Date.now() + 3 * 3600_000))).toEqual({ resumed: 0, notices: 0 });
    expect(await notices(going)).toHaveLength(2);
  });

  it('an excursion already acknowledged when the pause ends is not told', async () => {
    const s = await pausedSite('Handled fridge', 'handled@alpha.test', [5, 9.5]);
    await t.db.query(`UPDATE exception_record SET status = 1 WHERE sensor_id = $1`, [s.sensorId]);
    expect(await t.db.tx((q) => resumeDuePauses(q, Date.now() + 2 * 3600_000))).toEqual({ resumed: 1, notices: 0 });
    expect(await notices(s)).toHaveLength(1);
  });
});
