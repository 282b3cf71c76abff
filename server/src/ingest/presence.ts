import { reportFailure, type FailureLog } from '../platform/db/outage.js';
import type { Db, Queryable } from '../platform/db/client.js';
import type { Bus } from '../platform/events.js';
import {
  endSettled,
  judgeBatteries,
  markSilentGateways,
  markSilentSensors,
  openBusDeviceConnections,
  toEvent,
  type DeviceExRow,
} from '../alarm/devices.js';
import { writeDeviceNotices } from '../alarm/deviceNotices.js';

export interface PresenceOptions {
  intervalMs?: number;
}

/** What one scan did: devices marked offline, device exceptions opened and ended, notice rows written. */
export interface ScanFigures {
  offline: number;
  opened: number;
  ended: number;
  notices: number;
}

/**
 * The presence scan (the `presence` job, every 30 s; docs/jobs.md): marks silent devices offline
 * by the offline rule (alarm/offline.ts, the monitor tasks) and keeps the connection, power and
 * battery exceptions (alarm/devices.ts) in step with what the devices say.
 *
 * Retry-safe: each step is one transaction whose exceptions and notices commit together with
 * the status change that justified them. A scan cut off by the database going away commits
 * nothing of the step it was in; the job runner runs it again when the database is back, and
 * that run finds the same devices still running and silent, and marks and opens them then,
 * once. A step that committed is not done again: its devices are offline already (a status
 * change opens a connection exception only in the statement that makes it), and the partial
 * unique indexes keep one ongoing exception per subject and category whatever happens. So
 * several replicas, or a retry after an answer lost with the connection, never open twice.
 */
export async function scanDevices(db: Db, bus: Bus): Promise<ScanFigures> {
  const figures: ScanFigures = { offline: 0, opened: 0, ended: 0, notices: 0 };
  const opened: DeviceExRow[] = [];
  const ended: DeviceExRow[] = [];
  const status: { kind: 'sensor' | 'gateway'; id: number; customer_id: number }[] = [];

  /** One step in its own transaction: the bus hears of it only after its commit. */
  const step = async (fn: (q: Queryable) => Promise<{ opened?: DeviceExRow[]; ended?: DeviceExRow[]; offline?: typeof status }>) => {
    const r = await db.tx(async (q) => {
      const out = await fn(q);
      const notices = await writeDeviceNotices(q, out.opened ?? []);
      return { ...out, notices };
    });
    opened.push(...(r.opened ?? []));
    ended.push(...(r.ended ?? []));
    status.push(...(r.offline ?? []));
    figures.notices += r.notices;
    for (const e of r.ended ?? []) bus.emit('exception', toEvent(e));
    for (const e of r.opened ?? []) bus.emit('exception', toEvent(e));
    for (const d of r.offline ?? []) bus.emit('deviceStatus', { customerId: d.customer_id, kind: d.kind, id: d.id, status: 0 });
  };

  // What is over first (a device stopped or back), so that what opens next meets no stale row.
  await step(async (q) => ({ ended: await endSettled(q) }));
  await step(async (q) => {
    const m = await markSilentSensors(q);
    return { opened: m.opened, offline: m.offline.map((s) => ({ ...s, kind: 'sensor' as const })) };
  });
  await step(async (q) => {
    const m = await markSilentGateways(q);
    return { opened: m.opened, offline: m.offline.map((g) => ({ ...g, kind: 'gateway' as const })) };
  });
  await step(async (q) => ({ opened: await openBusDeviceConnections(q) }));
  await step(async (q) => judgeBatteries(q));

  figures.offline = status.length;
  figures.opened = opened.length;
  figures.ended = ended.length;
  return figures;
}

/** Marks silent devices offline (and everything scanDevices does); answers how many went offline. Kept for the callers of the first version. */
export async function markSilentDevices(db: Db, bus: Bus): Promise<number> {
  return (await scanDevices(db, bus)).offline;
}

/**
 * The scan on a timer of its own, for a process without the job runner (tests of ingest). The
 * console runs it as the `presence` job (jobs/index.ts), which retries it after a failure.
 */
export function startPresence(db: Db, bus: Bus, log: FailureLog, opts: PresenceOptions = {}): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = scanDevices(db, bus)
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
