import { pino } from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../platform/db/client.js';
import type { Bus } from '../platform/events.js';
import { Directory, foreignReason, gatewayRefusal, type GatewayInfo } from './directory.js';
import { GatewayPacer } from './pacer.js';
import { Partitions } from './partitions.js';
import { ReadingWriter, type IngestResult, type WriterOptions } from './writer.js';
import { parseAck, parseData, parseEvent, parseHeartbeat, type MessageKind, type Parsed } from './protocol.js';
import { verifyGatewaySecret } from './secret.js';
import { storeEvent, storeHeartbeat } from './gatewayMessages.js';
import { isConnectionError } from '../platform/db/outage.js';
import type { Fault } from '../platform/health/health.js';

import type { GatewayEventMessage } from '../platform/events.js';
export type { GatewayEventMessage };

export interface HandleResult extends IngestResult {
  /** Set when the message was rejected whole: what is wrong, for the HTTP answer or the log. */
  error?: string;
  /** With error: the reject log's reason (malformed, stopped_gateway, cancelled_customer, too_many_readings). */
  reason?: string;
}

export interface HandleOptions {
  /** Readings one message may carry; more refuses it whole (HTTP ingest's cap; MQTT is bounded by its packet size). */
  maxReadings?: number;
  /** Told how many readings a data message carries, once parsed: the transport charges them to the gateway's rate (pacer.ts). */
  counted?: (readings: number) => void;
}

export type DownKind = 'config' | 'output';
type Downlink = (sn: string, kind: DownKind, payload: object) => Promise<void>;

const ZERO: IngestResult = { accepted: 0, duplicates: 0, rejected: 0 };

/** What ingest is built from (AppDeps has it all). */
export interface IngestDeps {
  config: Config;
  db: Db;
  bus: Bus;
  log?: FastifyBaseLogger;
  /** The replicas' channel: with it, a gateway's credentials are read afresh at every sign-in. */
  cluster?: { flushed(): Promise<void> };
  /** The one service of this process, kept here by ingestOf(deps). */
  ingest?: IngestService;
}

/**
 * Ingest shared by the MQTT broker, the external consumer and the HTTP routes: gateway
 * authentication, the batching reading writer and the handling of heartbeats, events and
 * command acks. It owns no socket; transports call handle() and ack after it resolves.
 */
export class IngestService {
  readonly directory: Directory;
  readonly writer: ReadingWriter;
  /** Per-gateway rate limits: the embedded broker and HTTP ingest pass through it before handle(). */
  readonly pacer: GatewayPacer;
  /** Connections the embedded broker closed before login, by why (for /metrics). */
  readonly refusedConnections = { too_large: 0, timeout: 0, not_authorized: 0 };
  readonly log: FastifyBaseLogger;
  readonly bus: Bus;
  private downlink: Downlink | null = null;
  /** Off while no MQTT transport runs: a message held through an outage then gives up (unacknowledged). */
  private holding = false;
  private readonly waiting = new Set<() => void>();
  /** Epoch ms of the last message from any gateway over any transport, or of the start (the silence watchdog reads it). */
  lastMessageAt = Date.now();
  /** Whether any message has arrived since the start. */
  messageSeen = false;
  private silence: Fault | undefined;

  constructor(
    private deps: IngestDeps,
    opts: WriterOptions = {},
  ) {
    this.bus = deps.bus;
    this.log = deps.log ?? (pino({ level: deps.config.logLevel }) as unknown as FastifyBaseLogger);
    this.directory = new Directory(deps.db);
    this.writer = new ReadingWriter(deps.db, deps.bus, this.log, this.directory, new Partitions(deps.db), { gxpRecords: deps.config.gxpRecords, ...opts });
    this.pacer = new GatewayPacer(deps.config.ingestLimits, this.log);
    // Changes committed by the API reach ingest as events: the directory forgets them at once.
    deps.bus.on('directory', (e) => this.directory.forget(e));
  }

