import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './platform/db/client.js';
import type { Bus } from './platform/events.js';
import type { IngestService } from './ingest/service.js';
import type { JobRunner } from './platform/jobs/runner.js';
import type { Metrics } from './platform/metrics/metrics.js';
import type { Health } from './platform/health/health.js';
import type { ZApp } from './platform/http/route.js';

/** What every module is built from. Tests build the same thing with a test database. */
export interface AppDeps {
  config: Config;
  db: Db;
  bus: Bus;
  log?: FastifyBaseLogger;
  /** Device ingest (writer, gateway auth, downlink). Made on first use by ingestOf(deps) when absent. */
  ingest?: IngestService;
  /** The job runner, once started (main.ts); /sys/scheduled's "run now" wakes it. */
  jobs?: JobRunner;
  /** Counters and summaries of /metrics (made by buildApp). */
  metrics?: Metrics;
  /** The embedded broker's port once it listens (main.ts): the set-up wizard tells gateways where to connect. */
  mqttPort?: number;
  /** Faults of the database, the broker and ingest (platform/health); made by healthOf(deps). */
  health?: Health;
  /** This console's id among the replicas of its database (main.ts; platform/cluster). */
  replicaId?: string;
  /** The replicas' channel (main.ts): a change waits for it before its answer leaves (app.ts). */
  cluster?: { flushed(): Promise<void> };
}

/** A domain's routes, registered on the app from the deps (the list is modules/index.ts). */
export type Module = (app: ZApp, deps: AppDeps) => void | Promise<void>;
