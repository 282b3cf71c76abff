/**
 * The storm's gateways, in a process of their own (they are other machines): every gateway
 * connects at a random moment within `spreadMs` (the network coming back), then sends its
 * buffer, one message per minute of the outage with one reading per sensor, oldest first, with
 * the original times, keeping `inflight` messages unacknowledged (QoS 1). A sensor whose number
 * `% excursion.every === 0` read `excursion.temp` during minutes [from, to) of the outage: an
 * excursion that is over by the time it arrives. Then one live message, at the clock's time.
 * Sessions are persistent and reconnect by
 * themselves (CONNACK 3 while the console cannot reach its database included), resending what
 * was not acknowledged.
 *
 * Prints a JSON line `{"acked": n}` every second, and at the end
 * `{"done": true, "connectMs", "ms", "cpuS", "reconnects"}`: the last connection's moment and
 * the last PUBACK's, from the first connection attempt.
 *
 * Usage: node --import tsx gateways.ts <file.json: StormPlan>
 */
import { readFileSync } from 'node:fs';
import mqtt from 'mqtt';
import net from 'node:net';
import type { StormGateway } from './fleet.js';

export interface StormPlan {
  url: string;
  spreadMs: number;
  inflight: number;
  /** The first buffered minute (epoch ms); minute m is at start + m·60 s. */
  start: number;
  minutes: number;
  excursion: { every: number; from: number; to: number; temp: number };
  gateways: StormGateway[];
}

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8')) as StormPlan;
const { excursion: ex } = plan;
const perGateway = plan.gateways[0]?.devs.length ?? 0;

/** Minute m of the buffer; minute `plan.minutes` is the gateway's first live reading after it, at the clock's time. */
function message(g: number, m: number): string {
  const ts = m === plan.minutes ? Date.now() : plan.start + m * 60_000;
  const readings = plan.gateways[g].devs.map((dev, j) => {
    const k = g * perGateway + j;
    const out = k % ex.every === 0 && m >= ex.from && m < ex.to;
    return { dev, ts, temp: out ? ex.temp : 4 + ((m + j) % 20) / 10, hum: 50 + (m % 10), volt: 3.01, rssi: -70, lqi: 180 };
  });
  return JSON.stringify({ readings });
}

let acked = 0;
let reconnects = 0;
let lastConnect = 0;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const progress = setInterval(() => console.log(JSON.stringify({ acked })), 1000);

await Promise.all(
  plan.gateways.map(async (gw, g) => {
    await new Promise((r) => setTimeout(r, Math.random() * plan.spreadMs));
    // Each gateway from an address of its own (127.1.x.y on this machine), as gateways come from
    // their sites: the broker reads at most 64 unauthenticated connections per address at once.
    const { hostname, port } = new URL(plan.url);
    const localAddress = hostname === '127.0.0.1' ? `127.1.${Math.floor(g / 250)}.${(g % 250) + 1}` : undefined;
    const stream = () => net.createConnection({ host: hostname, port: Number(port || 1883), localAddress });
    const c = new mqtt.MqttClient(stream, {
      clientId: gw.sn,
      username: gw.sn,
      password: gw.secret,
      protocolVersion: 4,
      clean: false,
      reconnectPeriod: 500,
      reconnectOnConnackError: true,
      connectTimeout: 60_000,
    });
    // Refused (CONNACK 3 while the console's database is away) or cut: the client tries again.
    c.on('error', () => undefined);
    c.on('reconnect', () => reconnects++);
    await new Promise((r) => c.once('connect', r));
    lastConnect = Math.max(lastConnect, performance.now() - t0);
    const topic = `cc/${gw.sn}/up/data`;
    let next = 0;
    await Promise.all(
      Array.from({ length: plan.inflight }, async () => {
        while (next < plan.minutes) {
          await c.publishAsync(topic, message(g, next++), { qos: 1 });
          acked += perGateway;
        }
      }),
    );
    // Then, as a gateway goes on once its buffer is out, its live reading.
    await c.publishAsync(topic, message(g, plan.minutes), { qos: 1 });
    acked += perGateway;
    await c.endAsync();
  }),
);
clearInterval(progress);
const cpu = process.cpuUsage(cpu0);
console.log(JSON.stringify({ done: true, acked, connectMs: Math.round(lastConnect), ms: Math.round(performance.now() - t0), cpuS: (cpu.user + cpu.system) / 1e6, reconnects }));
