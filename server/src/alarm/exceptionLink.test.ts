import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../test/helper.js';
import { startSmtpSink } from '../../test/smtp.js';
import { createNotifier } from './notifier.js';

/*
 * The /exDetail link in the alarm e-mail: with PUBLIC_URL the notifier closes an exception's
 * mail with a link made as it sends (the customer's language), which opens that exception
 * without a session; without PUBLIC_URL, or for a notice of no exception, no link.
 */

let t: TestCtx;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let exA: number;

/** The text of a raw single-part mail, quoted-printable or base64 undone. */
function textOf(raw: string): string {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  if (/content-transfer-encoding:\s*base64/i.test(head)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) {
    return Buffer.from(body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8');
  }
  return body;
}

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await setup();
  await t.db.query(`UPDATE app_user SET locale = 'en-US' WHERE account = 'alpha'`);
  exA = (await t.db.one<{ id: number }>(
    `INSERT INTO exception_record (customer_id, type, category, start_ts, first_value, peak_value) VALUES ($1, 'data', 'temp_high', now(), 9.1, 9.1) RETURNING id`,
    [t.tenants.a.customerId],
  ))!.id;
}, 180_000);
afterAll(async () => {
  await t?.close();
  await smtp?.stop();
});

async function sendOne(publicUrl: string | undefined, exceptionId: number | null, customerId = t.tenants.a.customerId) {
  await t.db.query(`INSERT INTO notice_log (customer_id, exception_id, type, channel, recipient, subject, content) VALUES ($1, $2, 'alarm', 'email', 'qa@alpha.test', 'Alarm', 'The body.')`, [
    customerId,
    exceptionId,
  ]);
  // One millisecond ahead: the row's next_attempt_at has microseconds and Date.now() floors them,
  // so a pass within the insert's millisecond would otherwise find nothing due (a CI run did).
  const notifier = createNotifier(t.db, { smtpUrl: smtp.url, mailFrom: 'console@cold.test', publicUrl }, { now: () => Date.now() + 1 });
  try {
    expect(await notifier.pass()).toBe(1);
    await notifier.idle();
  } finally {
    notifier.close();
  }
  return textOf(smtp.mails.at(-1)!);
}

describe('the /exDetail link in the alarm e-mail', () => {
  it('closes the mail with a link on PUBLIC_URL, in the customer\'s language, that opens the exception without a session', async () => {
    const text = await sendOne('https://cold.example.org', exA);
    expect(text).toContain('The body.');
    expect(text).toContain('See this exception and how it was handled, without signing in (the link works for 7 days):');
    const url = /https:\/\/cold\.example\.org\/exDetail\?token=(\S+)/.exec(text);
    expect(url).not.toBeNull();
    const res = await t.app.inject({ method: 'GET', url: `/service/exception/shared?token=${url![1]}` });
    expect(res.json().result).toMatchObject({ id: exA, peakValue: 9.1, customerName: 'Alpha Hospital' });
    // Nothing of the token is kept in the notice log.
    expect((await t.db.one<{ content: string }>('SELECT content FROM notice_log ORDER BY id DESC LIMIT 1'))!.content).toBe('The body.');
  });

  it('writes the link\'s paragraph in Chinese for a customer without an English-speaking user', async () => {
    const exB = (await t.db.one<{ id: number }>(`INSERT INTO exception_record (customer_id, type, category, start_ts) VALUES ($1, 'data', 'temp_low', now()) RETURNING id`, [t.tenants.b.customerId]))!.id;
    const text = await sendOne('https://cold.example.org', exB, t.tenants.b.customerId);
    expect(text).toContain('无需登录即可查看此异常及其处理情况（链接 7 天内有效）');
    expect(text).toContain(`/exDetail?token=${exB}.${t.tenants.b.customerId}.`);
  });

  it('has no link without PUBLIC_URL, nor for a notice of no exception', async () => {
    expect(await sendOne(undefined, exA)).not.toContain('exDetail');
    expect(await sendOne('https://cold.example.org', null)).not.toContain('exDetail');
  });
});
