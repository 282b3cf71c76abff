import mqtt, { type MqttClient } from 'mqtt';
import { hash01, sample, type Reading, type SensorModel } from './model.js';

export { doorOpen, generateHistory, sample, type Reading, type SensorModel } from './model.js';

export interface SimGateway {
  sn: string;
  secret: string;
  sensors: SensorModel[];
  /** Time zone the gateway reports in heartbeats; default +08:00. */
  tz?: string;
  gps?: { lat: number; lng: number };
  /** A vehicle's route: the heartbeat's `gps` follows it (positionOnRoute) instead of `gps`. */
  route?: RoutePlan;
}

/**
 * A vehicle driving `points` there and back for ever: each way takes `legMs` at an even speed
 * along the polyline, and it stands still `stopMs` at each end (loading, unloading: long enough,
 * at the default, to open the console's "retention" exception of a trip).
 */
export interface RoutePlan {
  points: { lat: number; lng: number }[];
  legMs: number;
  stopMs: number;
}

/** Where a vehicle on `plan` is at `ts` (UTC ms), rounded to the 6 decimals a GPS fix gives. */
export function positionOnRoute(plan: RoutePlan, ts: number): { lat: number; lng: number } {
  const pts = plan.points;
  if (pts.length < 2) return pts[0];
  const cycle = 2 * (plan.legMs + plan.stopMs);
  let t = ((ts % cycle) + cycle) % cycle;
  // [0, stop): at the start; then out; [leg + stop, leg + 2 stop): at the far end; then back.
  let f: number;
  if (t < plan.stopMs) f = 0;
  else if ((t -= plan.stopMs) < plan.legMs) f = t / plan.legMs;
  else if ((t -= plan.legMs) < plan.stopMs) f = 1;
  else f = 1 - (t - plan.stopMs) / plan.legMs;
  const lens = pts.slice(1).map((p, i) => Math.hypot(p.lat - pts[i].lat, (p.lng - pts[i].lng) * Math.cos((p.lat * Math.PI) / 180)));
  let along = f * lens.reduce((a, b) => a + b, 0);
  let i = 0;
  while (i < lens.length - 1 && along > lens[i]) along -= lens[i++];
  const k = lens[i] ? Math.min(1, along / lens[i]) : 0;
  const r6 = (v: number) => Math.round(v * 1e6) / 1e6;
  return { lat: r6(pts[i].lat + (pts[i + 1].lat - pts[i].lat) * k), lng: r6(pts[i].lng + (pts[i + 1].lng - pts[i].lng) * k) };
}

export interface SimulationOptions {
  /** Broker the gateways connect to: mqtt://host:port. */
  url: string;
  gateways: SimGateway[];
  /** How long a gateway takes to answer a configuration command; default 1.5 s. */
  ackDelayMs?: number;
  /** Sampling and publishing interval; default 60 s. */
  intervalMs?: number;
  heartbeatMs?: number;
  /** Mean time between a gateway's offline gaps (0 = never); default 2 h. */
  gapEveryMs?: number;
  /** Length of an offline gap; default 3 min. Readings taken meanwhile are sent afterwards with their original ts. */
  gapMs?: number;
  onError?: (err: Error, sn: string) => void;
}

export interface Simulation {
  readonly stats: { published: number; readings: number; backfilled: number; errors: number };
  stop(): Promise<void>;
}

const CHUNK = 200;

/**
 * Gateways speaking the device protocol over MQTT: every interval each gateway publishes one
 * cc/{sn}/up/data message with a reading per sensor, a heartbeat every heartbeatMs, and now
 * and then goes silent (a network gap), buffers its samples, and back-fills them on return.
 */