  /** The gateway whose secret this is, or null (unknown sn or wrong secret). */
  async authenticate(sn: string, secret: string | Buffer | null | undefined): Promise<GatewayInfo | null> {
    if (!sn || sn.length > 30) return null;
    // While the database is away a gateway the directory remembers still gets in (its messages
    // are then held, held()); one it does not know fails here: MQTT CONNACK 3, HTTP 503.
    // Among replicas a secret reset or a stop made on another one arrives here as an event a
    // moment after its answer: credentials are then read afresh at every sign-in.
    const gw = await this.directory.gateway(sn, { fresh: !!this.deps.cluster });
    return gw && verifyGatewaySecret(gw.secretHash, secret) ? gw : null;
  }

  /** A message arrived from a gateway (each transport says so once per message): ingest is not deaf (ends the 'ingest' fault of silence.ts). */
  noteMessage() {
    this.lastMessageAt = Date.now();
    this.messageSeen = true;
    if (this.silence?.active) this.silence.end('a message arrived');
  }

  /** The fault that the silence watchdog raises; a message ends it at once. */
  watchSilence(fault: Fault) {
    this.silence = fault;
  }

  /** One message from a gateway. Resolves after everything it changed is committed; rejects only if the database failed. */
  async handle(gw: GatewayInfo, kind: MessageKind, payload: Buffer | string, opts: HandleOptions = {}): Promise<HandleResult> {
    // The embedded broker refuses such a gateway at CONNECT and HTTP answers 403; what still
    // arrives (through an external broker, or sent before the change) is refused with its reason
    // in the reject log and acknowledged, so that the gateway does not resend it.
    const refusal = gatewayRefusal(gw);
    if (refusal) {
      const whose = refusal === 'stopped_gateway' ? 'a stopped gateway' : "a cancelled customer's gateway";
      const r = await this.writer.submitReject(gw, { sn: gw.sn, dev: null, reason: refusal, detail: `${kind} message of ${whose}` });
      return { ...r, error: refusal, reason: refusal };
    }
    switch (kind) {
      case 'data': {
        const p = parseData(payload);
        if (!p.ok) return this.malformed(gw, kind, p);
        const n = p.value.readings.length + p.value.refused.length;
        opts.counted?.(n);
        if (opts.maxReadings !== undefined && n > opts.maxReadings) {
          const error = `too many readings in one message: ${n}, at most ${opts.maxReadings}; send them in several messages`;
          const r = await this.writer.submitReject(gw, { sn: gw.sn, dev: null, reason: 'too_many_readings', detail: error });
          return { ...r, error, reason: 'too_many_readings' };
        }
        return this.writer.submit(gw, p.value.readings, p.value.refused);
      }
      case 'heartbeat': {
        const p = parseHeartbeat(payload);
        if (!p.ok) return this.malformed(gw, kind, p);
        // The gateway's state and history, and what it means for its device exceptions (gatewayMessages.ts).
        const stored = await storeHeartbeat(this.deps.db, this.deps.bus, gw, p.value);
        return { ...ZERO, accepted: stored ? 1 : 0 };
      }
      case 'event': {
        const p = parseEvent(payload);
        if (!p.ok) return this.malformed(gw, kind, p);
        const ev = p.value;
        let sensorId: number | null = null;
        if (ev.dev) {
          const sensor = (await this.directory.sensorsFor([ev.dev])).get(ev.dev);
          const reason = !sensor ? 'unknown_device' : sensor.customerId !== gw.customerId ? foreignReason(sensor, gw) : null;
          if (reason) return this.writer.submitReject(gw, { sn: gw.sn, dev: ev.dev, reason, detail: `event ${ev.type} ts=${ev.ts}` });
          sensorId = sensor!.id;
        }
        // Stored with what it means for the device exceptions (gatewayMessages.ts); the bus hears of it after the commit.
        if (!(await storeEvent(this.deps.db, this.deps.bus, gw, ev, sensorId))) return { ...ZERO, duplicates: 1 };
        return { ...ZERO, accepted: 1 };
      }
      case 'ack': {
        const p = parseAck(payload);
        if (!p.ok) return this.malformed(gw, kind, p);
        const ack = p.value;
        // An acknowledged output command is the relay's confirmed output (docs/devices.md "Relays").
        const rows = await this.deps.db.query(
          `WITH done AS (
             UPDATE device_command SET status = $3, detail = $4, finished_at = now()
              WHERE cmd_id = $1 AND gateway_id = $2 AND status IN ('prepare', 'issuing') RETURNING id, relay_id, kind, payload)
           , relay AS (
             UPDATE relay r SET output = (d.payload->>'on')::boolean, output_at = now()
               FROM done d WHERE $3 = 'end' AND d.kind = 'output' AND r.id = d.relay_id)
           SELECT id FROM done`,
          [ack.cmdId, gw.id, ack.result === 'ok' ? 'end' : 'fail', ack.detail],
        );
        if (rows.length) return { ...ZERO, accepted: 1 };
        const known = await this.deps.db.one('SELECT 1 FROM device_command WHERE cmd_id = $1 AND gateway_id = $2', [ack.cmdId, gw.id]);
        if (known) return { ...ZERO, duplicates: 1 };
        return this.writer.submitReject(gw, { sn: gw.sn, dev: null, reason: 'unknown_command', detail: `cmdId=${ack.cmdId}` });
      }
    }
  }

