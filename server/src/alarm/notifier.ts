import nodemailer, { type Transporter } from 'nodemailer';
import { parseConnectionUrl } from 'nodemailer/lib/shared/index.js';
import net from 'node:net';
import type { Config } from '../config.js';
import type { Metrics } from '../platform/metrics/metrics.js';
import type { Db } from '../platform/db/client.js';

/**
 * Sends the e-mail notices the evaluator left in notice_log (the outbox). A row is claimed
 * by pushing its next_attempt_at past a lease, under FOR UPDATE SKIP LOCKED, so replicas
 * never pick the same row; the mail is sent outside any transaction; the outcome is written
 * back. A crash between sending and writing leaves the row pending: after the lease it is
 * sent again (at least once; a duplicate mail is preferred to a lost alarm).
 */

export const NOTICE_MAX_ATTEMPTS = 8;
/** While one replica talks to the SMTP server, the row is invisible to the others. */
export const NOTICE_LEASE_MS = 5 * 60_000;
export const NOT_CONFIGURED = 'SMTP_URL not configured';

/** 30 s, 1, 2, 4, 8, 16, 32 min … capped at an hour: eight attempts span about an hour. */
export const backoffMs = (attempts: number) => Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);

interface Claimed {
  id: number;
  recipient: string;
  subject: string;
  content: string;
  attempts: number;
  created_at: Date;
}

export interface NotifierOptions {
  now: () => number;
  batch?: number;
  log?: { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
  /** Where the delivery time of each sent notice is observed (/metrics). */
  metrics?: Pick<Metrics, 'observe'>;
}

export function createNotifier(db: Db, config: Pick<Config, 'smtpUrl' | 'mailFrom'>, opts: NotifierOptions) {
  const batch = opts.batch ?? 20;
  let transport: Transporter | undefined;
  let warned = false;
  /**
   * Outcomes of mails already handed to SMTP whose write-back failed (the database went away):
   * written first when it is back, so the mail is not sent again when its lease ends.
   */
  const unwritten: (() => Promise<unknown>)[] = [];
  const writeBack = async (write: () => Promise<unknown>) => {
    try {
      await write();
    } catch (err) {
      unwritten.push(write);
      throw err;
    }
  };

  const mailer = () =>
    (transport ??= nodemailer.createTransport({
      // The URL's parts, not `url`: given `url`, nodemailer ignores every other option here
      // (no pool, no timeouts: a new connection and greeting for every mail, measured 150 ms each).
      ...parseConnectionUrl(config.smtpUrl!),
      // A few kept-open connections: an alarm wave is sent in parallel, without a TCP and
      // SMTP handshake per mail (one connection per mail took ~100 ms each under load).
      pool: true,
      maxConnections: 4,
      maxMessages: 200,
      // A server that accepts the connection and then hangs must not stall the queue.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
      // Our own socket, only to switch Nagle off: nodemailer writes a mail's body and its
      // closing dot apart, and the dot then waited for the server's delayed ACK (40 ms a mail).
      getSocket(o: { host: string; port: number }, cb: (err: Error | null, s?: { connection: net.Socket }) => void) {
        const connection = net.connect({ host: o.host, port: o.port });
        connection.setNoDelay(true);
        cb(null, { connection });
      },
    } as any));

  async function claim(now: number): Promise<Claimed[]> {
    return db.query<Claimed>(
      `UPDATE notice_log SET next_attempt_at = $2
        WHERE id IN (SELECT id FROM notice_log
                      WHERE status = 0 AND channel = 'email' AND next_attempt_at <= $1
                      ORDER BY next_attempt_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING id, recipient, subject, content, attempts, created_at`,
      [new Date(now), new Date(now + NOTICE_LEASE_MS), batch],
    );
  }

  /** One pass: the notices due now. Returns how many were handled (0 = nothing due). */
  async function pass(): Promise<number> {
    while (unwritten.length) {
      await unwritten[0]();
      unwritten.shift();
    }
    const now = opts.now();
    if (!config.smtpUrl) {
      // Visible in the notice log, never silently dropped: the operator sees why, sets
      // SMTP_URL and retries them from the console.
      const rows = await db.query(
        `UPDATE notice_log SET status = 2, attempts = attempts + 1, result = $2
          WHERE id IN (SELECT id FROM notice_log WHERE status = 0 AND channel = 'email' AND next_attempt_at <= $1
                        ORDER BY id LIMIT 500 FOR UPDATE SKIP LOCKED)
          RETURNING id`,
        [new Date(now), NOT_CONFIGURED],
      );
      if (rows.length && !warned) {
        warned = true;
        opts.log?.warn({ count: rows.length }, 'alarm e-mails not sent: SMTP_URL not configured');
      }
      return rows.length;
    }
    const rows = await claim(now);
    await Promise.all(rows.map(send));
    return rows.length;
  }

  async function send(n: Claimed) {
    const attempts = n.attempts + 1;
    let response: string;
    try {
      response = String((await mailer().sendMail({ from: config.mailFrom, to: n.recipient, subject: n.subject, text: n.content })).response ?? 'sent');
    } catch (err) {
      const e = err as { message?: string; responseCode?: number; code?: string };
      const reason = `${e.code ? `${e.code}: ` : ''}${e.message ?? String(err)}`.slice(0, 500);
      // A 5xx answer (unknown mailbox, authentication refused) will not change by waiting.
      const permanent = typeof e.responseCode === 'number' && e.responseCode >= 500 && e.responseCode < 600;
      if (permanent || attempts >= NOTICE_MAX_ATTEMPTS) {
        await db.query(`UPDATE notice_log SET status = 2, attempts = $2, result = $3 WHERE id = $1`, [
          n.id, attempts, permanent ? reason : `gave up after ${attempts} attempts: ${reason}`,
        ]);
        opts.log?.error({ noticeId: n.id, reason }, 'alarm e-mail failed');
      } else {
        await db.query(`UPDATE notice_log SET attempts = $2, result = $3, next_attempt_at = $4 WHERE id = $1`, [
          n.id, attempts, reason, new Date(opts.now() + backoffMs(attempts)),
        ]);
      }
      return;
    }
    const sentAt = new Date(opts.now());
    await writeBack(() =>
      db.query(`UPDATE notice_log SET status = 1, attempts = $2, send_time = $3, result = $4 WHERE id = $1`, [n.id, attempts, sentAt, response.slice(0, 500)]),
    );
    opts.metrics?.observe('coldwatch_notice_delivery_seconds', 'Notice written to mail accepted by SMTP', { channel: 'email' }, (Date.now() - n.created_at.getTime()) / 1000);
  }

  return {
    pass,
    close() {
      transport?.close();
      transport = undefined;
    },
  };
}
