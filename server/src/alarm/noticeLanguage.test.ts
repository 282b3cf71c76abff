import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXCEPTION_CATEGORIES } from '@coldwatch/contract';
import { setup, type TestCtx } from '../../test/helper.js';
import { evaluateSensor } from './evaluator.js';
import { advanceChains } from './noticeChain.js';
import { noticeLocale } from './templates.js';
import { ingest, site } from './testkit.js';

/**
 * Every notice of a trigger in its recipient's own language (docs/alarms.md "Notices"): the
 * first notice, the repeats and the escalation, mail and SMS, to a zh-CN and an en-US contact of
 * the same customer; and the language the notifier writes the /exDetail line in.
 */

let t: TestCtx;
beforeAll(async () => {
  t = await setup();
  await t.db.query(`UPDATE customer SET notify_sms = true WHERE id = $1`, [t.tenants.a.customerId]);
}, 180_000);
afterAll(() => t?.close());

const MIN = 60_000;
const HAN = /[\u4e00-\u9fff]/;
/** Words of the English alarm texts: a Chinese notice has none of them (nor half of one in each language). */
const ENGLISH = /Coldwatch alarm|Coldwatch has detected|Monitoring point|Allowed range|upper limit/;
const cid = () => t.tenants.a.customerId;

async function contact(name: string, email: string, phone: string, level: number, locale: string | null) {
  const r = await t.db.one<{ id: number }>(
    `INSERT INTO contact (customer_id, name, email, phone, alarm_level, locale) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [cid(), name, email, phone, level, locale],
  );
  return r!.id;
}

describe('trigger notices in each contact\'s language', () => {
  it('first notice, repeat and escalation: the zh-CN contact reads Chinese, the en-US contact English, mail and SMS', async () => {
    const s = await site(t.db, cid(), { name: 'Fridge L' });
    // Both at level 1 get the first notice and the repeat; the level-2 ones only the escalation.
    const zh1 = await contact('Wang', 'wang@alpha.test', '13800000101', 1, 'zh-CN');
    const en1 = await contact('Smith', 'smith@alpha.test', '13800000102', 1, 'en-US');
    const zh2 = await contact('Li', 'li@alpha.test', '13800000103', 2, 'zh-CN');
    const en2 = await contact('Jones', 'jones@alpha.test', '13800000104', 2, 'en-US');
    const tr = await t.db.one<{ id: number }>(
      `INSERT INTO alarm_trigger (customer_id, name, categories, channels, repeat_times, repeat_interval_min, escalate_after_min)
       VALUES ($1, 'Languages', $2, '{email,sms}', 1, 1, 5) RETURNING id`,
      [cid(), [...EXCEPTION_CATEGORIES]],
    );
    for (const c of [zh1, en1, zh2, en2]) await t.db.query(`INSERT INTO alarm_trigger_contact (trigger_id, contact_id, customer_id) VALUES ($1, $2, $3)`, [tr!.id, c, cid()]);
    await t.db.query(`UPDATE carrier SET trigger_id = $2 WHERE id = $1`, [s.carrierId, tr!.id]);

    await ingest(t.db, s, [[Date.now() - 2000, 5], [Date.now() - 1000, 9.5]]);
    await t.db.tx((q) => evaluateSensor(q, s.sensorId));
    const now = Date.now();
    await t.db.tx((q) => advanceChains(q, now + MIN + 1000)); // the repeat
    await t.db.tx((q) => advanceChains(q, now + 5 * MIN + 5000)); // the escalation
    const rows = await t.db.query<{ recipient: string; subject: string; content: string }>(
      `SELECT n.recipient, n.subject, n.content FROM notice_log n JOIN exception_record e ON e.id = n.exception_id WHERE e.sensor_id = $1 AND n.status = 0 ORDER BY n.id`,
      [s.sensorId],
    );
    const of = (to: string) => rows.filter((r) => r.recipient === to).map((r) => r.subject + r.content);
    // Level 1: first notice and repeat on each channel; level 2: the escalation.
    for (const to of ['wang@alpha.test', 'smith@alpha.test', '13800000101', '13800000102']) expect(of(to)).toHaveLength(2);
    for (const to of ['li@alpha.test', 'jones@alpha.test', '13800000103', '13800000104']) expect(of(to)).toHaveLength(1);
    for (const text of [...of('wang@alpha.test'), ...of('13800000101'), ...of('li@alpha.test'), ...of('13800000103')]) {
      expect(text).toMatch(HAN);
      expect(text).not.toMatch(ENGLISH);
    }
    for (const text of [...of('smith@alpha.test'), ...of('13800000102'), ...of('jones@alpha.test'), ...of('13800000104')]) expect(text).not.toMatch(HAN);
    expect(of('smith@alpha.test')[1]).toMatch(/reminder 1/);
    expect(of('wang@alpha.test')[1]).toMatch(/第1次提醒/);
    expect(of('jones@alpha.test')[0]).toMatch(/escalation/i);
    expect(of('13800000103')[0]).toMatch(/升级/);
  });

  it('the notifier\'s /exDetail line follows the contact with that address; an unknown address gets the customer\'s language', async () => {
    await contact('Brown', 'brown@alpha.test', '13800000105', 1, 'en-US');
    await contact('Zhao', 'zhao@alpha.test', '13800000106', 1, 'zh-CN');
    expect(await noticeLocale(t.db, cid(), 'email', 'brown@alpha.test')).toBe('en-US');
    expect(await noticeLocale(t.db, cid(), 'sms', '13800000105')).toBe('en-US');
    expect(await noticeLocale(t.db, cid(), 'sms', '13800000106')).toBe('zh-CN');
    // Another customer's contact with the same address does not count.
    expect(await noticeLocale(t.db, t.tenants.b.customerId, 'email', 'brown@alpha.test')).not.toBe('en-US');
  });
});