export function startSimulation(opts: SimulationOptions): Simulation {
  const intervalMs = opts.intervalMs ?? 60_000;
  const heartbeatMs = opts.heartbeatMs ?? 60_000;
  const gapEvery = opts.gapEveryMs ?? 2 * 3_600_000;
  const gapMs = opts.gapMs ?? 3 * 60_000;
  const stats = { published: 0, readings: 0, backfilled: 0, errors: 0 };
  const fail = (sn: string) => (err: Error) => {
    stats.errors++;
    opts.onError?.(err, sn);
  };

  const sims = opts.gateways.map((gw) => {
    const client: MqttClient = mqtt.connect(opts.url, {
      clientId: gw.sn,
      username: gw.sn,
      password: gw.secret,
      protocolVersion: 4,
      reconnectPeriod: 2000,
      // CONNACK 3 (the console's database is away) means "later", as docs/device-protocol.md says.
      reconnectOnConnackError: true,
      clean: true,
    });
    client.on('error', fail(gw.sn));
    const up = (kind: string, body: unknown) => {
      stats.published++;
      return client.publishAsync(`cc/${gw.sn}/up/${kind}`, JSON.stringify(body), { qos: 1 }).catch(fail(gw.sn));
    };
    const heartbeat = () =>
      up('heartbeat', { ts: Date.now(), power: 'normal', tcp: true, lte: false, flight: false, ip: '10.0.0.5', wanIp: '203.0.113.7', gps: gw.route ? positionOnRoute(gw.route, Date.now()) : gw.gps, tz: gw.tz ?? '+08:00' });
    let offlineUntil = 0;
    let buffer: Reading[] = [];
    let lastBeat = 0;

    const tick = () => {
      const now = Date.now();
      const ts = Math.floor(now / intervalMs) * intervalMs;
      const readings = gw.sensors.map((s) => sample(s, ts));
      stats.readings += readings.length;
      if (now < offlineUntil) {
        buffer.push(...readings);
        return;
      }
      if (gapEvery > 0 && hash01(gw.sn, 'gap', ts) < intervalMs / gapEvery) {
        offlineUntil = now + gapMs;
        buffer.push(...readings);
        return;
      }
      if (buffer.length) {
        for (let i = 0; i < buffer.length; i += CHUNK) void up('data', { readings: buffer.slice(i, i + CHUNK) });
        stats.backfilled += buffer.length;
        buffer = [];
      }
      void up('data', { readings });
      if (now - lastBeat >= heartbeatMs) {
        lastBeat = now;
        void heartbeat();
      }
    };
    client.once('connect', () => {
      lastBeat = Date.now();
      void heartbeat();
    });
    // Commands (device-protocol.md down/config, down/output): the gateway applies a configuration
    // to its sensor and answers on up/ack a moment later, a device it does not have being a
    // failure; an output switch (a relay on the gateway's bus, which the simulator does not
    // model) it always carries out.
    client.on('connect', () => void client.subscribeAsync(`cc/${gw.sn}/down/#`, { qos: 1 }).catch(fail(gw.sn)));
    client.on('message', (topic, payload) => {
      const output = topic === `cc/${gw.sn}/down/output`;
      if (topic !== `cc/${gw.sn}/down/config` && !output) return;
      let cmd: { cmdId?: unknown; dev?: unknown };
      try {
        cmd = JSON.parse(payload.toString());
      } catch {
        return;
      }
      if (typeof cmd.cmdId !== 'string') return;
      const known = output || gw.sensors.some((s) => s.dev === cmd.dev);
      const ack = known ? { cmdId: cmd.cmdId, result: 'ok' } : { cmdId: cmd.cmdId, result: 'fail', detail: `no sensor ${String(cmd.dev)} on this gateway` };
      setTimeout(() => void up('ack', ack), opts.ackDelayMs ?? 1_500);
    });
    // Start on an interval boundary so every gateway samples at the same instants.
    let timer: NodeJS.Timeout | undefined;
    const first = setTimeout(() => {
      tick();
      timer = setInterval(tick, intervalMs);
    }, intervalMs - (Date.now() % intervalMs));
    return {
      async stop() {
        clearTimeout(first);
        clearInterval(timer);
        await client.endAsync(false);
      },
    };
  });

  return {
    stats,
    async stop() {
      await Promise.all(sims.map((s) => s.stop()));
    },
  };
}

/** Publishes past readings of one gateway (e.g. a week of generateHistory) in messages of `chunk` readings, QoS 1. */
export async function publishHistory(opts: { url: string; gateway: SimGateway; readings: Reading[]; chunk?: number }): Promise<number> {
  const { sn, secret } = opts.gateway;
  const client = await mqtt.connectAsync(opts.url, { clientId: sn, username: sn, password: secret, protocolVersion: 4, reconnectPeriod: 1000, reconnectOnConnackError: true });
  const chunk = opts.chunk ?? 500;
  try {
    const sends: Promise<unknown>[] = [];
    for (let i = 0; i < opts.readings.length; i += chunk)
      sends.push(client.publishAsync(`cc/${sn}/up/data`, JSON.stringify({ readings: opts.readings.slice(i, i + chunk) }), { qos: 1 }));
    await Promise.all(sends);
    return sends.length;
  } finally {
    await client.endAsync(false);
  }
}
