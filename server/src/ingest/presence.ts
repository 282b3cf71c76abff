import { reportFailure, type FailureLog } from '../platform/db/outage.js';
import type { Db } from '../platform/db/client.js';
import type { Bus } from '../platform/events.js';

export interface PresenceOptions {
  /** A gateway is offline after this long without a heartbeat or data. */
  gatewaySilenceMs?: number;
  intervalMs?: number;
}

/** A running sensor without a reading for 3 × its sample interval + 60 s (columns prefixed by `t`). */
const silentSensor = (t: string) =>
  `${t}status = 1 AND (${t}last_ts IS NULL OR ${t}last_ts < now() - (3 * ${t}sample_interval + 60) * interval '1 second')`;
/** A running gateway silent for $1 ms. */
const silentGateway = (t: string) => `${t}status = 1 AND (${t}last_seen_at IS NULL OR ${t}last_seen_at < now() - $1 * interval '1 millisecond')`;

/**
 * Marks silent devices offline: a sensor after 3 × its sample interval + 60 s without a
 * newer reading, a gateway after gatewaySilenceMs without a heartbeat or data. Only
 * running devices change (a stopped one stays stopped), and each change is announced once
 * as a deviceStatus event. Idempotent, so several console replicas may all run it.
 */
export async function markSilentDevices(db: Db, bus: Bus, gatewaySilenceMs = 5 * 60_000): Promise<number> {
  // Rows an ingest batch holds are skipped, not waited for (SKIP LOCKED): that batch is making
  // them fresh, and a scan that waited would hold the rows it had already marked while the
  // batch, locking in id order, waits for one of them: a deadlock whose victim may be the
  // ingest batch (writer.ts retries it; before that, its MQTT session was dropped).
  const sensors = await db.query<{ id: number; customer_id: number }>(
    `UPDATE sensor s SET status = 0
       FROM (SELECT id FROM sensor WHERE ${silentSensor('')} ORDER BY id FOR UPDATE SKIP LOCKED) o
      WHERE s.id = o.id AND ${silentSensor('s.')}
      RETURNING s.id, s.customer_id`,
  );
  const gateways = await db.query<{ id: number; customer_id: number }>(
    `UPDATE gateway g SET status = 0
       FROM (SELECT id FROM gateway WHERE ${silentGateway('')} ORDER BY id FOR UPDATE SKIP LOCKED) o
      WHERE g.id = o.id AND ${silentGateway('g.')}
      RETURNING g.id, g.customer_id`,
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
