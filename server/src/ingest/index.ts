import { choosePort } from '../platform/net/port.js';
import { MAX_CONNECT_BYTES, startBroker, type BrokerGuard } from './broker.js';
import { startConsumer, type SubscriptionMode } from './consumer.js';
import { startSilenceWatch } from './silence.js';
import { healthOf, type Check, type HealthHost } from '../platform/health/health.js';
import { redactUrl } from '../platform/net/url.js';
import { startPresence, type PresenceOptions } from './presence.js';
import { ingestOf, type IngestDeps } from './service.js';

export { ingestOf, IngestService, type IngestDeps, type HandleResult, type GatewayEventMessage, type DownKind } from './service.js';
export { generateGatewaySecret, hashGatewaySecret, verifyGatewaySecret } from './secret.js';
export { RETENTION_SETTING, type IngestResult } from './writer.js';
export { markSilentDevices } from './presence.js';

export interface StartIngestOptions {
  /** Port of the embedded broker (ignored with MQTT_URL); 0 picks a free one. */
  mqttPort: number;
  /** The user chose the port: if it is taken, fail instead of moving to another. */
  mqttPortExplicit: boolean;
  host?: string;
  /** External mode: the session's client id (default coldwatch-ingest), its subscription (default config.mqttSubscription) and shared group. */
  clientId?: string;
  subscription?: SubscriptionMode;
  group?: string;
  presence?: PresenceOptions | false;
  /** Overrides config.ingestSilenceS (the deaf-ingest watchdog, silence.ts), in ms. */
  silenceMs?: number;
  /** Overrides the embedded broker's limits before login (the bench measures the broker without them). */
  guard?: Partial<BrokerGuard>;
}

export interface RunningIngest {
  /** The embedded broker's port; undefined with an external broker. */
  mqttPort?: number;
  /** Stops taking messages, commits what was taken, closes. Unacked messages stay with the gateways or the broker. */
  stop(): Promise<void>;
}

/**
 * Starts device ingest: the embedded broker, or with config.mqttUrl a consumer of the
 * external broker; plus the presence scan. Call once the database is migrated.
 */
export async function startIngest(deps: IngestDeps & HealthHost, opts: StartIngestOptions): Promise<RunningIngest> {
  const svc = ingestOf(deps);
  const health = healthOf(deps);
  let transport: { close(): Promise<void> };
  let mqttPort: number | undefined;
  let broker: () => Check;
  let remedy: ((cause: string) => void) | undefined;
  if (deps.config.mqttUrl) {
    const subscription = opts.subscription ?? deps.config.mqttSubscription;
    const consumer = await startConsumer(svc, { url: deps.config.mqttUrl, clientId: opts.clientId, subscription, group: opts.group, fault: health.fault('broker') });
    transport = consumer;
    const where = redactUrl(deps.config.mqttUrl);
    broker = () => ({ ok: consumer.up, detail: consumer.up ? `subscribed on ${where} (${subscription})` : `not connected to ${where}, reconnecting` });
    remedy = (cause) => consumer.reconnect(cause);
    svc.log.info(`ingest: consuming ${where} (${subscription} subscription)`);
  } else {
    const chosen = await choosePort(opts.mqttPort, opts.mqttPortExplicit, 'MQTT');
    if (chosen.note) svc.log.warn(chosen.note);
    const guard: BrokerGuard = {
      connectTimeoutMs: deps.config.mqttConnectTimeoutS * 1000,
      connectingPerAddress: deps.config.mqttConnectingPerAddress,
      maxConnectBytes: MAX_CONNECT_BYTES,
      ...opts.guard,
    };
    let embedded;
    try {
      embedded = await startBroker(svc, { port: chosen.port, host: opts.host, guard });
    } catch (err) {
      // Taken between the check and the listen.
      if ((err as NodeJS.ErrnoException | null)?.code !== 'EADDRINUSE') throw err;
      if (opts.mqttPortExplicit) throw new Error(`MQTT port ${chosen.port} is already in use. Free it or choose another port.`);
      embedded = await startBroker(svc, { port: 0, host: opts.host, guard });
    }
    transport = embedded;
    mqttPort = embedded.port;
    broker = () => ({ ok: true, detail: `embedded broker on port ${mqttPort}` });
    svc.log.info(`ingest: embedded MQTT broker on port ${mqttPort}`);
  }
  const presence = opts.presence === false ? null : startPresence(deps.db, deps.bus, svc.log, opts.presence);
  const unregister = health.check('broker', broker);
  const silence = startSilenceWatch(deps.db, svc, health.fault('ingest'), svc.log, { silenceMs: opts.silenceMs ?? deps.config.ingestSilenceS * 1000, remedy });

  let stopping: Promise<void> | null = null;
  return {
    mqttPort,
    stop() {
      stopping ??= (async () => {
        unregister();
        silence.stop();
        await presence?.stop();
        await transport.close();
        await svc.drain();
      })();
      return stopping;
    },
  };
}

