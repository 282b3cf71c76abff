import { reportFailure, type FailureLog } from '../platform/db/outage.js';
import type { Db } from '../platform/db/client.js';
import type { Bus } from '../platform/events.js';

export interface PresenceOptions {
  /** A gateway is offline after this long without a heartbeat or data. */
  gatewaySilenceMs?: number;
  intervalMs?: number;
}

/**
 * Marks silent devices offline: a sensor after 3 × its sample interval + 60 s without a
 * newer reading, a gateway after gatewaySilenceMs without a heartbeat or data. Only
 * running devices change (a stopped one stays stopped), and each change is announced once
 * as a deviceStatus event. Idempotent, so several console replicas may all run it.
 */
export async function markSilentDevices(db: Db, bus: Bus, gatewaySilenceMs = 5 * 60_000): Promise<number> {
  const sensors = await db.query<{ id: number; customer_id: number }>(
    `UPDATE sensor SET status = 0
      WHERE status = 1 AND (last_ts IS NULL OR last_ts < now() - (3 * sample_interval + 60) * interval '1 second')
      RETURNING id, customer_id`,
  );
  const gateways = await db.query<{ id: number; customer_id: number }>(
    `UPDATE gateway SET status = 0
      WHERE status = 1 AND (last_seen_at IS NULL OR last_seen_at < now() - $1 * interval '1 millisecond')
      RETURNING id, customer_id`,
    [gatewaySilenceMs],
  );
  for (const s of sensors) bus.emit('deviceStatus', { customerId: s.customer_id, kind: 'sensor', id: s.id, status: 0 });
  for (const g of gateways) bus.emit('deviceStatus', { customerId: g.customer_id, kind: 'gateway', id: g.id, status: 0 });
  return sensors.length + gateways.length;
}

export function startPresence(db: Db, bus: Bus, log: FailureLog, opts: PresenceOptions = {}): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = markSilentDevices(db, bus, opts.gatewaySilenceMs)
      .catch((err) => reportFailure(log, err, {}, 'presence: scan failed'))
      .finally(() => (running = null));
  }, opts.intervalMs ?? 30_000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
