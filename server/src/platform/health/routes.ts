import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { system } from '../db/kysely.js';
import type { Db } from '../db/client.js';
import { healthOf, type Check, type HealthHost } from './health.js';

/** How long /readyz waits for the database to answer SELECT 1. */
const PING_TIMEOUT_MS = 2_000;

/** What the health routes read of the process's parts (AppDeps has them). */
export interface HealthRoutesDeps extends HealthHost {
  db: Db;
  /** This console's id among the replicas, shown by /healthz. */
  replicaId?: string;
  /** Device ingest, once made: how long ago a gateway last spoke. */
  ingest?: { readonly lastMessageAt: number; readonly messageSeen: boolean };
}

/**
 * `/healthz`: the process lives and serves HTTP (restart it when this fails). `/readyz`: the
 * database answers, the broker delivers to ingest and ingest is not deaf (send no traffic while
 * this fails; it recovers by itself). docs/operations.md shows the systemd unit and the compose
 * health checks that use them.
 */
export function registerHealthRoutes(app: FastifyInstance, deps: HealthRoutesDeps) {
  const health = healthOf(deps);
  app.get('/healthz', { config: { public: true }, schema: { hide: true } }, async () => ({ ok: true, uptimeS: Math.round(process.uptime()), ...(deps.replicaId ? { replica: deps.replicaId } : {}) }));

  app.get('/readyz', { config: { public: true }, schema: { hide: true } }, async (_req, reply) => {
    const checks: Record<string, Check> = {
      database: await database(deps),
      broker: health.checkOf('broker') ?? { ok: false, detail: 'ingest has not started' },
      ingest: silence(deps),
      cluster: health.checkOf('cluster') ?? { ok: true, detail: 'one process' },
    };
    const ready = Object.values(checks).every((c) => c.ok);
    return reply.status(ready ? 200 : 503).send({ ready, checks });
  });
}

async function database(deps: HealthRoutesDeps): Promise<Check> {
  const status = deps.db.status;
  if (status.down) return { ok: false, detail: `unreachable: ${status.cause ?? 'reconnecting'}` };
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS)));
    await Promise.race([sql`SELECT 1`.execute(system(deps.db)), timeout]);
    return { ok: true, detail: deps.db.kind };
  } catch (err) {
    return { ok: false, detail: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}

function silence(deps: HealthRoutesDeps): Check {
  const fault = healthOf(deps).fault('ingest');
  if (fault.active) return { ok: false, detail: fault.cause ?? 'silent' };
  const svc = deps.ingest;
  if (!svc) return { ok: true, detail: 'ingest has not started' };
  const ago = Math.round((Date.now() - svc.lastMessageAt) / 1000);
  return { ok: true, detail: svc.messageSeen ? `last message ${ago} s ago` : `no message since the start, ${ago} s ago` };
}
