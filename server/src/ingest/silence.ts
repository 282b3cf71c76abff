import type { Db } from '../platform/db/client.js';
import type { Fault } from '../platform/health/health.js';
import { reportFailure, type FailureLog } from '../platform/db/outage.js';
import type { IngestService } from './service.js';

export interface SilenceOptions {
  /** No message for this long, while gateways were online, is a deaf ingest (INGEST_SILENCE_S). 0 turns the watch off. */
  silenceMs: number;
  /** How often it looks. Default a quarter of silenceMs, at most 15 s. */
  checkMs?: number;
  /** Called once when the fault begins: the external consumer connects and subscribes again. */
  remedy?: (cause: string) => void;
}

/** Gateways count as online when seen within this before ingest went quiet. */
const ONLINE_WITHIN = '1 day';

/**
 * The deaf-ingest watchdog: when no message has come from any gateway for `silenceMs` although
 * gateways not stopped had been reporting before that, the 'ingest' fault begins (an error line,
 * /readyz not ready, coldwatch_fault_active{fault="ingest"} 1). A lost subscription, a broker
 * that stopped routing, a network cut in front of the console: whatever the cause, it is never
 * silent. The next message ends the fault (IngestService.noteMessage).
 */
export function startSilenceWatch(db: Db, svc: IngestService, fault: Fault, log: FailureLog, opts: SilenceOptions): { stop(): void } {
  svc.watchSilence(fault);
  if (opts.silenceMs <= 0) return { stop: () => undefined };
  let checking = false;
  const check = async () => {
    const quietMs = Date.now() - svc.lastMessageAt;
    if (fault.active || quietMs < opts.silenceMs || checking) return;
    checking = true;
    try {
      const row = await db.one<{ n: number }>(
        `SELECT count(*)::int AS n FROM gateway WHERE status <> 2 AND last_seen_at > $1::timestamptz - interval '${ONLINE_WITHIN}'`,
        [new Date(svc.lastMessageAt)],
      );
      // A message may have come while we asked.
      if (!row?.n || Date.now() - svc.lastMessageAt < opts.silenceMs) return;
      const cause = `no message from any gateway for ${Math.round(quietMs / 1000)} s, while ${row.n} gateway(s) had been reporting; check the broker and the console's subscription`;
      fault.begin(cause);
      opts.remedy?.(cause);
    } catch (err) {
      reportFailure(log, err, {}, 'ingest: silence check failed');
    } finally {
      checking = false;
    }
  };
  const timer = setInterval(() => void check(), opts.checkMs ?? Math.min(15_000, Math.max(250, opts.silenceMs / 4)));
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
