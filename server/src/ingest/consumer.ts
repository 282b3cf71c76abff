import mqtt, { type MqttClient } from 'mqtt';
import type { IngestService } from './service.js';
import { parseUpTopic } from './protocol.js';

export interface ConsumerOptions {
  url: string;
  /** Parallel sessions in one shared subscription; mqtt.js handles one message at a time per session. */
  consumers?: number;
  /** Session ids are `${clientIdPrefix}-${i}`: fixed, so a restart resumes the same persistent sessions. */
  clientIdPrefix?: string;
  group?: string;
}

export interface ExternalConsumer {
  close(): Promise<void>;
}

/**
 * Ingest from an external broker (Mosquitto, EMQX): sessions subscribed to
 * $share/{group}/cc/+/up/# at QoS 1 with clean=false, so messages published while the
 * console is down wait in the broker. mqtt.js sends the PUBACK only when handleMessage calls
 * back, which happens after the commit; on a failed commit the connection is dropped
 * unacknowledged and the broker redelivers. The broker authenticates gateways and enforces
 * the topic ACL (docs/ingest.md), so the topic's sn names the gateway.
 */
export async function startConsumer(svc: IngestService, opts: ConsumerOptions): Promise<ExternalConsumer> {
  const n = opts.consumers ?? 4;
  const prefix = opts.clientIdPrefix ?? 'coldwatch-ingest';
  const topic = `$share/${opts.group ?? 'coldwatch'}/cc/+/up/#`;
  const inflight = new Set<Promise<void>>();
  let closing = false;
  const clients: MqttClient[] = [];

  const consume = async (client: MqttClient, packetTopic: string, payload: Buffer, ack: () => void) => {
    const t = parseUpTopic(packetTopic);
    if (!t) {
      svc.log.warn({ topic: packetTopic }, 'mqtt: message on an unknown topic ignored');
      return ack();
    }
    try {
      const gw = await svc.directory.gateway(t.sn);
      if (!gw) await svc.writer.submitReject(null, { sn: t.sn, dev: null, reason: 'unknown_gateway', detail: packetTopic });
      else await svc.handle(gw, t.kind, payload);
      ack();
    } catch (err) {
      svc.log.error({ err, topic: packetTopic }, 'mqtt: commit failed; dropping the session unacknowledged so the broker redelivers');
      client.stream?.destroy();
    }
  };

  for (let i = 0; i < n; i++) {
    const client = mqtt.connect(opts.url, {
      clientId: `${prefix}-${i}`,
      clean: false,
      protocolVersion: 4,
      reconnectPeriod: 1000,
      connectTimeout: 10_000,
      resubscribe: true,
    });
    client.handleMessage = (packet, callback) => {
      // While closing, leave the message unacknowledged: the session keeps it for the next start.
      if (closing) return;
      const p = consume(client, packet.topic, packet.payload as Buffer, () => callback());
      inflight.add(p);
      void p.finally(() => inflight.delete(p));
    };
    client.on('error', (err) => svc.log.warn({ err: err.message, clientId: `${prefix}-${i}` }, 'mqtt: consumer error'));
    clients.push(client);
  }
  await Promise.all(
    clients.map(
      (c) =>
        new Promise<void>((resolve, reject) => {
          const onError = (err: Error) => {
            if (!c.connected) reject(new Error(`MQTT_URL ${opts.url}: ${err.message}`));
          };
          c.once('error', onError);
          c.once('connect', () => {
            c.off('error', onError);
            c.subscribe(topic, { qos: 1 }, (err, granted) => {
              if (err) return reject(err);
              if (granted?.some((g) => g.qos === 128)) return reject(new Error(`MQTT_URL: subscription to ${topic} refused`));
              resolve();
            });
          });
        }),
    ),
  ).catch(async (err) => {
    await Promise.all(clients.map((c) => c.endAsync(true)));
    throw err;
  });

  svc.setDownlink((sn, kind, payload) => clients[0].publishAsync(`cc/${sn}/down/${kind}`, JSON.stringify(payload), { qos: 1 }).then(() => undefined));

  return {
    async close() {
      closing = true;
      svc.setDownlink(null);
      await Promise.allSettled([...inflight]);
      await Promise.all(clients.map((c) => c.endAsync(false)));
    },
  };
}
