import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Metrics } from '../platform/metrics/metrics.js';
import type { ZApp } from '../platform/http/route.js';
import { ingestOf, type IngestDeps } from './service.js';
import { MESSAGE_KINDS, type MessageKind } from './protocol.js';
import { gatewayRefusal, type GatewayInfo } from './directory.js';
import { reportFailure } from '../platform/db/outage.js';
import { RETRY_AFTER_S } from '../platform/http/envelope.js';
import { registerIngestMetrics } from './metrics.js';

const BODY_LIMIT = 1024 * 1024;

/** The answer to a message refused whole, by the reject log's reason; any other reason is the sender's error, 400. */
const STATUS_OF: Record<string, number> = { stopped_gateway: 403, cancelled_customer: 403, too_many_readings: 413 };

/**
 * HTTP ingest of the device protocol, for devices that cannot hold an MQTT session. Same
 * parsing, same writer, same answers as MQTT: 200 {accepted, duplicates, rejected} after the
 * commit, 400 with the reason for a malformed body, 401 for an unknown sn or a wrong secret,
 * 403 for a gateway that may not send (stopped, or its customer cancelled), 413 for more than
 * config.ingestLimits.httpMaxReadings readings in one call, 429 with `Retry-After` while the
 * gateway is over its rate (nothing was stored), 503 with `Retry-After: 5` if the database
 * failed (nothing was stored; the device retries).
 */
export const ingestRoutes = (app: ZApp, deps: IngestDeps & { metrics?: Metrics }) => {
  registerIngestMetrics(deps);
  // Bodies are parsed by the protocol parser, which names what is wrong, not by Fastify's JSON parser.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_req, body, done) => done(null, body));
  app.addHook('onClose', async () => {
    await deps.ingest?.drain();
  });

  const gatewayOf = async (req: FastifyRequest<{ Params: { sn: string } }>, reply: FastifyReply): Promise<GatewayInfo | null> => {
    const auth = req.headers.authorization ?? '';
    const secret = auth.startsWith('Bearer ') ? auth.slice(7).trim() : '';
    const gw = secret ? await ingestOf(deps).authenticate(req.params.sn, secret) : null;
    if (!gw) {
      reply.status(401).send({ error: 'unknown gateway or wrong secret' });
      return null;
    }
    return gw;
  };

  /** A gateway over its rate is told when to come back (429, Retry-After); nothing of its call was taken. */
  const overRate = (gw: GatewayInfo, reply: FastifyReply): boolean => {
    const waitMs = ingestOf(deps).pacer.admit(gw);
    if (!waitMs) return false;
    reply.status(429).header('retry-after', String(Math.ceil(waitMs / 1000))).send({ error: 'over the gateway\'s rate limit: nothing was taken, send it again after Retry-After seconds' });
    return true;
  };

  app.post<{ Params: { sn: string; kind: string } }>(
    '/ingest/v1/:sn/:kind',
    { config: { public: true }, schema: { hide: true } },
    async (req, reply) => {
      if (!MESSAGE_KINDS.includes(req.params.kind as MessageKind)) return reply.status(404).send({ error: `no such message kind: ${req.params.kind}` });
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      try {
        const gw = await gatewayOf(req, reply);
        if (!gw) return reply;
        const svc = ingestOf(deps);
        svc.noteMessage();
        if (overRate(gw, reply)) return reply;
        const { error, reason, ...counts } = await svc.handle(gw, req.params.kind as MessageKind, body, {
          maxReadings: deps.config.ingestLimits.httpMaxReadings,
          counted: (n) => svc.pacer.charge(gw, n),
        });
        if (error) return reply.status(STATUS_OF[reason ?? ''] ?? 400).send({ error, ...counts });
        return counts;
      } catch (err) {
        // The database failed or is away: nothing was stored, and the device sends it again.
        reportFailure(req.log, err, { sn: req.params.sn }, 'ingest over HTTP failed');
        return reply.status(503).header('retry-after', String(RETRY_AFTER_S)).send({ error: 'not stored, try again' });
      }
    },
  );

  app.get<{ Params: { sn: string } }>('/ingest/v1/:sn/commands', { config: { public: true }, schema: { hide: true } }, async (req, reply) => {
    const gw = await gatewayOf(req, reply);
    if (!gw) return reply;
    const refusal = gatewayRefusal(gw);
    if (refusal) return reply.status(403).send({ error: refusal });
    if (overRate(gw, reply)) return reply;
    return { commands: await ingestOf(deps).pendingCommands(gw) };
  });
};
