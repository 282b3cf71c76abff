import { createHmac } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';

/*
 * The link to one remote (docs/forwarding.md "Links"): connect, send a batch and resolve only
 * when the remote has acknowledged all of it (MQTT: the PUBACK / PUBCOMP of every message at
 * QoS 1 / 2, or the write at QoS 0; HTTP: a 2xx answer), within the server's timeout. Anything
 * else rejects, and the forwarder keeps its cursor where it was: the batch goes again.
 */

export interface RemoteConfig {
  type: 'mqtt' | 'http';
  host: string;
  port: number;
  tls: boolean;
  path: string;
  clientId: string;
  username: string;
  password: string;
  qos: 0 | 1 | 2;
  /** Seconds a connection or a batch may take before it counts as failed; 0: the default of 10. */
  timeoutS: number;
  /** MQTT keep-alive in seconds (0: none). */
  heartbeatS: number;
  pubTopic: string;
}

/** A supervision platform's identity and key: an HTTP request on its behalf is signed with it. */
export interface PlatformIdentity {
  code: string;
  vendorCode: string;
  appId: string;
  key: string;
}

export interface Link {
  readonly connected: boolean;
  connect(): Promise<void>;
  /** Sends the messages in their order; resolves once the remote has acknowledged every one. */
  send(messages: string[], platform?: PlatformIdentity): Promise<void>;
  close(): Promise<void>;
}

/** Readings per MQTT message. */
export const PER_MESSAGE = 100;

export const timeoutMs = (c: Pick<RemoteConfig, 'timeoutS'>) => (c.timeoutS > 0 ? c.timeoutS : 10) * 1000;

/** Rejects after ms with the message a page can show, unless the work settles first. */
export function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

class MqttLink implements Link {
  private client: MqttClient | null = null;
  constructor(private readonly c: RemoteConfig) {}

  get connected() {
    return this.client?.connected ?? false;
  }

  async connect() {
    if (this.client?.connected) return;
    await this.close();
    const url = `${this.c.tls ? 'mqtts' : 'mqtt'}://${this.c.host}:${this.c.port}`;
    const client = mqtt.connect(url, {
      clientId: this.c.clientId || undefined,
      username: this.c.username || undefined,
      password: this.c.password || undefined,
      keepalive: this.c.heartbeatS,
      connectTimeout: timeoutMs(this.c),
      // The forwarder reconnects itself, with its back-off, and resends from its cursor.
      reconnectPeriod: 0,
      clean: true,
      protocolVersion: 4,
    });
    this.client = client;
    client.on('error', () => undefined);
    await within(
      timeoutMs(this.c),
      'connect',
      new Promise<void>((resolve, reject) => {
        client.once('connect', () => resolve());
        client.once('error', reject);
        client.once('close', () => reject(new Error('the connection closed')));
      }),
    );
  }

  async send(messages: string[]) {
    const client = this.client;
    if (!client?.connected) throw new Error('not connected');
    const qos = this.c.qos;
    // A message carries up to PER_MESSAGE readings as {"items":[…]}, the HTTP body's shape: one
    // acknowledgement per hundred readings rather than per reading (docs/performance.md
    // "Forwarding"). All are in flight at once: mqtt.js writes them in order on the one
    // connection, and a broker keeps the order of one client's messages on a topic.
    const payloads: string[] = [];
    for (let i = 0; i < messages.length; i += PER_MESSAGE) payloads.push(`{"items":[${messages.slice(i, i + PER_MESSAGE).join(',')}]}`);
    const sent = Promise.all(payloads.map((m) => client.publishAsync(this.c.pubTopic, m, { qos })));
    await within(timeoutMs(this.c), 'acknowledgement', sent).catch(async (err) => {
      // A remote that does not acknowledge is left: the next try opens a fresh session.
      await this.close();
      throw err;
    });
  }

  async close() {
    const c = this.client;
    this.client = null;
    if (c) await new Promise<void>((resolve) => c.end(true, {}, () => resolve()));
  }
}

class HttpLink implements Link {
  private ok = false;
  constructor(private readonly c: RemoteConfig) {}

  get connected() {
    return this.ok;
  }

  async connect() {
    // HTTP has no session: the first request tells whether the receiver is there.
  }

  async send(messages: string[], p?: PlatformIdentity) {
    const body = `{"items":[${messages.join(',')}]}`;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.c.username) headers.authorization = `Basic ${Buffer.from(`${this.c.username}:${this.c.password}`).toString('base64')}`;
    if (p) {
      const ts = String(Date.now());
      headers['x-platform-code'] = p.code;
      headers['x-vendor-code'] = p.vendorCode;
      headers['x-app-id'] = p.appId;
      headers['x-timestamp'] = ts;
      headers['x-signature'] = createHmac('sha256', p.key).update(`${p.appId}\n${ts}\n${body}`).digest('hex');
    }
    const url = `${this.c.tls ? 'https' : 'http'}://${this.c.host}:${this.c.port}${this.c.path || '/'}`;
    try {
      const res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs(this.c)) });
      await res.arrayBuffer().catch(() => undefined);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      this.ok = true;
    } catch (err) {
      this.ok = false;
      if (err instanceof Error && err.name === 'TimeoutError') throw new Error(`acknowledgement: no answer within ${timeoutMs(this.c) / 1000} s`);
      // fetch says only "fetch failed": the reason (ECONNREFUSED, ENOTFOUND …) is its cause, which the page should show.
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw cause ? new Error(`connect: ${cause.code ?? cause.message}`) : err;
    }
  }

  async close() {
    this.ok = false;
  }
}

export const linkFor = (c: RemoteConfig): Link => (c.type === 'mqtt' ? new MqttLink(c) : new HttpLink(c));
