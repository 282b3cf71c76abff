import type { FastifyBaseLogger } from 'fastify';
import type { IngestLimits } from '../config.js';
import type { GatewayInfo } from './directory.js';

export type PacedTransport = 'mqtt' | 'http';

interface Pace {
  sn: string;
  /** Tokens of the two buckets. Readings may fall below zero: a message's readings are known only once it is parsed, after it was let in. */
  messages: number;
  readings: number;
  at: number;
  /** MQTT messages waiting for their turn, in the order they came. */
  waiting: { go: () => void; gone: () => boolean }[];
  pumping: boolean;
  /** Until when an HTTP sender was told to come back. */
  refusedUntil: number;
  warnedAt: number;
  heldSinceWarn: number;
}

/** A throttled gateway is named in the log at most this often, with how many messages were held meanwhile. */
const WARN_EVERY_MS = 60_000;
/** Idle gateways (both buckets full) are forgotten this often, so the map holds only recent senders. */
const SWEEP_MS = 60_000;

/**
 * Per-gateway rate limits of ingest: two token buckets per gateway, messages and readings, each
 * with its rate and burst (config.ingestLimits). A gateway over its rate is slowed, never
 * dropped: over MQTT its next message waits here before it is handled, so its PUBACK comes
 * later (and aedes reads no more from its socket meanwhile, so TCP holds the gateway back);
 * over HTTP the call is answered 429 with the wait, before anything is stored. Messages of one
 * gateway keep their order. Nothing acknowledged is ever thrown away, and the other gateways'
 * messages never queue behind a throttled one: each gateway waits on its own buckets.
 *
 * A message is let in when its gateway holds a message token and owes no readings; its readings
 * are charged when parsed (charge()), which may leave the bucket in debt, so one large message
 * makes the next one wait as long as it takes to pay for it.
 */
export class GatewayPacer {
  private paces = new Map<number, Pace>();
  private sweeper: NodeJS.Timeout | null = null;
  /** Messages held back (MQTT, waited) or refused (HTTP, 429) by the limits, for /metrics. */
  readonly throttled: Record<PacedTransport, number> = { mqtt: 0, http: 0 };

  constructor(
    private readonly limits: IngestLimits,
    private readonly log: FastifyBaseLogger,
  ) {}

  private get on() {
    return this.limits.messagesPerS > 0 || this.limits.readingsPerS > 0;
  }

  /** Gateways held back now: with MQTT messages waiting, or told over HTTP to come back later. */
  get held(): number {
    const now = Date.now();
    let n = 0;
    for (const p of this.paces.values()) if (p.waiting.length || p.refusedUntil > now) n++;
    return n;
  }

  /**
   * MQTT: resolves when the gateway's message may be handled. `gone` says its connection closed
   * meanwhile: such a message is let through at once without a token (the caller drops it
   * unacknowledged, and the gateway sends it again).
   */
  wait(gw: GatewayInfo, gone: () => boolean): Promise<void> {
    if (!this.on) return Promise.resolve();
    const p = this.pace(gw);
    if (!p.waiting.length && this.delay(p) === 0) {
      p.messages--;
      return Promise.resolve();
    }
    this.note(p, 'mqtt');
    return new Promise((go) => {
      p.waiting.push({ go, gone });
      if (!p.pumping) this.pump(p);
    });
  }

  /** HTTP: 0 when the message may be handled now, otherwise the milliseconds after which to send it again. */
  admit(gw: GatewayInfo): number {
    if (!this.on) return 0;
    const p = this.pace(gw);
    // The same gateway over MQTT is being held back: it does not jump the line over HTTP.
    const ms = Math.max(this.delay(p), p.waiting.length ? 1000 : 0);
    if (ms === 0) {
      p.messages--;
      return 0;
    }
    p.refusedUntil = Date.now() + ms;
    this.note(p, 'http');
    return ms;
  }

  /** A message's readings, once it is parsed (once per message: a message held through a database outage is parsed again). */
  charge(gw: GatewayInfo, readings: number) {
    const p = this.paces.get(gw.id);
    if (!p || !this.limits.readingsPerS) return;
    this.refill(p);
    p.readings -= readings;
  }

  private pace(gw: GatewayInfo): Pace {
    let p = this.paces.get(gw.id);
    if (!p) {
      const { messageBurst, readingBurst } = this.limits;
      p = { sn: gw.sn, messages: messageBurst, readings: readingBurst, at: performance.now(), waiting: [], pumping: false, refusedUntil: 0, warnedAt: 0, heldSinceWarn: 0 };
      this.paces.set(gw.id, p);
      this.sweeper ??= setInterval(() => this.sweep(), SWEEP_MS).unref();
    }
    return p;
  }

  private refill(p: Pace) {
    const { messagesPerS, messageBurst, readingsPerS, readingBurst } = this.limits;
    const now = performance.now();
    const s = (now - p.at) / 1000;
    p.at = now;
    if (messagesPerS) p.messages = Math.min(messageBurst, p.messages + s * messagesPerS);
    if (readingsPerS) p.readings = Math.min(readingBurst, p.readings + s * readingsPerS);
  }

  /** Milliseconds until the gateway holds a message token and owes no readings. */
  private delay(p: Pace): number {
    const { messagesPerS, readingsPerS } = this.limits;
    this.refill(p);
    const forMessage = messagesPerS && p.messages < 1 ? ((1 - p.messages) / messagesPerS) * 1000 : 0;
    const forReadings = readingsPerS && p.readings < 0 ? (-p.readings / readingsPerS) * 1000 : 0;
    return Math.max(forMessage, forReadings);
  }

  /** Lets the waiting messages in one at a time, each when its gateway can pay for it. */
  private pump(p: Pace) {
    p.pumping = false;
    while (p.waiting[0]?.gone()) p.waiting.shift()!.go();
    if (!p.waiting.length) return;
    p.pumping = true;
    const ms = this.delay(p);
    if (ms > 0) return void setTimeout(() => this.pump(p), Math.max(1, Math.ceil(ms))).unref();
    p.messages--;
    p.waiting.shift()!.go();
    // The next one waits until this one's readings are charged (at its parse, in the microtasks that follow).
    setImmediate(() => this.pump(p));
  }

  private note(p: Pace, transport: PacedTransport) {
    this.throttled[transport]++;
    p.heldSinceWarn++;
    const now = Date.now();
    if (now - p.warnedAt < WARN_EVERY_MS) return;
    this.log.warn({ sn: p.sn, transport, held: p.heldSinceWarn, limits: this.limits }, 'ingest: gateway over its rate limit; its messages are held back');
    p.warnedAt = now;
    p.heldSinceWarn = 0;
  }

  private sweep() {
    const { messageBurst, readingBurst, messagesPerS, readingsPerS } = this.limits;
    const now = Date.now();
    for (const [id, p] of this.paces) {
      if (p.waiting.length || p.pumping || p.refusedUntil > now) continue;
      this.refill(p);
      if ((!messagesPerS || p.messages >= messageBurst) && (!readingsPerS || p.readings >= readingBurst)) this.paces.delete(id);
    }
    if (!this.paces.size && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = null;
    }
  }
}
