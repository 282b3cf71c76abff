import { liveApi } from '@coldwatch/contract';
import { scoped } from '../../platform/db/scoped.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import type { Module } from '../../deps.js';
import { serve } from '../../platform/http/route.js';
import { canSee, type Scope } from '../../platform/auth/scope.js';
import { resolveSession, SESSION_COOKIE } from '../../platform/auth/session.js';
import type { DeviceStatusEvent, ExceptionEvent, LiveReading } from '../../platform/events.js';
import type { Queryable } from '../../platform/db/client.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers with a stream that stays open (SSE): callers that wait for the end must not call it blindly. */
    stream?: boolean;
  }
}

/** SSE comment line every 15 s: keeps proxies from closing an idle stream and notices a vanished client. */
export const HEARTBEAT_MS = 15_000;

/**
 * Bytes a stream may hold unsent before its readings are skipped: a browser that does not keep
 * up (a background tab, a slow link) must not grow the console's memory without bound. Readings
 * are the only events skipped, since the page reads the latest values again when it refreshes;
 * exceptions and status changes are always queued.
 */
export const STREAM_BACKLOG_BYTES = 256 * 1024;

/** The carriers, sensors and gateways of a scene-limited caller's limit; null when not limited. */
interface LiveLimit {
  carriers: Set<number>;
  sensors: Set<number>;
  gateways: Set<number>;
}

async function liveLimit(q: Queryable, scope: Scope): Promise<LiveLimit | null> {
  if (scope.sceneIds === null) return null;
  const k = scoped(q, scope);
  const c = await k.selectFrom('carrier as t').select('t.id').where((eb) => sceneLimit(eb, scope, 'carrier')).execute();
  const s = await k.selectFrom('sensor as t').select('t.id').where((eb) => sceneLimit(eb, scope, 'sensor')).execute();
  const g = await k.selectFrom('gateway as t').select('t.id').where((eb) => sceneLimit(eb, scope, 'gateway')).execute();
  const ids = (rows: { id: number }[]) => new Set(rows.map((r) => r.id));
  return { carriers: ids(c), sensors: ids(s), gateways: ids(g) };
}

/** An event is in the limit by its carrier, or when it names none by its sensor or gateway (as the exception list judges). */
function inLimit(limit: LiveLimit | null, d: { carrierId?: number | null; sensorId?: number | null; gatewayId?: number | null }) {
  if (!limit) return true;
  if (d.carrierId != null) return limit.carriers.has(d.carrierId);
  if (d.sensorId != null) return limit.sensors.has(d.sensorId);
  if (d.gatewayId != null) return limit.gateways.has(d.gatewayId);
  return false;
}

const statusInLimit = (limit: LiveLimit | null, d: DeviceStatusEvent) =>
  !limit || (d.kind === 'sensor' ? limit.sensors.has(d.id) : limit.gateways.has(d.id));

/**
 * The live stream of the console (Server-Sent Events): readings, exceptions and device
 * status changes of the customers in the caller's scope, as the bus reports them after commit.
 */
export const liveRoutes: Module = (app, { db, bus, metrics }) => {
  const clients = (n: number) => metrics?.add('coldwatch_live_clients', 'Open live streams', {}, n, 'gauge');
  // Open streams never end by themselves: on shutdown end them, or closing the server waits forever.
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });

  serve(app, liveApi.stream, { funcs: ['viewMonitorPointRealTime'], stream: true }, async (req, reply) => {
    // Re-read at every heartbeat: a proxy that loses a governed customer, or a user whose scene
    // limit shrinks, stops receiving what left its scope within one heartbeat.
    let scope: Scope = req.scope;
    const token = req.cookies[SESSION_COOKIE];
    // A scene-limited caller gets only its limit's devices; the sets are refreshed at each heartbeat.
    let limit = await liveLimit(db, scope);
    reply.hijack();
    const out = reply.raw;
    out.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    out.write('retry: 5000\n\n');

    // The sensors the page watches (its cards): readings and sensor status of these only.
    const watched = req.query.sensors ? new Set(req.query.sensors) : null;
    const forward =
      <T extends { customerId: number }>(event: string, within: (data: T) => boolean) =>
      (data: T) => {
        if (canSee(scope, data.customerId) && within(data)) out.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      };
    const onReading = forward<LiveReading>('reading', (d) => (!watched || watched.has(d.sensorId)) && out.writableLength < STREAM_BACKLOG_BYTES && inLimit(limit, d));
    const onException = forward<ExceptionEvent>('exception', (d) => inLimit(limit, d));
    const onStatus = forward<DeviceStatusEvent>('deviceStatus', (d) => (!watched || d.kind !== 'sensor' || watched.has(d.id)) && statusInLimit(limit, d));
    bus.on('reading', onReading);
    bus.on('exception', onException);
    bus.on('deviceStatus', onStatus);

    let closed = false;
    const cleanup = () => {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      bus.off('reading', onReading);
      bus.off('exception', onException);
      bus.off('deviceStatus', onStatus);
    };
    // The session is checked again at each heartbeat: a logout or a cancelled account ends the stream.
    const timer = setInterval(async () => {
      const still = await resolveSession(db, token).catch(() => undefined);
      if (closed) return;
      if (!still) {
        out.end('event: expired\ndata: {}\n\n');
        cleanup();
        return;
      }
      scope = still;
      limit = await liveLimit(db, still).catch(() => limit);
      if (closed) return;
      out.write(': ping\n\n');
    }, HEARTBEAT_MS);
    const end = () => {
      cleanup();
      out.end();
    };
    open.add(end);
    clients(1);
    // Counted down once, whichever of close and error comes first.
    const gone = () => open.delete(end) && clients(-1);
    out.on('close', () => (cleanup(), gone()));
    out.on('error', () => (cleanup(), gone()));
  });
};
