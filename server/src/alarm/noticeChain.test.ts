import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXCEPTION_CATEGORIES } from '@coldwatch/contract';
import { setup, type TestCtx } from '../../test/helper.js';
import { evaluateSensor } from './evaluator.js';
import { advanceChains } from './noticeChain.js';
import { resumeDuePauses } from './pause.js';
import { ingest, site, type Site } from './testkit.js';

/**
 * Triggers at work (docs/alarms.md "Triggers"): who the first notice reaches, the notice chain's
 * repeats, escalation and acknowledgement, the hours, the pause, and the skipped row that says
 * why nobody was told. The notifier is not started: the rows it would send are what is checked.
 */

let t: TestCtx;
beforeAll(async () => {
  t = await setup();
  // The customer's switches are the master: SMS and voice need notify_sms (a test below turns it off).
  await t.db.query(`UPDATE customer SET notify_sms = true WHERE id = $1`, [t.tenants.a.customerId]);
}, 180_000);
afterAll(() => t?.close());

const MIN = 60_000;
/** Readings of the last minutes up to now, so that the exception opens "now" for the chain's clock. */
const recent = (temps: number[]) => temps.map((v, i) => [Date.now() - (temps.length - i) * 1000, v] as [number, number]);
const evaluate = (s: Site) => t.db.tx((q) => evaluateSensor(q, s.sensorId));
const rows = (s: Site) =>
  t.db.query<{ channel: string; recipient: string; status: number; result: string; subject: string; content: string }>(
    `SELECT n.channel, n.recipient, n.status, n.result, n.subject, n.content FROM notice_log n JOIN exception_record e ON e.id = n.exception_id
      WHERE e.sensor_id = $1 ORDER BY n.id`,
    [s.sensorId],
  );
const cid = () => t.tenants.a.customerId;

async function contact(name: string, email: string, phone: string, level: number) {
  const r = await t.db.one<{ id: number }>(`INSERT INTO contact (customer_id, name, email, phone, alarm_level) VALUES ($1, $2, $3, $4, $5) RETURNING id`, [cid(), name, email, phone, level]);
  return r!.id;
}
async function trigger(s: Site, cols: Record<string, unknown>, contacts: number[]) {
  const names = Object.keys(cols);
  const tr = await t.db.one<{ id: number }>(
    `INSERT INTO alarm_trigger (customer_id, name, categories${names.map((n) => `, ${n}`).join('')})
     VALUES ($1, $2, $3${names.map((_, i) => `, $${i + 4}`).join('')}) RETURNING id`,
    [cid(), `T ${s.carrierName}`, [...EXCEPTION_CATEGORIES], ...Object.values(cols)],
  );
  for (const c of contacts) await t.db.query(`INSERT INTO alarm_trigger_contact (trigger_id, contact_id, customer_id) VALUES ($1, $2, $3)`, [tr!.id, c, cid()]);
  await t.db.query(`UPDATE carrier SET trigger_id = $2 WHERE id = $1`, [s.carrierId, tr!.id]);
  return tr!.id;
}

