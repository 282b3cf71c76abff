/**
 * What every notice channel (e-mail, SMS, voice) shares: one notice to send, and how a sender
 * says it failed. The notifier (alarm/notifier.ts) claims rows of every channel and hands each
 * to its channel's sender; a sender never touches the database.
 */

export interface Outgoing {
  /** notice_log.id: sent with the notice as its idempotency key (a header, the mail's Message-ID). */
  id: number;
  to: string;
  subject: string;
  text: string;
  /** Files the mail carries (a scheduled report's PDF); the SMS and voice channels have none. */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

export interface Sender {
  /** Resolves with the provider's answer (kept in notice_log.result); rejects with a SendError. */
  send(n: Outgoing): Promise<string>;
  close?(): void;
}

/**
 * A failed send. `permanent`: waiting will not help (a refused number or mailbox, a rejected
 * signature): the row fails at once. Otherwise (timeout, 5xx, connection refused, throttling)
 * it is retried with back-off.
 */
export class SendError extends Error {
  constructor(
    readonly reason: string,
    readonly permanent: boolean,
  ) {
    super(reason);
  }
}

/** Why a row of a channel without a provider fails (shown in the notice log, as SMTP_URL's). */
export const NOT_CONFIGURED = { email: 'SMTP_URL not configured', sms: 'SMS_URL not configured', voice: 'VOICE_URL not configured' } as const;
