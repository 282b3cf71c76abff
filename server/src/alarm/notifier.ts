import { NOTICE_CHANNELS, type NoticeChannel } from '@coldwatch/contract';
import type { Metrics } from '../platform/metrics/metrics.js';
import type { Db } from '../platform/db/client.js';
import { createSenders, NOT_CONFIGURED, SendError, type ChannelConfig, type Outgoing, type Sender } from './channels/index.js';
import { exceptionLinkUrl, signExceptionLink } from './exceptionLink.js';
import { noticeLocale, renderDetailLink } from './templates.js';

/**
 * Sends the notices the evaluator and the jobs left in notice_log (the outbox), on every
 * channel: e-mail, SMS and voice, each row to its channel's sender (alarm/channels). A row is
 * claimed by pushing its next_attempt_at past a lease, under FOR UPDATE SKIP LOCKED, so replicas
 * never pick the same row; it is sent outside any transaction; the outcome is written back. A
 * crash between sending and writing leaves the row pending: after the lease it is sent again
 * (at least once; a duplicate alarm is preferred to a lost one, and each carries its id as an
 * idempotency key so a provider or mail system can tell).
 *
 * Sends are not awaited by the pass: each channel keeps up to `batch` in flight, and a pass
 * claims only what a channel has room for. A provider that hangs until its timeout therefore
 * holds up neither the other channels nor the next notices of its own beyond its free slots.
 */

/** 2 s, 5 s, 15 s, 30 s, 1 min, then 2, 4, 8, 16, 32 min: eleven attempts span about an hour. */
export const NOTICE_MAX_ATTEMPTS = 11;
/** While one replica talks to a provider, the row is invisible to the others. */
export const NOTICE_LEASE_MS = 5 * 60_000;
export { NOT_CONFIGURED };

const QUICK_STEPS_MS = [2_000, 5_000, 15_000, 30_000, 60_000];
/**
 * The wait after the n-th failed attempt. The first retries of an alarm come within seconds:
 * one SMTP timeout in a busy minute followed by a 30 s wait delayed alarms by half a minute
 * (docs/alarms.md "Retries"); a provider that stays away is then asked ever less often.
 */
export const backoffMs = (attempts: number) =>
  attempts <= QUICK_STEPS_MS.length ? QUICK_STEPS_MS[Math.max(0, attempts - 1)] : Math.min(60_000 * 2 ** (attempts - QUICK_STEPS_MS.length), 3_600_000);

/**
 * The bound of the notices due at `now`: a notice is written with the database's now() in
 * microseconds and the pass reads the process's clock in milliseconds, so a pass within the
 * notice's own millisecond would find it not yet due and leave it to the next sweep (15 s later).
 * The millisecond after `now` takes it.
 */
const dueBy = (now: number) => new Date(Math.floor(now) + 1);

interface Claimed {
  id: number;
  customer_id: number;
  exception_id: number | null;
  /** A scheduled report whose PDF the mail attaches (jobs/reportSchedule.ts). */
  report_id: number | null;
  channel: NoticeChannel;
  recipient: string;
  subject: string;
  content: string;
  attempts: number;
  created_at: Date;
}

