import type { Module } from '../index.js';
import { canSee, type Scope } from '../../platform/auth/scope.js';
import { resolveSession, SESSION_COOKIE } from '../../platform/auth/session.js';
import type { DeviceStatusEvent, ExceptionEvent, LiveReading } from '../../platform/events.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers with a stream that stays open (SSE): callers that wait for the end must not call it blindly. */
    stream?: boolean;
  }
}

/** SSE comment line every 15 s: keeps proxies from closing an idle stream and notices a vanished client. */
export const HEARTBEAT_MS = 15_000;

/**
 * The live stream of the console (Server-Sent Events): readings, exceptions and device
 * status changes of the customers in the caller's scope, as the bus reports them after commit.
 */
export const liveRoutes: Module = (app, { db, bus }) => {
  // Open streams never end by themselves: on shutdown end them, or closing the server waits forever.
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });

  app.get('/service/live/stream', { config: { funcs: ['viewMonitorPointRealTime'], stream: true }, schema: { tags: ['live'] } }, async (req, reply) => {
    const scope: Scope = req.scope;
    const token = req.cookies[SESSION_COOKIE];
    reply.hijack();
    const out = reply.raw;
    out.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    out.write('retry: 5000\n\n');

    const forward =
      <T extends { customerId: number }>(event: string) =>
      (data: T) => {
        if (canSee(scope, data.customerId)) out.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      };
    const onReading = forward<LiveReading>('reading');
    const onException = forward<ExceptionEvent>('exception');
    const onStatus = forward<DeviceStatusEvent>('deviceStatus');
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
      out.write(': ping\n\n');
    }, HEARTBEAT_MS);
    const end = () => {
      cleanup();
      out.end();
    };
    open.add(end);
    out.on('close', () => (cleanup(), open.delete(end)));
    out.on('error', () => (cleanup(), open.delete(end)));
  });
};
