import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from './config.js';
import { openDb } from './platform/db/client.js';
import { prepareDb } from './platform/db/prepare.js';
import { Bus } from './platform/events.js';
import { ensureRoot } from './platform/seed/root.js';
import { seedDemo } from './demo/seed.js';
import { startDemoSimulator, type RunningSimulator } from './demo/simulate.js';
import { choosePort } from './platform/net/port.js';
import { banner } from './banner.js';
import { buildApp } from './app.js';
import { healthOf } from './platform/health/health.js';
import type { AppDeps } from './deps.js';
import { startIngest } from './ingest/index.js';
import { startAlarm } from './alarm/index.js';
import { startJobs } from './jobs/index.js';
import { Cluster } from './platform/cluster/cluster.js';
import { defaultReplicaId, ingestClientId } from './platform/cluster/replica.js';

/** What runs, in the order it stops: the simulator, HTTP (finishes requests in flight), jobs (finish the run in flight), ingest (drains its writer), alarm, the replicas' channel, database. */
const STOP_ORDER = ['simulator', 'HTTP server', 'jobs', 'ingest', 'alarm', 'cluster', 'database'] as const;
type Part = (typeof STOP_ORDER)[number];
const running = new Map<Part, () => Promise<void> | void>();
let log: { info(o: unknown, m?: string): void; warn(o: unknown, m?: string): void; error(o: unknown, m?: string): void } = {
  info: () => undefined,
  warn: (o, m) => console.error(m ?? '', o),
  error: (o, m) => console.error(m ?? '', o),
};

async function stopAll(): Promise<boolean> {
  let ok = true;
  for (const part of STOP_ORDER) {
    const stop = running.get(part);
    if (!stop) continue;
    running.delete(part);
    try {
      await stop();
      log.info({ part }, `stopped ${part}`);
    } catch (err) {
      ok = false;
      log.error({ err, part }, `stopping ${part} failed`);
    }
  }
  return ok;
}

let closing = 0;
function shutdown(signal: string) {
  if (closing && Date.now() - closing < 1000) return; // the same Ctrl-C, delivered twice
  if (closing) {
    // A second Ctrl-C while draining: give up waiting.
    process.stderr.write(`${signal} again: exiting without waiting for the drain\n`);
    process.exit(130);
  }
  closing = Date.now();
  log.info({ signal }, 'shutting down');
  const force = setTimeout(() => {
    log.error({ signal }, 'shutdown took longer than 20 s; exiting');
    process.exit(1);
  }, 20_000);
  force.unref();
  void stopAll().then((ok) => {
    if (ok) process.stdout.write('Coldwatch stopped.\n');
    process.exit(ok ? 0 : 1);
  });
}

/**
 * Process entry: config → database → migrations → root account and demo data → HTTP →
 * alarm evaluator and notifier → ingest (MQTT broker or consumer) → jobs → simulator → banner.
 * SIGINT/SIGTERM stop it in STOP_ORDER, draining ingest before the database closes.
 */