export interface NotifierOptions {
  now: () => number;
  /** Sends in flight at once per channel (the claim's size). */
  batch?: number;
  log?: { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
  /** Where the delivery time of each sent notice is observed (/metrics). */
  metrics?: Pick<Metrics, 'observe'>;
  /**
   * Asks for another pass in `delayMs`: 0 when a full channel got a free slot, the back-off when
   * a retry was scheduled (so a quick retry does not wait for the notice-retry job's sweep).
   */
  wake?: (delayMs: number) => void;
  /** The senders, when a test brings its own; default: from the configuration. */
  senders?: Partial<Record<NoticeChannel, Sender>>;
}

export interface Notifier {
  /** Claims what is due and starts sending it; answers how many rows it claimed or failed (0 = nothing due). */
  pass(): Promise<number>;
  /** Resolves when no send is in flight. */
  idle(): Promise<void>;
  busy(): boolean;
  close(): void;
}

export function createNotifier(db: Db, config: ChannelConfig & { publicUrl?: string }, opts: NotifierOptions): Notifier {
  const batch = opts.batch ?? 20;
  const senders = opts.senders ?? createSenders(config, opts.now);
  const unconfigured = NOTICE_CHANNELS.filter((c) => !senders[c]);
  const warned = new Set<NoticeChannel>();
  const inflight = new Map<NoticeChannel, Set<Promise<void>>>(NOTICE_CHANNELS.map((c) => [c, new Set()]));
  /**
   * Outcomes of notices already handed to their provider whose write-back failed (the database
   * went away): written first when it is back, so the notice is not sent again when its lease ends.
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

  /** Visible in the notice log, never silently dropped: the operator sees why, configures the channel and retries them. */
  async function failUnconfigured(now: number): Promise<number> {
    if (!unconfigured.length) return 0;
    const rows = await db.query<{ channel: NoticeChannel }>(
      `UPDATE notice_log SET status = 2, attempts = attempts + 1,
              result = CASE channel WHEN 'email' THEN $3 WHEN 'sms' THEN $4 WHEN 'voice' THEN $5 ELSE 'no such channel' END
        WHERE id IN (SELECT id FROM notice_log WHERE status = 0 AND channel = ANY($2::text[]) AND next_attempt_at <= $1
                      ORDER BY id LIMIT 500 FOR UPDATE SKIP LOCKED)
        RETURNING channel`,
      [dueBy(now), unconfigured, NOT_CONFIGURED.email, NOT_CONFIGURED.sms, NOT_CONFIGURED.voice],
    );
    for (const c of new Set(rows.map((r) => r.channel))) {
      if (warned.has(c)) continue;
      warned.add(c);
      opts.log?.warn({ channel: c }, `alarm notices not sent: ${NOT_CONFIGURED[c]}`);
    }
    return rows.length;
  }

  async function claim(channel: NoticeChannel, now: number, limit: number): Promise<Claimed[]> {
    return db.query<Claimed>(
      `UPDATE notice_log SET next_attempt_at = $2
        WHERE id IN (SELECT id FROM notice_log
                      WHERE status = 0 AND channel = $4 AND next_attempt_at <= $1
                      ORDER BY next_attempt_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING id, customer_id, exception_id, report_id, channel, recipient, subject, content, attempts, created_at`,
      [dueBy(now), new Date(now + NOTICE_LEASE_MS), limit, channel],
    );
  }

  async function pass(): Promise<number> {
    while (unwritten.length) {
      await unwritten[0]();
      unwritten.shift();
    }
    const now = opts.now();
    let handled = await failUnconfigured(now);
    for (const channel of NOTICE_CHANNELS) {
      const sender = senders[channel];
      const running = inflight.get(channel)!;
      const room = batch - running.size;
      if (!sender || room <= 0) continue;
      const rows = await claim(channel, now, room);
      for (const n of rows) {
        const p: Promise<void> = send(sender, n)
          .catch((err) => opts.log?.error({ err, noticeId: n.id }, 'notice outcome not written'))
          .finally(() => {
            running.delete(p);
            // This channel was full: what waited behind it may go now.
            if (running.size === batch - 1) opts.wake?.(0);
          });
        running.add(p);
      }
      handled += rows.length;
    }
    return handled;
  }

  /**
   * An exception's mail and SMS close with its /exDetail link when the console has a PUBLIC_URL
   * (the address its recipients reach it by): made now, so its 7 days count from this sending.
   * A voice call reads its text aloud, so it gets none.
   */
  async function textOf(n: Claimed): Promise<string> {
    if (!config.publicUrl || n.exception_id === null || n.channel === 'voice') return n.content;
    const { token } = await signExceptionLink(db, n.exception_id, n.customer_id, opts.now());
    return n.content + renderDetailLink(exceptionLinkUrl(config.publicUrl, token), await noticeLocale(db, n.customer_id, n.channel, n.recipient));
  }

  /**
   * The report a mail attaches, read as it is sent (the outbox keeps its reference, not a copy).
   * A report gone meanwhile (its customer deleted) fails the notice for good.
   */
  async function attachmentsOf(n: Claimed): Promise<Outgoing['attachments']> {
    if (n.report_id === null || n.channel !== 'email') return undefined;
    const [r] = await db.query<{ pdf: Buffer | null; name: string }>(
      `SELECT pdf, coalesce(nullif(group_name, ''), carrier_names[1], 'report') || '_' || to_char(start_ts AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS name FROM report WHERE id = $1 AND status = 'generated'`,
      [n.report_id],
    );
    if (!r?.pdf) throw new SendError('the report to attach is gone or not made', true);
    const name = r.name.replace(/[\\/:*?"<>|\s]+/g, '_');
    return [{ filename: `${name}.pdf`, content: Buffer.from(r.pdf), contentType: 'application/pdf' }];
  }

  async function send(sender: Sender, n: Claimed) {
    const attempts = n.attempts + 1;
    let response: string;
    try {
      response = await sender.send({ id: Number(n.id), to: n.recipient, subject: n.subject, text: await textOf(n), attachments: await attachmentsOf(n) });
    } catch (err) {
      const e = err instanceof SendError ? err : new SendError(String((err as Error)?.message ?? err), false);
      const reason = e.reason.slice(0, 500);
      if (e.permanent || attempts >= NOTICE_MAX_ATTEMPTS) {
        await db.query(`UPDATE notice_log SET status = 2, attempts = $2, result = $3 WHERE id = $1`, [
          n.id, attempts, e.permanent ? reason : `gave up after ${attempts} attempts: ${reason}`,
        ]);
        opts.log?.error({ noticeId: n.id, channel: n.channel, reason }, 'alarm notice failed');
      } else {
        const wait = backoffMs(attempts);
        await db.query(`UPDATE notice_log SET attempts = $2, result = $3, next_attempt_at = $4 WHERE id = $1`, [n.id, attempts, reason, new Date(opts.now() + wait)]);
        opts.wake?.(wait);
      }
      return;
    }
    const sentAt = new Date(opts.now());
    await writeBack(() =>
      db.query(`UPDATE notice_log SET status = 1, attempts = $2, send_time = $3, result = $4 WHERE id = $1`, [n.id, attempts, sentAt, response.slice(0, 500)]),
    );
    opts.metrics?.observe('coldwatch_notice_delivery_seconds', 'Notice written to accepted by its provider', { channel: n.channel }, (Date.now() - n.created_at.getTime()) / 1000);
  }

  const all = () => [...inflight.values()].flatMap((s) => [...s]);
  return {
    pass,
    busy: () => all().length > 0,
    async idle() {
      for (let p = all(); p.length; p = all()) await Promise.all(p);
    },
    close() {
      for (const s of Object.values(senders)) s?.close?.();
    },
  };
}
