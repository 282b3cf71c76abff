/**
 * Gateways of guard.bench.ts's flood phase, in a process of their own (gateways are other
 * machines). Two roles, from a plan file:
 * - `steady`: each gateway publishes one data message (a reading per sensor) every intervalMs at
 *   QoS 1 for durationMs, and the time from each publish to its PUBACK is recorded after warmupMs.
 *   Prints `{ latencies: number[], sent, acked }`.
 * - `flood`: one gateway keeps `window` messages of `readings` readings in flight for durationMs,
 *   each message with new timestamps, as fast as the broker acknowledges them. Prints
 *   `{ sent, acked }` (acked: PUBACKs received).
 *
 * Usage: node --import tsx gateways.ts <plan.json>
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';
import mqtt, { type MqttClient } from 'mqtt';
import mqttPacket, { type Packet } from 'mqtt-packet';

interface Plan {
  url: string;
  role: 'steady' | 'flood';
  gateways: { sn: string; secret: string; devs: string[] }[];
  durationMs: number;
  intervalMs?: number;
  warmupMs?: number;
  window?: number;
  readings?: number;
  /** First timestamp of the flood's readings (one ms apart). */
  baseTs?: number;
}

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8')) as Plan;
let sent = 0;
let acked = 0;

if (plan.role === 'steady') {
  const clients: MqttClient[] = await Promise.all(
    plan.gateways.map((gw) => mqtt.connectAsync(plan.url, { clientId: gw.sn, username: gw.sn, password: gw.secret, protocolVersion: 4, reconnectPeriod: 500 })),
  );
  console.log('connected');
  const until = performance.now() + plan.durationMs;
  const latencies: number[] = [];
  const measureFrom = performance.now() + (plan.warmupMs ?? 0);
  const pending: Promise<unknown>[] = [];
  await Promise.all(
    clients.map(async (c, g) => {
      const { sn, devs } = plan.gateways[g];
      // Spread over the interval, as real gateways are.
      await new Promise((r) => setTimeout(r, (g / clients.length) * plan.intervalMs!));
      while (performance.now() < until) {
        const ts = Date.now();
        const t0 = performance.now();
        sent++;
        pending.push(
          c.publishAsync(`cc/${sn}/up/data`, JSON.stringify({ readings: devs.map((dev) => ({ dev, ts, temp: 4.5, hum: 50 })) }), { qos: 1 }).then(() => {
            acked++;
            if (t0 >= measureFrom) latencies.push(performance.now() - t0);
          }),
        );
        await new Promise((r) => setTimeout(r, plan.intervalMs));
      }
    }),
  );
  await Promise.all(pending);
  console.log(JSON.stringify({ latencies, sent, acked }));
  await Promise.all(clients.map((c) => c.endAsync(true)));
} else {
  // Written on mqtt-packet rather than mqtt.js: an attacker's loop costs it little, and mqtt.js
  // alone could not send faster than about a thousand messages a second here.
  const { sn, secret, devs } = plan.gateways[0];
  const n = plan.readings ?? 1;
  const window = plan.window ?? 1000;
  let ts = plan.baseTs!;
  const topic = `cc/${sn}/up/data`;
  const inUse = new Set<number>();
  let nextId = 0;
  const { hostname, port } = new URL(plan.url);
  const socket = net.connect(Number(port), hostname);
  socket.setNoDelay(true);
  const parser = mqttPacket.parser({ protocolVersion: 4 });
  socket.on('data', (buf: Buffer) => parser.parse(buf));
  await new Promise<void>((r) => socket.once('connect', () => r()));
  socket.write(mqttPacket.generate({ cmd: 'connect', protocolId: 'MQTT', protocolVersion: 4, clientId: sn, username: sn, password: Buffer.from(secret), clean: true, keepalive: 60 }));
  await new Promise<void>((resolve, reject) =>
    parser.once('packet', (p: Packet) => (p.cmd === 'connack' && !p.returnCode ? resolve() : reject(new Error(`CONNACK ${JSON.stringify(p)}`)))),
  );
  console.log('connected');
  const until = performance.now() + plan.durationMs;
  let paused = false;
  const pump = () => {
    while (!paused && inUse.size < window && performance.now() < until) {
      do nextId = (nextId % 65535) + 1;
      while (inUse.has(nextId));
      inUse.add(nextId);
      const readings = Array.from({ length: n }, (_, i) => ({ dev: devs[i % devs.length], ts: ts++, temp: 4.5 }));
      sent++;
      if (!socket.write(mqttPacket.generate({ cmd: 'publish', topic, payload: JSON.stringify({ readings }), qos: 1, messageId: nextId, retain: false, dup: false }))) {
        paused = true;
        socket.once('drain', () => {
          paused = false;
          pump();
        });
      }
    }
  };
  parser.on('packet', (p: Packet) => {
    if (p.cmd !== 'puback' || !inUse.delete(p.messageId!)) return;
    acked++;
    pump();
  });
  pump();
  // What is still in flight at the end is dropped with the connection, unacknowledged (the broker may still store it).
  await new Promise((r) => setTimeout(r, plan.durationMs));
  console.log(JSON.stringify({ sent, acked }));
  socket.destroy();
}
process.exit(0);