async function main() {
  const config = loadConfig();
  const startedAt = Date.now();
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  // Started by `npm start` with an IPC channel: the launcher's death closes it, and we follow.
  if (process.send) process.on('disconnect', () => shutdown('launcher exited'));

  // A taken default HTTP port moves to a free one; a taken explicit PORT is an error, found before any work.
  const http = await choosePort(config.port, config.portExplicit, 'HTTP');

  // Database.
  const pgDir = path.join(config.dataDir, 'pg');
  if (!config.databaseUrl) await mkdir(config.dataDir, { recursive: true });
  const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? undefined : pgDir });
  running.set('database', () => db.close());
  await prepareDb(db);

  // The replicas of this database (platform/cluster): this one's id, its part (the embedded
  // broker and the exclusive subscription admit one console), and the channel of committed facts.
  const deps: AppDeps = { config, db, bus: new Bus() };
  // From here on, a database outage is logged once when it starts and once when it ends.
  const health = healthOf(deps);
  const replicaId = config.replicaId ?? defaultReplicaId(http.port);
  deps.replicaId = replicaId;
  const cluster = new Cluster({
    databaseUrl: config.databaseUrl,
    replicaId,
    bus: deps.bus,
    log: { info: (o, m) => log.info(o, m), warn: (o, m) => log.warn(o, m), error: (o, m) => log.error(o, m) },
    fault: health.fault('cluster'),
  });
  deps.cluster = cluster;
  running.set('cluster', () => cluster.stop());
  await cluster.start();
  await cluster.join(
    !config.mqttUrl
      ? { exclusive: true, reason: 'embedded broker' }
      : config.mqttSubscription === 'exclusive'
        ? { exclusive: true, reason: 'exclusive subscription' }
        : { exclusive: false, reason: 'shared subscription' },
  );
  health.check('cluster', () => ({
    ok: cluster.up,
    detail: cluster.single ? 'one process (PGlite)' : cluster.up ? `replica ${replicaId}, ${cluster.peers} other replica(s) on this database` : 'the replicas\' channel is lost; reconnecting',
  }));

  // Accounts and demo data.
  let seedNote: string | undefined;
  if (config.demo) {
    const seeded = await seedDemo(db);
    seedNote = seeded.created
      ? `created: Demo Hospital with ${seeded.readings.toLocaleString('en-US')} readings of history, in ${(seeded.ms / 1000).toFixed(1)} s`
      : 'already present (kept as it is)';
  } else {
    // config.ts refuses DEMO=0 without ROOT_PASSWORD.
    await ensureRoot(db, config.rootPassword!);
  }

  // HTTP: the API, the web app, the HTTP ingest routes.
  // One deps object for the app, ingest and alarm: ingestOf(deps) keeps the one IngestService
  // (writer, gateway auth) on it, shared by the HTTP ingest routes and the MQTT transport.
  const app = await buildApp(deps, { logger: { level: config.logLevel } });
  deps.log = app.log;
  log = app.log;
  running.set('HTTP server', async () => {
    // Requests in flight get a few seconds; long-lived ones (the SSE live stream) are then cut.
    const cut = setTimeout(() => app.server.closeAllConnections(), 3_000);
    try {
      await app.close();
    } finally {
      clearTimeout(cut);
    }
  });
  if (http.note) app.log.warn(http.note);
  await app.listen({ port: http.port, host: '0.0.0.0' });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : http.port;

  // Alarm evaluator and notifier: started before ingest so that it sees the first readings.
  // Its notice retries are swept by the notice-retry job below.
  const alarm = startAlarm(deps, { noticePoll: false });
  running.set('alarm', () => alarm.stop());

  // Ingest: the embedded broker on MQTT_PORT (default 1883, often taken), or a consumer on MQTT_URL.
  // The presence scan runs as a job (below), not as ingest's own timer.
  const ingest = await startIngest(deps, {
    mqttPort: config.mqttPort,
    mqttPortExplicit: config.mqttPortExplicit,
    presence: false,
    clientId: ingestClientId(config.mqttSubscription, replicaId),
  });
  running.set('ingest', () => ingest.stop());
  deps.mqttPort = ingest.mqttPort;

  // Periodic jobs: presence, rollups, notice retries, retention (docs/jobs.md).
  const jobs = await startJobs(deps, { alarm });
  running.set('jobs', () => jobs.stop());
  const mqttNote =
    !config.mqttUrl && ingest.mqttPort !== undefined && ingest.mqttPort !== config.mqttPort && !config.mqttPortExplicit
      ? `default port ${config.mqttPort} is taken (often by another MQTT broker), so ${ingest.mqttPort} instead`
      : undefined;

  // Simulator: live readings for the demo gateways (never the hand-driven one).
  let sim: RunningSimulator | undefined;
  if (config.simulator && !(await cluster.lead('simulator'))) app.log.info('SIMULATOR=1: another replica runs the demo simulator');
  else if (config.simulator) {
    const mqttUrl = config.mqttUrl ?? `mqtt://127.0.0.1:${ingest.mqttPort}`;
    sim = await startDemoSimulator(db, { mqttUrl, log: app.log });
    if (sim) {
      const s = sim;
      running.set('simulator', () => s.stop());
    } else app.log.warn('SIMULATOR=1 but there are no demo gateways to simulate (start once with DEMO=1)');
  }

  process.stdout.write(
    banner({
      config,
      db,
      dataDir: pgDir,
      port,
      httpNote: http.note,
      mqttPort: ingest.mqttPort,
      mqttNote,
      seedNote,
      simulator: sim?.summary,
      startupMs: Date.now() - startedAt,
    }),
  );
}

main().catch(async (err) => {
  console.error(`Coldwatch could not start: ${err instanceof Error ? err.message : String(err)}`);
  if (err instanceof Error && process.env.LOG_LEVEL === 'debug') console.error(err.stack);
  await stopAll().catch(() => undefined);
  process.exit(1);
});
