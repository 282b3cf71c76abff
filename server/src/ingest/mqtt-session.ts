import net from 'node:net';
import tls from 'node:tls';
import mqttPacket, { type IPublishPacket, type Packet } from 'mqtt-packet';
import { redactUrl } from '../platform/net/url.js';

/**
 * The console's own persistent MQTT session on an external broker: the uplink consumer
 * (docs/ingest.md "External broker"). Written on mqtt-packet rather than mqtt.js for three
 * things mqtt.js does not do:
 * - it subscribes on every CONNACK, whatever the broker says of the session: a broker that
 *   answers "session present" after losing the subscription (Mosquitto with shared
 *   subscriptions, across a restart) can never leave the console deaf;
 * - it handles the messages of one session concurrently (mqtt.js takes the next PUBLISH only
 *   after the previous one is acknowledged, which made one commit per message), and writes
 *   each PUBACK after that message's commit, in the order the messages came (MQTT 3.1.1 §4.6);
 * - a lost connection is retried with back-off and reported once, as a state change.
 *
 * It speaks MQTT 5 where the broker does, for one property: Receive Maximum. Over MQTT 3.1.1 a
 * broker keeps at most its own in-flight limit unacknowledged (Mosquitto: 20) and queues the
 * rest for the session, up to its queue limit (Mosquitto: 1,000), beyond which it drops
 * messages: a burst of a few thousand messages lost readings at Mosquitto's defaults. With
 * Receive Maximum 65,535 the broker hands messages over as fast as the console takes them, the
 * console's own backpressure (`maxPending`, the socket paused) holds the rest in TCP, and
 * nothing reaches the broker's queue limit while the console is connected. A broker that
 * refuses MQTT 5 gets MQTT 3.1.1 on the next attempt.
 */

export interface SessionOptions {
  url: string;
  clientId: string;
  /** Subscribed at QoS 1 on every connect. */
  topic: string;
  /** Resolves once the message is committed; then it is acknowledged. A rejection drops the connection unacknowledged. */
  handle(topic: string, payload: Buffer): Promise<void>;
  /** Called when the session becomes usable (subscribed) or stops being so, with why. */
  onState?(up: boolean, cause?: string): void;
  keepaliveS?: number;
  /** Messages taken but not yet acknowledged above which the socket stops reading. Default 1,000. */
  maxPending?: number;
}

/** CONNACK return codes of MQTT 3.1.1 and reason codes of MQTT 5. */
const REFUSED: Record<number, string> = {
  1: 'unacceptable protocol version',
  2: 'client id rejected',
  3: 'server unavailable',
  4: 'bad user name or password',
  5: 'not authorized',
  0x84: 'unsupported protocol version',
  0x85: 'client id rejected',
  0x86: 'bad user name or password',
  0x87: 'not authorized',
  0x88: 'server unavailable',
  0x89: 'server busy',
  0x8a: 'banned',
  0x8c: 'bad authentication method',
};
/** Refusals that waiting will not cure: the start fails on them instead of retrying. */
const FATAL = new Set([2, 4, 5, 0x85, 0x86, 0x87, 0x8a, 0x8c]);
/** The broker does not speak MQTT 5: the next attempt speaks 3.1.1. */
const OLD_BROKER = new Set([1, 0x84]);
/** As many unacknowledged messages as MQTT 5 allows the broker to send us (the console paces itself). */
const RECEIVE_MAXIMUM = 65_535;
/** MQTT 5 ends a session at disconnect unless it is given a lifetime: this one never expires. */
const SESSION_EXPIRY_S = 0xffffffff;
const BACKOFF_MS = { base: 250, max: 5_000 };
const CONNECT_TIMEOUT_MS = 10_000;

interface Taken {
  messageId: number;
  done: boolean;
}

/** One TCP connection of the session; a new one replaces it after a loss. */
interface Connection {
  socket: net.Socket;
  alive: boolean;
  pending: Taken[];
  settling: Set<Promise<void>>;
  lastIn: number;
  lastOut: number;
  timer?: NodeJS.Timeout;
  cause?: string;
}