  /**
   * Runs a message's work (handle(), a lookup), holding it through a database outage: it
   * resolves once the work is done, so the message's PUBACK waits for the database rather than
   * the gateway being disconnected to resend it. It rejects on any other failure, or when the
   * transport stops first.
   */
  async held<T>(work: () => Promise<T>): Promise<T> {
    for (;;) {
      try {
        return await work();
      } catch (err) {
        if (!this.holding || !isConnectionError(err)) throw err;
        await this.databaseBack();
      }
    }
  }

  /** Resolves when the database is reachable again (at once, after a short pause, if it is), or when holding stops. */
  private databaseBack(): Promise<void> {
    const status = this.deps.db.status;
    return new Promise<void>((resolve) => {
      if (!status.down) return void setTimeout(resolve, 100);
      const done = () => {
        off();
        this.waiting.delete(done);
        resolve();
      };
      const off = status.watch((down) => !down && done());
      this.waiting.add(done);
    });
  }

  /** An MQTT transport starts (true) or stops (false) holding messages through outages; stopping releases the held ones. */
  setHolding(on: boolean) {
    this.holding = on;
    if (!on) for (const done of [...this.waiting]) done();
  }

  /** Commands waiting for a gateway that polls over HTTP; handing them out marks them issuing. */
  async pendingCommands(gw: GatewayInfo): Promise<({ type: DownKind } & Record<string, unknown>)[]> {
    const rows = await this.deps.db.query<{ kind: DownKind; payload: Record<string, unknown> }>(
      `UPDATE device_command SET status = 'issuing', issued_at = COALESCE(issued_at, now())
        WHERE gateway_id = $1 AND status IN ('prepare', 'issuing') RETURNING kind, payload, created_at`,
      [gw.id],
    );
    return rows.map((r) => ({ type: r.kind, ...r.payload }));
  }

  /** Publishes a command to cc/{sn}/down/{kind} over whichever MQTT transport runs; false when none does. */
  async publishDown(sn: string, kind: DownKind, payload: object): Promise<boolean> {
    if (!this.downlink) return false;
    await this.downlink(sn, kind, payload);
    return true;
  }

  setDownlink(fn: Downlink | null): void {
    this.downlink = fn;
  }

  /** Waits until everything submitted so far is committed. */
  drain(): Promise<void> {
    return this.writer.drain();
  }

  private async malformed(gw: GatewayInfo, kind: MessageKind, p: Parsed<unknown> & { ok: false }): Promise<HandleResult> {
    const r = await this.writer.submitReject(gw, { sn: gw.sn, dev: null, reason: 'malformed', detail: `${kind}: ${p.reason}` });
    return { ...r, error: p.reason, reason: 'malformed' };
  }
}

/** The ingest service of this process: made once and shared by every transport (and by the HTTP routes). */
export function ingestOf(deps: IngestDeps): IngestService {
  if (!deps.ingest) deps.ingest = new IngestService(deps);
  return deps.ingest;
}
