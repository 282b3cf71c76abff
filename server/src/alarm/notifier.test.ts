import net, { type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../test/helper.js';
import { startAlarm, type Alarm } from './index.js';
import { NOTICE_MAX_ATTEMPTS } from './notifier.js';
import { ingest, site, type Site } from './testkit.js';

/** A real SMTP server (smtp-server) that keeps what it receives. Recipients in `tempfail` get a 451, in `reject` a 550. */
async function mailServer(port: number) {
  const mails: { to: string[]; from: string; raw: string }[] = [];
  const seen = { connections: 0 };
  const tempfail = new Set<string>();
  const reject = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // The notifier keeps its connections open (a pool): closing the server between tests must not wait 30 s for them.
    closeTimeout: 50,
    onConnect(_session, cb) {
      seen.connections++;
      cb();
    },
    onRcptTo(addr, _session, cb) {
      if (tempfail.has(addr.address)) return cb(Object.assign(new Error('Mailbox busy, try later'), { responseCode: 451 }));
      if (reject.has(addr.address)) return cb(Object.assign(new Error('No such user'), { responseCode: 550 }));
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((a) => a.address), from: (session.envelope.mailFrom || { address: '' }).address, raw: Buffer.concat(chunks).toString('utf8') });
        cb();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return { mails, seen, tempfail, reject, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** Headers and text body of a raw single-part mail, with encoded words, base64 and quoted-printable undone. */
function parseMail(raw: string) {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  const qp = (s: string) => Buffer.from(s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8');
  const words = (s: string) =>
    s.replace(/\?=\s+=\?/g, '?==?').replace(/=\?utf-8\?([BQ])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
      enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : qp(text.replace(/_/g, ' ')),
    );
  const body = rest.join('\n\n');
  const cte = (headers['content-transfer-encoding'] ?? '').toLowerCase();
  const text = cte === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8') : cte === 'quoted-printable' ? qp(body) : body;
  return { subject: words(headers.subject ?? ''), from: headers.from ?? '', messageId: headers['message-id'] ?? '', text };
}

const T0 = Date.UTC(2024, 10, 22, 0, 0, 0);
const at = (min: number) => T0 + min * 60_000;

let t: TestCtx;
let alarm: Alarm;
let port: number;
/** The notifier's clock runs with real time plus a skip the tests add to instead of sleeping. */
let skip = 0;
const clock = () => Date.now() + skip;

beforeAll(async () => {
  port = await freePort();
  t = await setup({ SMTP_URL: `smtp://127.0.0.1:${port}` });
  alarm = startAlarm({ db: t.db, bus: t.bus, config: t.config }, { now: clock, pollMs: 60_000 });
}, 180_000); // building the app (migrations, three argon2 hashes) is slow on a busy machine
afterAll(async () => {
  await alarm?.stop();
  await t?.close();
});

const noticesOf = (s: Site) =>
  t.db.query(`SELECT n.* FROM notice_log n JOIN exception_record e ON e.id = n.exception_id WHERE e.sensor_id = $1 ORDER BY n.id`, [s.sensorId]);

async function excursion(name: string, email: string, customerId = t.tenants.a.customerId) {
  const s = await site(t.db, customerId, { name, emails: [email] });
  await ingest(t.db, s, [[at(0), 5], [at(1), 9.5]]);
  await alarm.drain();
  return s;
}

describe('alarm e-mail', () => {
  it('keeps the notice pending with its error while the mail server is down, then sends it', async () => {
    const s = await excursion('Cold Room 7', 'ops@beta.test', t.tenants.b.customerId);
    let [n] = await noticesOf(s);
    expect(n).toMatchObject({ status: 0, attempts: 1 });
    expect(n.result).toMatch(/ECONNREFUSED/);
    expect(new Date(n.next_attempt_at).getTime()).toBeGreaterThan(clock());

    // Not due yet: another pass leaves it alone.
    await alarm.drain();
    [n] = await noticesOf(s);
    expect(n.attempts).toBe(1);

    // The customer's people use English: the next alarm mails are in English.
    await t.db.query(`UPDATE app_user SET locale = 'en-US' WHERE id = $1`, [t.tenants.b.userId]);
    const smtp = await mailServer(port);
    try {
      skip += 60 * 60_000;
      await alarm.drain();
      [n] = await noticesOf(s);
      expect(n).toMatchObject({ status: 1, attempts: 2 });
      expect(n.result).toMatch(/^250/);
      expect(n.send_time).not.toBeNull();
      expect(smtp.mails).toHaveLength(1);
      const mail = parseMail(smtp.mails[0].raw);
      expect(smtp.mails[0].to).toEqual(['ops@beta.test']);
      expect(mail.subject).toContain('Cold Room 7');
      expect(mail.text).toContain('Cold Room 7');
      expect(mail.text).toContain('9.5');
      expect(mail.text).toContain(s.devNo);
      expect(mail.from).toContain('alarm@coldwatch.local');

      const english = await excursion('Cold Room 8', 'ops@beta.test', t.tenants.b.customerId);
      const last = parseMail(smtp.mails.at(-1)!.raw);
      expect((await noticesOf(english))[0].status).toBe(1);
      expect(last.subject).toBe('[Coldwatch alarm] Cold Room 8: Temperature above the upper limit');
      expect(last.text).toContain('Allowed range: 2°C to 8°C');
    } finally {
      await smtp.close();
    }
  });

  it('delivers in Chinese by default with the carrier name and the value', async () => {
    const smtp = await mailServer(port);
    try {
      const s = await excursion('冷库一号', 'ops@alpha.test');
      const [n] = await noticesOf(s);
      expect(n).toMatchObject({ status: 1, attempts: 1 });
      const mail = parseMail(smtp.mails[0].raw);
      expect(mail.subject).toBe('【冷链告警】冷库一号：温度超过上限');
      expect(mail.text).toContain('监测点：冷库一号');
      expect(mail.text).toContain('当前读数：9.5°C');
      expect(mail.text).toContain('2024-11-22 08:01:00 (UTC+08:00)');
      // The notice's id is the Message-ID: a mail sent twice (at least once) is one message.
      expect(mail.messageId).toBe(`<notice-${n.id}@coldwatch.local>`);
    } finally {
      await smtp.close();
    }
  });

  it('sends a wave of alarms over kept-open connections, not one connection per mail', async () => {
    const smtp = await mailServer(port);
    try {
      for (let i = 0; i < 6; i++) await excursion(`Pool ${i}`, 'ops@alpha.test');
      expect(smtp.mails).toHaveLength(6);
      // The pool opens at most its four connections; given the URL alone nodemailer opened six.
      expect(smtp.seen.connections).toBeLessThanOrEqual(4);
    } finally {
      await smtp.close();
    }
  });

  it('gives up at once on a permanent refusal and after the last attempt on temporary ones', async () => {
    const smtp = await mailServer(port);
    smtp.reject.add('nobody@alpha.test');
    smtp.tempfail.add('busy@alpha.test');
    try {
      const gone = await excursion('Freezer A', 'nobody@alpha.test');
      expect((await noticesOf(gone))[0]).toMatchObject({ status: 2, attempts: 1 });
      expect((await noticesOf(gone))[0].result).toMatch(/550/);

      const busy = await excursion('Freezer B', 'busy@alpha.test');
      for (let i = 1; i < NOTICE_MAX_ATTEMPTS; i++) {
        expect((await noticesOf(busy))[0]).toMatchObject({ status: 0, attempts: i });
        skip += 2 * 3600_000;
        await alarm.drain();
      }
      const [n] = await noticesOf(busy);
      expect(n).toMatchObject({ status: 2, attempts: NOTICE_MAX_ATTEMPTS });
      expect(n.result).toMatch(new RegExp(`^gave up after ${NOTICE_MAX_ATTEMPTS} attempts: .*451`));
      expect(smtp.mails).toHaveLength(0);
    } finally {
      await smtp.close();
    }
  }, 120_000);

  it('lets a failed notice be retried from the notice log', async () => {
    const smtp = await mailServer(port);
    smtp.reject.add('late@alpha.test');
    try {
      const s = await excursion('Freezer C', 'late@alpha.test');
      const [n] = await noticesOf(s);
      expect(n.status).toBe(2);
      smtp.reject.clear();
      const cookie = await t.login('alpha');
      const res = await t.app.inject({ method: 'PUT', url: `/service/notice/retry?ids=${n.id}`, headers: { cookie } });
      expect(res.json()).toMatchObject({ state: { code: 200000 }, result: { retried: 1 } });
      await alarm.drain();
      expect((await noticesOf(s))[0]).toMatchObject({ status: 1, attempts: 1 });
      expect(smtp.mails).toHaveLength(1);
      // Customer B cannot retry A's notices.
      const other = await t.app.inject({ method: 'PUT', url: `/service/notice/retry?ids=${n.id}`, headers: { cookie: await t.login('beta') } });
      expect(other.statusCode).toBe(404);
    } finally {
      await smtp.close();
    }
  });
});