export class MqttSession {
  /** Subscribed on a live connection. */
  up = false;
  private conn: Connection | null = null;
  private attempt = 0;
  private retry: NodeJS.Timeout | undefined;
  private closing = false;
  private readonly url: URL;
  private readonly keepaliveS: number;
  private readonly maxPending: number;
  private started: { resolve(): void; reject(err: Error): void } | null = null;
  /** 5 until a broker refuses it. */
  private version: 4 | 5 = 5;

  constructor(private readonly opts: SessionOptions) {
    this.url = new URL(opts.url);
    this.keepaliveS = opts.keepaliveS ?? 30;
    this.maxPending = opts.maxPending ?? 2000;
  }

  /** The protocol spoken on the last connection (tests). */
  get protocolVersion() {
    return this.version;
  }

  /**
   * Connects and subscribes. Rejects on what retrying cannot cure (bad credentials, a refused
   * subscription); a broker that cannot be reached yet is retried in the background.
   */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.started = { resolve, reject };
      this.open();
    });
  }

  /** Drops the connection (it reconnects and subscribes again), e.g. when ingest has gone silent. */
  reconnect(cause: string) {
    if (this.conn?.alive) this.drop(this.conn, cause);
  }

  /** Stops taking messages, lets those taken commit and be acknowledged, then disconnects. */
  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.retry);
    const c = this.conn;
    if (!c) return;
    c.socket.pause();
    await Promise.allSettled([...c.settling]);
    if (c.alive) {
      this.send(c, { cmd: 'disconnect' });
      await new Promise<void>((resolve) => {
        c.socket.once('close', () => resolve());
        c.socket.end();
        setTimeout(() => c.socket.destroy(), 2_000).unref();
      });
    }
  }

  private open() {
    const port = Number(this.url.port) || (this.secure ? 8883 : 1883);
    const host = this.url.hostname.replace(/^\[|\]$/g, '');
    const socket = this.secure ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host }) : net.connect({ host, port });
    const c: Connection = { socket, alive: true, pending: [], settling: new Set(), lastIn: Date.now(), lastOut: Date.now() };
    this.conn = c;
    const version = this.version;
    const parser = mqttPacket.parser({ protocolVersion: version });
    parser.on('packet', (p: Packet) => this.onPacket(c, p));
    parser.on('error', (err: Error) => this.drop(c, `unreadable packet from the broker: ${err.message}`));
    socket.setNoDelay(true);
    socket.on(this.secure ? 'secureConnect' : 'connect', () => {
      this.send(c, {
        cmd: 'connect',
        protocolId: 'MQTT',
        protocolVersion: version,
        clientId: this.opts.clientId,
        clean: false,
        keepalive: this.keepaliveS,
        username: this.url.username ? decodeURIComponent(this.url.username) : undefined,
        password: this.url.password ? Buffer.from(decodeURIComponent(this.url.password)) : undefined,
        ...(version === 5 ? { properties: { receiveMaximum: RECEIVE_MAXIMUM, sessionExpiryInterval: SESSION_EXPIRY_S } } : {}),
      });
    });
    socket.on('data', (buf) => parser.parse(buf));
    socket.on('error', (err) => (c.cause ??= err.message));
    socket.on('close', () => this.lost(c));
    // CONNECT unanswered, then a live connection's keep-alive: a PINGREQ when we have been quiet,
    // and the connection given up when the broker has been silent for 1.5 keep-alives.
    const connectBy = Date.now() + CONNECT_TIMEOUT_MS;
    c.timer = setInterval(() => {
      const now = Date.now();
      if (!this.up && now > connectBy) return this.drop(c, 'no answer to CONNECT');
      if (now - c.lastIn > this.keepaliveS * 1500) return this.drop(c, 'the broker stopped answering (keep-alive)');
      if (now - c.lastOut > this.keepaliveS * 500) this.send(c, { cmd: 'pingreq' });
    }, Math.min(1000, this.keepaliveS * 250));
    c.timer.unref();
  }

  private get secure() {
    return /^(mqtts|ssl|tls):$/.test(this.url.protocol);
  }

  private onPacket(c: Connection, p: Packet) {
    c.lastIn = Date.now();
    switch (p.cmd) {
      case 'connack': {
        const code = p.reasonCode ?? p.returnCode ?? 0;
        if (code) {
          if (this.version === 5 && OLD_BROKER.has(code)) {
            this.version = 4;
            this.attempt = 0;
            return this.drop(c, 'the broker does not speak MQTT 5; speaking 3.1.1');
          }
          const why = `the broker refused the connection: ${REFUSED[code] ?? `code ${code}`}`;
          if (FATAL.has(code)) this.fail(new Error(`MQTT_URL ${redactUrl(this.opts.url)}: ${why}`));
          return this.drop(c, why);
        }
        // Always, even with sessionPresent: the broker may have kept the session but not its subscription.
        this.send(c, { cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: this.opts.topic, qos: 1 }] });
        return;
      }
      case 'suback': {
        // 3.1.1 refuses with 0x80; MQTT 5 with any reason code from 0x80 up (not authorized, shared subscriptions not supported, …).
        if ((p.granted as unknown[]).some((g) => (typeof g === 'number' ? g : ((g as { qos?: number }).qos ?? 0)) >= 0x80)) {
          this.fail(new Error(`MQTT_URL ${redactUrl(this.opts.url)}: subscription to ${this.opts.topic} refused (check the broker's ACL)`));
          return this.drop(c, `subscription to ${this.opts.topic} refused`);
        }
        this.attempt = 0;
        this.up = true;
        this.opts.onState?.(true);
        const s = this.started;
        this.started = null;
        s?.resolve();
        return;
      }
      case 'publish':
        return this.take(c, p);
      case 'disconnect':
        // MQTT 5: the broker says why it ends the connection (another session took the id, a shutdown, …).
        return this.drop(c, `the broker disconnected the session${p.reasonCode ? `: reason 0x${p.reasonCode.toString(16)}` : ''}`);
      default:
        // pingresp; a pubrel/puback would be for messages we publish, and this session publishes none.
        return;
    }
  }

  private take(c: Connection, p: IPublishPacket) {
    const payload = Buffer.isBuffer(p.payload) ? p.payload : Buffer.from(p.payload);
    const entry: Taken | null = p.qos > 0 && p.messageId !== undefined ? { messageId: p.messageId, done: false } : null;
    if (entry) c.pending.push(entry);
    if (c.pending.length >= this.maxPending) c.socket.pause();
    const settled: Promise<void> = this.opts.handle(p.topic, payload).then(
      () => {
        if (!entry) return;
        entry.done = true;
        this.flush(c);
      },
      (err: unknown) => this.drop(c, `a message could not be committed: ${err instanceof Error ? err.message : String(err)}`),
    );
    c.settling.add(settled);
    void settled.finally(() => c.settling.delete(settled));
  }

  /** PUBACKs of the committed messages at the head of the line, in the order they came. */
  private flush(c: Connection) {
    while (c.pending.length && c.pending[0].done) {
      const { messageId } = c.pending.shift()!;
      if (c.alive) this.send(c, { cmd: 'puback', messageId });
    }
    if (c.alive && c.pending.length < this.maxPending / 2 && c.socket.isPaused()) c.socket.resume();
  }

  private send(c: Connection, p: Packet) {
    if (!c.alive) return;
    c.lastOut = Date.now();
    c.socket.write(mqttPacket.generate(p, { protocolVersion: this.version }));
  }

  /** Ends the connection without acknowledging what it still holds: the broker delivers it again. */
  private drop(c: Connection, cause: string) {
    if (!c.alive) return;
    c.cause = cause;
    c.socket.destroy();
  }

  private lost(c: Connection) {
    if (!c.alive) return;
    c.alive = false;
    clearInterval(c.timer);
    this.up = false;
    if (this.closing || c !== this.conn) return;
    const cause = c.cause ?? 'connection closed by the broker';
    this.opts.onState?.(false, cause);
    // A broker that cannot be reached yet does not hold up the console's start: it is retried
    // in the background, reported as a fault, and /readyz says not ready meanwhile.
    const s = this.started;
    this.started = null;
    s?.resolve();
    const delay = Math.min(BACKOFF_MS.max, BACKOFF_MS.base * 2 ** this.attempt++);
    this.retry = setTimeout(() => this.open(), delay);
    this.retry.unref();
  }

  /** A start that cannot succeed: reported to start()'s caller, and no more retries. */
  private fail(err: Error) {
    const s = this.started;
    if (!s) return;
    this.started = null;
    this.closing = true;
    s.reject(err);
  }
}
