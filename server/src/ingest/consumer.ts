import mqtt, { type MqttClient } from 'mqtt';
import type { IngestService } from './service.js';
import { parseUpTopic } from './protocol.js';
import { MqttSession } from './mqtt-session.js';
import type { Fault } from '../platform/health/health.js';

export type SubscriptionMode = 'exclusive' | 'shared';

export interface ConsumerOptions {
  url: string;
  /** The persistent session's client id (default coldwatch-ingest); fixed, so a restart resumes it. The downlink uses `{clientId}-down`. */
  clientId?: string;
  /**
   * exclusive (default): `cc/+/up/#`, one session that the broker keeps with its subscription
   * and its queue across the console's and the broker's restarts. shared: `$share/{group}/cc/+/up/#`,
   * for several replicas; what each broker guarantees then is in docs/ingest.md.
   */
  subscription?: SubscriptionMode;
  group?: string;
  /** The 'broker' fault: begins when the session is lost, ends when it is subscribed again. */
  fault?: Fault;
}

export interface ExternalConsumer {
  /** Subscribed on a live connection. */
  readonly up: boolean;
  /** Connects again, which subscribes again (the deaf-ingest watchdog's remedy). */
  reconnect(cause: string): void;
  close(): Promise<void>;
}

/** Tries of a message's commit on one session before it is dropped (failures other than the database being away, which are held). */
const COMMIT_ATTEMPTS = 3;
const RETRY_MS = 250;

export const upTopic = (mode: SubscriptionMode, group = 'coldwatch') => (mode === 'shared' ? `$share/${group}/cc/+/up/#` : 'cc/+/up/#');

/**
 * Ingest from an external broker (Mosquitto, EMQX) through the console's own persistent session
 * (mqtt-session.ts): every message is acknowledged after its commit. While the database is
 * away a message is held, unacknowledged, and tried again when it is back (no reconnect storm,
 * nothing acknowledged that is not stored); any other failure is tried twice more, then drops
 * the connection and the broker delivers the message again. The broker authenticates gateways
 * and enforces the topic ACL (docs/ingest.md), so the topic's sn names the gateway.
 */
export async function startConsumer(svc: IngestService, opts: ConsumerOptions): Promise<ExternalConsumer> {
  const clientId = opts.clientId ?? 'coldwatch-ingest';
  const topic = upTopic(opts.subscription ?? 'exclusive', opts.group);
  let closing = false;

  const consume = async (packetTopic: string, payload: Buffer) => {
    svc.noteMessage();
    const t = parseUpTopic(packetTopic);
    if (!t) return void svc.log.warn({ topic: packetTopic }, 'mqtt: message on an unknown topic ignored');
    for (let attempt = 1; ; attempt++) {
      try {
        // The gateway's lookup is held with the commit: it fails the same way while the database is away.
        return await svc.held(async () => {
          const gw = await svc.directory.gateway(t.sn);
          if (!gw) await svc.writer.submitReject(null, { sn: t.sn, dev: null, reason: 'unknown_gateway', detail: packetTopic });
          else await svc.handle(gw, t.kind, payload);
        });
      } catch (err) {
        if (closing) throw err;
        // Tried again on this session first: a dropped session is what the broker queues for,
        // up to its limit (Mosquitto: 1,000 messages), and drops beyond it. Idempotent: a
        // reading that did get stored counts as a duplicate.
        if (attempt < COMMIT_ATTEMPTS) {
          svc.log.warn({ err, topic: packetTopic, attempt }, 'mqtt: commit failed; trying the message again');
          await new Promise((r) => setTimeout(r, RETRY_MS * attempt));
          continue;
        }
        svc.log.error({ err, topic: packetTopic }, 'mqtt: commit failed; dropping the session unacknowledged so the broker redelivers');
        throw err;
      }
    }
  };

  const session = new MqttSession({
    url: opts.url,
    clientId,
    topic,
    handle: consume,
    onState: (up, cause) => (up ? opts.fault?.end('subscribed again') : opts.fault?.begin(`session ${clientId} lost: ${cause}; reconnecting`)),
  });
  svc.setHolding(true);
  await session.start();

  // Commands go out on a session of their own (clean, QoS 1): mqtt.js keeps them while it reconnects.
  const down: MqttClient = mqtt.connect(opts.url, { clientId: `${clientId}-down`, clean: true, protocolVersion: 4, reconnectPeriod: 1000, connectTimeout: 10_000 });
  down.on('error', (err) => svc.log.debug({ err: err.message }, 'mqtt: downlink error'));
  svc.setDownlink((sn, kind, payload) => down.publishAsync(`cc/${sn}/down/${kind}`, JSON.stringify(payload), { qos: 1 }).then(() => undefined));

  return {
    get up() {
      return session.up;
    },
    reconnect: (cause) => session.reconnect(cause),
    async close() {
      closing = true;
      svc.setDownlink(null);
      // Messages held for the database give up: unacknowledged, the broker keeps them for the next start.
      svc.setHolding(false);
      await session.close();
      await down.endAsync(false);
      opts.fault?.end('closed');
    },
  };
}
