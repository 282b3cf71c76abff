/**
 * The ingest bench's gateways, in a process of their own (as gateways are other machines): G
 * MQTT clients publish their prebuilt messages at QoS 1, each keeping INFLIGHT unacknowledged
 * messages (a real gateway's queue), timed from the first publish to the last PUBACK. Runs as a
 * child process of ingest.bench.ts and prints one JSON line: `{ ms, cpuS }`.
 *
 * Usage: node --import tsx gateways.ts <file.json: { url, inflight, gateways: [{ sn, secret, messages }] }>
 */
import { readFileSync } from 'node:fs';
import mqtt, { type MqttClient } from 'mqtt';

interface Plan {
  url: string;
  inflight: number;
  gateways: { sn: string; secret: string; messages: string[] }[];
}

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8')) as Plan;
const clients: MqttClient[] = await Promise.all(
  plan.gateways.map((gw) => mqtt.connectAsync(plan.url, { clientId: gw.sn, username: gw.sn, password: gw.secret, protocolVersion: 4, reconnectPeriod: 500 })),
);
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await Promise.all(
  clients.map(async (c, g) => {
    const { sn, messages } = plan.gateways[g];
    const topic = `cc/${sn}/up/data`;
    let next = 0;
    await Promise.all(
      Array.from({ length: plan.inflight }, async () => {
        while (next < messages.length) await c.publishAsync(topic, messages[next++], { qos: 1 });
      }),
    );
  }),
);
const ms = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
await Promise.all(clients.map((c) => c.endAsync()));
console.log(JSON.stringify({ ms, cpuS: (cpu.user + cpu.system) / 1e6 }));