describe('alarm triggers at work', () => {
  it('a carrier without a trigger tells its contacts by e-mail, as before', async () => {
    const s = await site(t.db, cid(), { name: 'Plain fridge', emails: ['ops@alpha.test'] });
    await ingest(t.db, s, recent([5, 9.5]));
    await evaluate(s);
    expect((await rows(s)).map((r) => [r.channel, r.recipient, r.status])).toEqual([['email', 'ops@alpha.test', 0]]);
  });

  it('an alarm that reaches nobody leaves a skipped row saying so; the carrier says it too', async () => {
    const s = await site(t.db, cid(), { name: 'Nobody fridge' });
    await ingest(t.db, s, recent([5, 9.5]));
    await evaluate(s);
    expect((await rows(s)).map((r) => [r.status, r.result])).toEqual([[3, 'noRecipient']]);
    const { unreachable } = await import('./recipients.js');
    expect([...(await unreachable(t.db, [s.carrierId]))]).toEqual([s.carrierId]);
  });

  it('SMS and e-mail to the trigger\'s level-1 contact first; repeats every interval up to the repeat times; then the next level; acknowledgement stops the chain', async () => {
    const s = await site(t.db, cid(), { name: 'Chain fridge' });
    const first = await contact('Nurse on duty', 'duty@alpha.test', '13800000011', 1);
    const second = await contact('Pharmacist', 'pharm@alpha.test', '13800000012', 2);
    await trigger(s, { channels: ['email', 'sms'], repeat_times: 2, repeat_interval_min: 1, escalate_after_min: 5 }, [first, second]);
    await ingest(t.db, s, recent([5, 9.5]));
    await evaluate(s);
    expect((await rows(s)).map((r) => [r.channel, r.recipient]).sort()).toEqual([['email', 'duty@alpha.test'], ['sms', '13800000011']]);
    // Nothing due yet; a minute on, the first repeat to level 1; then the second; the repeats are spent.
    const now = Date.now();
    expect(await t.db.tx((q) => advanceChains(q, now + 10_000))).toMatchObject({ notices: 0 });
    expect(await t.db.tx((q) => advanceChains(q, now + MIN + 1000))).toMatchObject({ notices: 2 });
    expect(await t.db.tx((q) => advanceChains(q, now + 2 * MIN + 2000))).toMatchObject({ notices: 2 });
    expect(await t.db.tx((q) => advanceChains(q, now + 3 * MIN + 3000))).toMatchObject({ notices: 0 });
    let r = await rows(s);
    expect(r).toHaveLength(6);
    expect(r.slice(2, 4).find((x) => x.channel === 'email')!.subject).toMatch(/reminder 1|第1次提醒/);
    expect(r.slice(2, 4).find((x) => x.channel === 'sms')!.content).toMatch(/reminder|提醒/);
    // Not acknowledged within 5 minutes: the pharmacist (level 2) is told, and only the pharmacist.
    expect(await t.db.tx((q) => advanceChains(q, now + 5 * MIN + 5000))).toMatchObject({ notices: 2 });
    r = await rows(s);
    expect(r.slice(6).map((x) => x.recipient).sort()).toEqual(['13800000012', 'pharm@alpha.test']);
    expect(r.slice(6).find((x) => x.channel === 'email')!.subject).toMatch(/escalation|升级/);
    // A signed handling step (status processed) stops the chain: nothing more, and the chain is closed.
    await t.db.query(`UPDATE exception_record SET status = 1 WHERE sensor_id = $1`, [s.sensorId]);
    expect(await t.db.tx((q) => advanceChains(q, now + 30 * MIN))).toMatchObject({ notices: 0 });
    expect((await t.db.one<{ chain_open: boolean }>(`SELECT chain_open FROM exception_record WHERE sensor_id = $1`, [s.sensorId]))!.chain_open).toBe(false);
    expect(await rows(s)).toHaveLength(8);
  });

  it('a chain with nobody above to escalate to waits untouched, then closes when its escalation falls due', async () => {
    const s = await site(t.db, cid(), { name: 'Top fridge' });
    const only = await contact('Only duty', 'only@alpha.test', '13800000031', 1);
    await trigger(s, { channels: ['email'], repeat_times: 0, escalate_after_min: 5 }, [only]);
    await ingest(t.db, s, recent([5, 9.5]));
    await evaluate(s);
    const now = Date.now();
    const open = async () => (await t.db.one<{ chain_open: boolean }>(`SELECT chain_open FROM exception_record WHERE sensor_id = $1`, [s.sensorId]))!.chain_open;
    expect(await open()).toBe(true);
    expect(await t.db.tx((q) => advanceChains(q, now + MIN))).toMatchObject({ steps: 0 });
    expect(await open()).toBe(true);
    expect(await t.db.tx((q) => advanceChains(q, now + 5 * MIN + 5000))).toMatchObject({ notices: 0 });
    expect(await open()).toBe(false);
    expect(await rows(s)).toHaveLength(1);
  });

  it('an SMS-only trigger repeats a device exception\'s first SMS, not an empty line', async () => {
    const s = await site(t.db, cid(), { name: 'Silent fridge' });
    const duty = await contact('Night duty', '', '13800000021', 1);
    await trigger(s, { channels: ['sms'], repeat_times: 1, repeat_interval_min: 1 }, [duty]);
    const now = Date.now();
    const ex = (await t.db.one<{ id: number }>(
      `INSERT INTO exception_record (customer_id, carrier_id, sensor_id, type, category, start_ts, ongoing, chain_open, notified_at, level_since, notice_level)
       VALUES ($1, $2, $3, 'offline', 'sensor_connect', $4, true, true, $4, $4, 1) RETURNING id`,
      [cid(), s.carrierId, s.sensorId, new Date(now)],
    ))!.id;
    const firstSms = 'Coldwatch alarm: Silent fridge Sensor offline (S1) since 11-27 03:00';
    await t.db.query(`INSERT INTO notice_log (customer_id, exception_id, type, channel, recipient, subject, content) VALUES ($1, $2, 'alarm', 'sms', '13800000021', '', $3)`, [cid(), ex, firstSms]);
    expect(await t.db.tx((q) => advanceChains(q, now + MIN + 1000))).toMatchObject({ notices: 1 });
    const repeat = (await rows(s)).at(-1)!;
    expect(repeat.channel).toBe('sms');
    expect(repeat.content).toMatch(/reminder 1|第1次提醒/);
    expect(repeat.content).toContain(firstSms);
  });

  it('outside its hours the exception is recorded and told by the off-hours channel only; none: a skipped row', async () => {
    const s = await site(t.db, cid(), { name: 'Night fridge' });
    const nurse = await contact('Night nurse', 'night@alpha.test', '13800000021', 1);
    // Weekday 1..7 but a window that never contains now: 1 minute wide, 12 hours from now.
    const h = (new Date(Date.now() + 12 * 3600_000 + 8 * 3600_000).getUTCHours() * 60) % 1440; // the customer's zone is +08:00
    await trigger(s, { channels: ['email'], win_start: [h], win_end: [h + 1], off_channels: ['voice'] }, [nurse]);
    await ingest(t.db, s, recent([5, 9.5]));
    await evaluate(s);
    expect((await rows(s)).map((r) => [r.channel, r.recipient])).toEqual([['voice', '13800000021']]);
    // The customer's SMS switch off: no voice either, and the log says the switch is why.
    await t.db.query(`UPDATE customer SET notify_sms = false WHERE id = $1`, [cid()]);
    await ingest(t.db, s, recent([5, 5, 9.5]).map(([ts, v]) => [ts + 10_000, v] as [number, number]));
    await evaluate(s);
    await t.db.query(`UPDATE customer SET notify_sms = true WHERE id = $1`, [cid()]);
    await t.db.query(`UPDATE alarm_trigger SET off_channels = '{}' WHERE id = (SELECT trigger_id FROM carrier WHERE id = $1)`, [s.carrierId]);
    await ingest(t.db, s, recent([5, 5, 5, 9.5]).map(([ts, v]) => [ts + 30_000, v] as [number, number]));
    await evaluate(s);
    const ex = await t.db.query(`SELECT id FROM exception_record WHERE sensor_id = $1`, [s.sensorId]);
    expect(ex.length).toBe(3);
    expect((await rows(s)).slice(1).map((r) => [r.status, r.result])).toEqual([[3, 'notifyOff'], [3, 'outsideHours']]);
  });

  it('during a pause the excursion is recorded, marked and nobody told; the pause ends by the job, logged', async () => {
    const s = await site(t.db, cid(), { name: 'Paused fridge', emails: ['ops@alpha.test'] });
    await t.db.query(`UPDATE carrier SET paused_until = now() + interval '1 hour', pause_reason = 'defrost' WHERE id = $1`, [s.carrierId]);
    await ingest(t.db, s, recent([5, 9.5]));
    await evaluate(s);
    expect((await t.db.one<{ during_pause: boolean }>(`SELECT during_pause FROM exception_record WHERE sensor_id = $1`, [s.sensorId]))!.during_pause).toBe(true);
    expect((await rows(s)).map((r) => [r.status, r.result])).toEqual([[3, 'paused']]);
    expect((await t.db.tx((q) => resumeDuePauses(q, Date.now()))).resumed).toBe(0);
    expect((await t.db.tx((q) => resumeDuePauses(q, Date.now() + 2 * 3600_000))).resumed).toBeGreaterThanOrEqual(1);
    const log = await t.db.one<{ reason: string; operator: string }>(`SELECT reason, operator FROM alarm_switch_log WHERE carrier_id = $1 ORDER BY id DESC LIMIT 1`, [s.carrierId]);
    expect(log).toMatchObject({ reason: 'pause ended: defrost', operator: 'system' });
    expect((await t.db.one<{ paused_until: Date | null }>(`SELECT paused_until FROM carrier WHERE id = $1`, [s.carrierId]))!.paused_until).toBeNull();
  });
});
