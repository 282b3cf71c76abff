import mqtt, { type MqttClient } from 'mqtt';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import { demoGateways, type DemoGateway } from './demo.js';
import { prng, seedOf, type SensorProfile } from './history.js';

export interface RunningSimulator {
  /** One line for the banner. */
  summary: string;
  stop(): Promise<void>;
}

/** How often each demo gateway sends its sensors' readings, and its heartbeat. */
export const LIVE_INTERVAL_MS = 5_000;
const HEARTBEAT_MS = 60_000;
const HOUR = 3_600_000;
const TZ_OFFSET = 8 * HOUR;

/**
 * One sensor's live values: the history's model carried on in real time (set point,
 * day/night swing, slow wander, door openings that stay inside the zone).
 */
class LiveSensor {
  private rnd: () => number;
  private wander = 0;
  private humWander = 0;
  private door: { at: number; rise: number } | null = null;

  constructor(
    readonly dev: string,
    private profile: SensorProfile,
    private humidity: boolean,
  ) {
    this.rnd = prng(seedOf(dev) ^ Date.now());
  }

  private gauss() {
    const u = Math.max(this.rnd(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.rnd());
  }

  reading(ts: number) {
    const p = this.profile;
    const hour = ((ts + TZ_OFFSET) % (24 * HOUR)) / HOUR;
    const daily = p.dailyAmp * Math.sin(((hour - 9) / 24) * 2 * Math.PI);
    // A slower wander than the history's 2-minute steps: the same spread at a 5 s cadence.
    const phi = 0.995;
    const k = Math.sqrt(1 - phi * phi);
    this.wander = phi * this.wander + k * p.noise * this.gauss();
    this.humWander = phi * this.humWander + k * (p.humNoise ?? 1.5) * this.gauss();
    const perInterval = ((p.doorsPerDay ?? 0) / (10 * 60)) * (LIVE_INTERVAL_MS / 60_000); // doors per working minute × minutes
    if (!this.door && hour >= 8 && hour < 18 && this.rnd() < perInterval) this.door = { at: ts, rise: (p.doorRise ?? 1) * (0.5 + 0.5 * this.rnd()) };
    let doorT = 0;
    if (this.door) {
      const dt = (ts - this.door.at) / 60_000;
      doorT = dt < 3 ? (this.door.rise * dt) / 3 : this.door.rise * Math.exp(-(dt - 3) / 10);
      if (dt > 60) this.door = null;
    }
    const temp = Math.round((p.temp + daily + this.wander + doorT) * 100) / 100;
    const out: Record<string, number | string> = { dev: this.dev, ts, temp };
    if (this.humidity && p.hum !== undefined) out.hum = Math.round(Math.min(99, Math.max(1, p.hum - daily * 3 + this.humWander + doorT * 5)) * 10) / 10;
    out.volt = Math.round((3.0 + 0.01 * this.gauss()) * 1000) / 1000;
    out.rssi = Math.round(-66 + 3 * this.gauss());
    out.lqi = Math.max(0, Math.min(255, Math.round(180 + 10 * this.gauss())));
    return out;
  }
}

/** One simulated gateway: an MQTT session as the gateway itself, publishing at QoS 1. */
function runGateway(url: string, g: DemoGateway, log: FastifyBaseLogger) {
  const sensors = g.sensors.map((s) => new LiveSensor(s.dev, s.profile, s.humidity));
  const client: MqttClient = mqtt.connect(url, {
    clientId: g.sn,
    username: g.sn,
    password: g.secret,
    reconnectPeriod: 5_000,
    connectTimeout: 10_000,
  });
  let lastHeartbeat = 0;
  let warned = false;
  client.on('error', (err) => {
    if (!warned) log.warn({ sn: g.sn, err: err.message }, 'simulator: gateway cannot connect');
    warned = true;
  });
  client.on('connect', () => {
    if (warned) log.info({ sn: g.sn }, 'simulator: gateway connected');
    warned = false;
  });
  const tick = () => {
    if (!client.connected) return;
    const now = Date.now();
    const payload = JSON.stringify({ readings: sensors.map((s) => s.reading(now)) });
    client.publish(`cc/${g.sn}/up/data`, payload, { qos: 1 });
    if (now - lastHeartbeat >= HEARTBEAT_MS) {
      lastHeartbeat = now;
      client.publish(`cc/${g.sn}/up/heartbeat`, JSON.stringify({ ts: now, power: 'normal', tcp: true, lte: false, flight: false, tz: '+08:00' }), { qos: 1 });
    }
  };
  client.on('connect', tick);
  const timer = setInterval(tick, LIVE_INTERVAL_MS);
  return {
    async stop() {
      clearInterval(timer);
      await client.endAsync();
    },
  };
}

/**
 * The demo's live readings: every simulated demo gateway (never the hand-driven
 * DEMO0000FEED) connects to the broker as itself and sends its sensors' readings every few
 * seconds, exactly as a real gateway would. Undefined when there is nothing to simulate.
 */
export async function startDemoSimulator(db: Db, opts: { mqttUrl: string; log: FastifyBaseLogger }): Promise<RunningSimulator | undefined> {
  const gateways = await demoGateways(db);
  if (!gateways.length) return undefined;
  const running = gateways.map((g) => runGateway(opts.mqttUrl, g, opts.log));
  const sensors = gateways.reduce((n, g) => n + g.sensors.length, 0);
  return {
    summary: `${sensors} sensors on ${gateways.length} gateways send a reading every ${LIVE_INTERVAL_MS / 1000} s over MQTT`,
    async stop() {
      await Promise.all(running.map((r) => r.stop()));
    },
  };
}
