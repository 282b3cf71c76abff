import type { AppDeps } from '../deps.js';
import { choosePort } from '../platform/net/port.js';
import { startBroker } from './broker.js';
import { startConsumer } from './consumer.js';
import { startPresence, type PresenceOptions } from './presence.js';
import { ingestOf } from './service.js';

export { ingestOf, IngestService, type HandleResult, type GatewayEventMessage, type DownKind } from './service.js';
export { generateGatewaySecret, hashGatewaySecret, verifyGatewaySecret } from './secret.js';
export { RETENTION_SETTING, type IngestResult } from './writer.js';
export { markSilentDevices } from './presence.js';

export interface StartIngestOptions {
  /** Port of the embedded broker (ignored with MQTT_URL); 0 picks a free one. */
  mqttPort: number;
  /** The user chose the port: if it is taken, fail instead of moving to another. */
  mqttPortExplicit: boolean;
  host?: string;
  /** External mode: sessions in the shared subscription, and their client id prefix. */
  consumers?: number;
  clientIdPrefix?: string;
  /** Shared-subscription group; default coldwatch. */
  group?: string;
  presence?: PresenceOptions | false;
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
export async function startIngest(deps: AppDeps, opts: StartIngestOptions): Promise<RunningIngest> {
  const svc = ingestOf(deps);
  let transport: { close(): Promise<void> };
  let mqttPort: number | undefined;
  if (deps.config.mqttUrl) {
    transport = await startConsumer(svc, { url: deps.config.mqttUrl, consumers: opts.consumers, clientIdPrefix: opts.clientIdPrefix, group: opts.group });
    svc.log.info(`ingest: consuming ${redact(deps.config.mqttUrl)} with ${opts.consumers ?? 4} sessions`);
  } else {
    const chosen = await choosePort(opts.mqttPort, opts.mqttPortExplicit, 'MQTT');
    if (chosen.note) svc.log.warn(chosen.note);
    let broker;
    try {
      broker = await startBroker(svc, { port: chosen.port, host: opts.host });
    } catch (err: any) {
      // Taken between the check and the listen.
      if (err?.code !== 'EADDRINUSE') throw err;
      if (opts.mqttPortExplicit) throw new Error(`MQTT port ${chosen.port} is already in use. Free it or choose another port.`);
      broker = await startBroker(svc, { port: 0, host: opts.host });
    }
    transport = broker;
    mqttPort = broker.port;
    svc.log.info(`ingest: embedded MQTT broker on port ${mqttPort}`);
  }
  const presence = opts.presence === false ? null : startPresence(deps.db, deps.bus, svc.log, opts.presence);

  let stopping: Promise<void> | null = null;
  return {
    mqttPort,
    stop() {
      stopping ??= (async () => {
        await presence?.stop();
        await transport.close();
        await svc.drain();
      })();
      return stopping;
    },
  };
}

const redact = (url: string) => url.replace(/\/\/[^@/]*@/, '//***@');
