import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import { parseConnectionUrl } from 'nodemailer/lib/shared/index.js';
import net from 'node:net';
import { SendError, type Outgoing, type Sender } from './types.js';

/**
 * E-mail over SMTP_URL through a pool of kept-open connections. The notice's id is the mail's
 * Message-ID, so a mail sent twice (delivery is at least once) is one message to the
 * recipient's mail system and threads as one.
 */
export function emailSender(smtpUrl: string, from: string): Sender {
  let transport: Transporter | undefined;
  // The Message-ID's right side: the sender's domain, as RFC 5322 suggests.
  const domain = /@([^>\s]+)/.exec(from)?.[1] ?? 'coldwatch.local';
  const mailer = () =>
    (transport ??= nodemailer.createTransport({
      // The URL's parts, not `url`: given `url`, nodemailer ignores every other option here
      // (no pool, no timeouts: a new connection and greeting for every mail, measured 150 ms each).
      ...parseConnectionUrl(smtpUrl),
      // A few kept-open connections: an alarm wave is sent in parallel, without a TCP and
      // SMTP handshake per mail (one connection per mail took ~100 ms each under load).
      pool: true,
      maxConnections: 4,
      maxMessages: 200,
      // A server that accepts the connection and then hangs must not stall an alarm: 10 s of
      // silence is a temporary failure, retried within seconds (notifier.ts backoffMs). It was
      // 30 s of socket silence followed by a 30 s back-off, which a busy minute turned into a
      // minute's delay.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 10_000,
      // Our own socket, only to switch Nagle off: nodemailer writes a mail's body and its
      // closing dot apart, and the dot then waited for the server's delayed ACK (40 ms a mail).
      getSocket(o: SMTPPool.Options, cb: (err: Error | null, s?: { connection: net.Socket }) => void) {
        const connection = net.connect({ host: o.host!, port: o.port! });
        connection.setNoDelay(true);
        cb(null, { connection });
      },
    } satisfies SMTPPool.Options));
  return {
    async send(n: Outgoing) {
      try {
        const info = await mailer().sendMail({ from, to: n.to, subject: n.subject, text: n.text, messageId: `<notice-${n.id}@${domain}>`, ...(n.attachments?.length ? { attachments: n.attachments } : {}) });
        return String(info.response ?? 'sent');
      } catch (err) {
        const e = err as { message?: string; responseCode?: number; code?: string };
        // A 5xx answer (unknown mailbox, authentication refused) will not change by waiting.
        const permanent = typeof e.responseCode === 'number' && e.responseCode >= 500 && e.responseCode < 600;
        throw new SendError(`${e.code ? `${e.code}: ` : ''}${e.message ?? String(err)}`, permanent);
      }
    },
    close() {
      transport?.close();
      transport = undefined;
    },
  };
}
