import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import helmet from '@fastify/helmet';
import compress from '@fastify/compress';
import { compressJsonAnswers } from './platform/http/compress.js';
import rateLimit from '@fastify/rate-limit';
import { Code } from '@coldwatch/contract';
import { AppError } from './platform/http/errors.js';
import { Metrics } from './platform/metrics/metrics.js';
import swaggerUi from '@fastify/swagger-ui';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { frameworkError, registerEnvelope } from './platform/http/envelope.js';
import { registerJsonParser } from './platform/http/json.js';
import { registerGuard, type Guard } from './platform/auth/guard.js';
import { logRefusal } from './platform/audit/audit.js';
import { registerHealthRoutes } from './platform/health/routes.js';
import { modules } from './modules/index.js';
import type { AppDeps } from './deps.js';
import { loadTileOrigin, rememberTileUrl, tileOrigin } from './modules/param/tileOrigin.js';

/** API answers of this many bytes or more are compressed. */
const COMPRESS_FROM = 1024;
const webDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

export async function buildApp(deps: AppDeps, opts: { logger?: boolean | object } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? false,
    // 1 MB of JSON is far more than any form sends; uploads set their own limits (multipart, per route).
    bodyLimit: 1024 * 1024,
    // spec §7: requests time out after 10 s on the client; the server gives up a little later.
    requestTimeout: 15_000,
    // Behind a reverse proxy (TRUST_PROXY): X-Forwarded-Proto and -For are believed, so cookies are Secure over HTTPS and limits count the real client.
    trustProxy: deps.config.trustProxy as boolean | string,
    frameworkErrors: frameworkError,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(cookie);
  // API answers over 1 KB are compressed (the live stream never: event-stream is excluded; the web
  // app's files come precompressed from the build).
  await app.register(compress, { threshold: COMPRESS_FROM, encodings: ['br', 'gzip'] });
  // JSON answers in one call rather than through its streams (platform/http/compress.ts).
  compressJsonAnswers(app, COMPRESS_FROM);
  // Security headers on every answer. The CSP is what the web app needs: its own scripts, Ant
  // Design's injected styles, data: images (QR codes, signatures), same-origin calls and the
  // live stream; nothing may frame the console.
  await loadTileOrigin(deps.db).catch(() => undefined);
  deps.bus.on('param', (e) => void (e.key === 'map_tile_url' && rememberTileUrl(e.value)));
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // The monitor map's tiles come from the one server the map_tile_url parameter names.
        imgSrc: ["'self'", 'data:', 'blob:', () => tileOrigin(deps.db) ?? "'self'"],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    // Only over HTTPS would HSTS mean anything; a proxy that terminates TLS sets it.
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
  });
  // Only the routes that name a limit (the sign-in routes, platform/auth/login.ts signInLimit) are counted.
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_req, ctx) => new AppError(Code.FAILED, 'errors.tooMany', 429, undefined, { seconds: Math.max(1, Math.ceil(ctx.ttl / 1000)) }),
  });
  registerEnvelope(app);
  // HTTP latency by route for /metrics.
  const metrics = (deps.metrics ??= new Metrics());
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    metrics.observe('coldwatch_http_request_seconds', 'HTTP answers by route, method and status class', { route, method: req.method, status: `${Math.floor(reply.statusCode / 100)}xx` }, reply.elapsedTime / 1000);
  });
  // A change's events reach the other replicas before its answer leaves (platform/cluster):
  // whatever the caller does next, on any replica, sees it. Reads do not wait, nor do gateways
  // (HTTP ingest answers at its commit; live values are not something the gateway reads back).
  app.addHook('onSend', async (req, _reply, payload) => {
    if (deps.cluster && req.method !== 'GET' && req.method !== 'HEAD' && !req.routeOptions.url?.startsWith('/ingest/')) await deps.cluster.flushed();
    return payload;
  });
  registerJsonParser(app);
  // A signed-in caller refused for a function it lacks leaves its system-log row (500102).
  const guard = registerGuard(app, deps.db, (req, missing) => logRefusal(deps.db, req, `missing function ${missing}`));

  await app.register(swagger, {
    openapi: { info: { title: 'Coldwatch console API', version: '0.1.0' } },
    transform: jsonSchemaTransform,
  });
  // The API's documentation is for signed-in callers: it maps every route an attacker could try.
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  registerHealthRoutes(app, deps);

  for (const mod of modules) await app.register(async (instance) => mod(instance.withTypeProvider<ZodTypeProvider>(), deps));

  if (existsSync(path.join(webDist, 'index.html'))) {
    // Files are looked up per request (a rebuilt web app is served without a restart); the
    // envelope's not-found handler hands other GETs to index.html: the web app routes in the browser.
    // The build's .br/.gz siblings (web/precompress.ts) answer clients that accept them; hashed
    // assets never change, so browsers keep them for a year without asking again.
    await guard.registerPublic(fastifyStatic, {
      root: webDist,
      preCompressed: true,
      setHeaders: (res, file) => {
        if (/[/\\]assets[/\\]/.test(file)) res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  app.decorate('guard', guard);
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The access of every registered route (platform/auth/guard.ts). */
    guard: Guard;
  }
}

export type App = Awaited<ReturnType<typeof buildApp>>;
