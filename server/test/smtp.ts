import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

/**
 * A real SMTP server on a free loopback port that keeps each mail it receives, raw, for the
 * server tests that follow a notice to its mail (e2e/support/smtp.ts is the browser tests' own).
 */
export async function startSmtpSink(): Promise<{ url: string; mails: string[]; stop(): Promise<void> }> {
  const mails: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // The notifier keeps its connections open (a pool): stopping must not wait 30 s for them.
    closeTimeout: 50,
    onData(stream, _session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push(Buffer.concat(chunks).toString('utf8'));
        cb();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, mails, stop: () => new Promise<void>((r) => server.close(() => r())) };
}
