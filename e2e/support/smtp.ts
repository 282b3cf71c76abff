import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface Mail {
  to: string[];
  raw: string;
  subject: string;
  text: string;
  /** When it arrived (epoch ms). */
  at: number;
}

/** Enough MIME for the console's single-part text mails: encoded-word subject, base64 or plain body. */
function decode(raw: string): { subject: string; text: string } {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const header = (name: string) => unfolded.match(new RegExp(`^${name}:\\s*(.*)$`, 'im'))?.[1] ?? '';
  const subject = header('Subject').replace(/=\?UTF-8\?B\?([^?]*)\?=\s*/gi, (_, b64) => Buffer.from(b64, 'base64').toString('utf8'));
  const body = rest.join('\n\n');
  const text = /base64/i.test(header('Content-Transfer-Encoding')) ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8') : body;
  return { subject, text };
}

/** A real SMTP server on a free port that keeps what it receives. */
export async function startSmtp(): Promise<{ url: string; mails: Mail[]; stop(): Promise<void> }> {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    // The console keeps its SMTP connections open (a pool): stopping must not wait 30 s for them.
    closeTimeout: 50,
    onData(stream, session, done) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (c) => (raw += c));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, ...decode(raw), at: Date.now() });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, mails, stop: () => new Promise((r) => server.close(() => r())) };
}
