import { DEVICE_STATUS, FUTURE_TOLERANCE_MS, historyRetentionDays } from '@coldwatch/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../platform/db/client.js';
import type { Bus, DeviceStatusEvent, ExceptionEvent, LiveReading } from '../platform/events.js';
import { endGatewayConnections, endSensorConnections, toEvent } from '../alarm/devices.js';
import type { DeviceReading, RefusedReading } from './protocol.js';
import { foreignReason, type Directory, type GatewayInfo } from './directory.js';
import type { Partitions } from './partitions.js';
import { reportFailure } from '../platform/db/outage.js';
import {
  byKey,
  insertReadings,
  insertRejects,
  keyOf,
  queueAlarms,
  queueRollups,
  touchGateways,
  updateSensors,
  widen,
  type Reject,
  type Span,
  type Stored,
} from './statements.js';

export interface IngestResult {
  accepted: number;
  duplicates: number;
  rejected: number;
}

interface Message {
  /** The sending gateway (null: an unknown one, rejected whole). */
  gw: GatewayInfo | null;
  result: IngestResult;
  resolve: (r: IngestResult) => void;
  reject: (err: unknown) => void;
}

interface Item extends Stored {
  msg: Message;
}

interface Batch {
  items: Item[];
  rejects: Reject[];
  messages: Message[];
  gateways: Map<number, GatewayInfo>;
}

export interface WriterOptions {
  /** Flush when this many readings wait. */
  maxBatch?: number;
  /** …or this long after the first one arrived. */
  lingerMs?: number;
  /** Overrides the `setting` row (historyRetentionDays of the contract). */
  retentionDays?: number;
  /** false in the "not for GxP records" mode: a stored retention below 5 years counts as it is. */
  gxpRecords?: boolean;
  /** Batches committing at once: 2 on PostgreSQL (one fills while two commit), 1 on PGlite (one connection). */
  inflight?: number;
}

/** The `setting` key that overrides how far back a back-filled reading is accepted. */
export const RETENTION_SETTING = 'sensor_history_retention_days';
const GATEWAY_TOUCH_MS = 15_000;

/** A message written again counts its readings again (accepted or duplicate); its rejects stay. */
const uncount = (m: Message) => {
  m.result.accepted = 0;
  m.result.duplicates = 0;
};

const newBatch = (): Batch => ({ items: [], rejects: [], messages: [], gateways: new Map() });

/** PostgreSQL refused the data itself (class 22 data exception, 23 integrity), not the connection or the server. */
const isDataError = (err: unknown) => /^2[23]/.test(String((err as { code?: unknown })?.code ?? ''));

/** The database chose the batch as a deadlock or serialization victim: nothing is wrong with it, written again it commits. */
const isTransient = (err: unknown) => ['40P01', '40001'].includes(String((err as { code?: unknown })?.code ?? ''));
/** An epoch-ms time as ISO text, or the number itself when no date can hold it (a broken clock's 1e20). */
const iso = (ms: number) => (Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : String(ms));

/**
 * The reject log's detail of a reading outside the accepted window says which edge it crossed,
 * so that whoever reads the log can tell a gateway's wrong clock from a buffer older than the
 * retention the console keeps (docs/ingest.md "The path of a reading").
 */
function windowDetail(reason: string, ts: number, days: number, oldest: number, newest: number): string {
  if (reason === 'too_old') return `ts=${ts} (${iso(ts)}) is before the retention window of ${days} days (oldest accepted ${iso(oldest)})`;
  if (reason === 'in_future') return `ts=${ts} (${iso(ts)}) is more than ${FUTURE_TOLERANCE_MS / 60_000} min ahead of the console's clock (latest accepted ${iso(newest)})`;
  return `ts=${ts}`;
}

/** Attempts of a batch that keeps being chosen as a victim, before it fails (and its messages go unacknowledged). */
const VICTIM_ATTEMPTS = 5;

/**
 * Group commit of readings: messages from every gateway are gathered into one batch and
 * written with one INSERT … SELECT FROM unnest(…) per batch, in one transaction with the
 * sensors' latest values, the alarm hand-over rows and the reject log. A message's promise
 * settles when its batch has committed (or failed), which is what MQTT acks wait for.
 * On PostgreSQL two batches commit at once on two connections while the next one fills (the
 * database's insert work is then spread over two backends); PGlite is one connection, so one.
 * Two concurrent batches lock their sensor, alarm-queue and rollup rows in key order, so they
 * queue behind each other there. A batch that still loses a deadlock (two batches redelivering
 * the same readings at once, or another writer of those rows) is written again at once: its
 * messages are not refused, and an MQTT session is not dropped for it (with the session gone,
 * a broker at its default queue limit drops what it holds for it).
 */
export class ReadingWriter {
  private queue: Batch[] = [newBatch()];
  private timer: NodeJS.Timeout | null = null;
  private inflight = new Set<Promise<void>>();
  private touched = new Map<number, number>();
  private retention = { days: 0, readAt: 0 };
  readonly stats = { accepted: 0, duplicates: 0, rejected: 0, batches: 0, failedBatches: 0, splitBatches: 0, retriedBatches: 0, commitMs: 0 };
  /** Rejected readings and messages by reason (the reject log's reasons), for /metrics. */
  readonly rejectedBy = new Map<string, number>();

  /** Readings waiting for a commit. */
  get queued() {
    return this.queue.reduce((n, b) => n + b.items.length, 0);
  }
  private maxBatch: number;
  private lingerMs: number;
  private maxInflight: number;

  constructor(
    private db: Db,
    private bus: Bus,
    private log: FastifyBaseLogger,
    private directory: Directory,
    private partitions: Partitions,
    private opts: WriterOptions = {},
  ) {
    this.maxBatch = opts.maxBatch ?? 5000;
    this.lingerMs = opts.lingerMs ?? 5;
    this.maxInflight = opts.inflight ?? (db.kind === 'postgres' ? 2 : 1);
  }

  /** Validated readings from an authenticated gateway; unknown, foreign and out-of-window readings are rejected one by one. */
  async submit(gw: GatewayInfo, readings: DeviceReading[], refused: RefusedReading[] = []): Promise<IngestResult> {
    const sensors = await this.directory.sensorsFor(readings.map((r) => r.dev));
    const days = await this.retentionDays();
    const oldest = Date.now() - days * 86_400_000;
    const newest = Date.now() + FUTURE_TOLERANCE_MS;
    const { batch, msg, promise } = this.enqueue(gw);
    const rejects: Reject[] = refused.map((r) => ({ sn: gw.sn, customerId: gw.customerId, ...r }));
    for (const r of readings) {
      const sensor = sensors.get(r.dev);
      let reason: string | null = null;
      if (!sensor) reason = 'unknown_device';
      else if (sensor.customerId !== gw.customerId) reason = foreignReason(sensor, gw);
      else if (sensor.status === DEVICE_STATUS.stopped) reason = 'stopped_device';
      else if (r.ts < oldest) reason = 'too_old';
      else if (r.ts > newest) reason = 'in_future';
      if (reason) {
        rejects.push({ sn: gw.sn, customerId: gw.customerId, dev: r.dev, reason, detail: windowDetail(reason, r.ts, days, oldest, newest) });
      } else {
        batch.items.push({ sensor: sensor!, r, msg });
      }
    }
    if (rejects.length) {
      msg.result.rejected += rejects.length;
      batch.rejects.push(...rejects);
      // The operator reads why in the log as in the reject table: the first few, with their values.
      const reasons = rejects.slice(0, 5).map((x) => `${x.dev ?? '-'} ${x.reason} ${x.detail}`);
      this.log.warn({ sn: gw.sn, rejected: msg.result.rejected, reasons }, 'ingest: readings rejected');
    }
    this.schedule();
    return promise;
  }

  /** A message rejected whole; its reject row is written with the next batch. */
  submitReject(gw: GatewayInfo | null, reject: Reject): Promise<IngestResult> {
    this.log.warn({ sn: reject.sn, reason: reject.reason, detail: reject.detail }, 'ingest: message rejected');
    const { batch, msg, promise } = this.enqueue(gw);
    msg.result.rejected = 1;
    batch.rejects.push({ ...reject, customerId: reject.customerId ?? gw?.customerId ?? null });
    this.schedule();
    return promise;
  }

  /** Writes everything submitted so far and waits for it. */
  async drain(): Promise<void> {
    while (this.inflight.size || this.queue.some((b) => b.messages.length)) {
      if (!this.inflight.size) this.start();
      await Promise.all([...this.inflight]);
    }
  }

  private enqueue(gw: GatewayInfo | null) {
    let batch = this.queue[this.queue.length - 1];
    if (batch.items.length >= this.maxBatch) this.queue.push((batch = newBatch()));
    let resolve!: (r: IngestResult) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<IngestResult>((res, rej) => ((resolve = res), (reject = rej)));
    const msg: Message = { gw, result: { accepted: 0, duplicates: 0, rejected: 0 }, resolve, reject };
    batch.messages.push(msg);
    if (gw) batch.gateways.set(gw.id, gw);
    return { batch, msg, promise };
  }

  private schedule() {
    if (this.inflight.size >= this.maxInflight) return; // a finishing commit takes whatever is queued
    if (this.queue.length > 1 || this.queue[0].items.length >= this.maxBatch) this.start();
    else if (!this.timer) this.timer = setTimeout(() => this.start(), this.lingerMs);
  }

  /** Hands queued batches to free commit slots; a slot that frees takes the next batch at once (group commit). */
  private start() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.inflight.size < this.maxInflight && this.queue[0].messages.length) {
      const batch = this.queue.shift()!;
      if (!this.queue.length) this.queue.push(newBatch());
      const done: Promise<void> = this.commit(batch).finally(() => {
        this.inflight.delete(done);
        if (this.queue[0].messages.length) this.start();
      });
      this.inflight.add(done);
    }
  }

  private async commit(batch: Batch) {
    try {
      const started = performance.now();
      this.settle(batch, await this.writeAgainIfVictim(batch));
      this.stats.commitMs += performance.now() - started;
      this.stats.batches++;
      for (const r of batch.rejects) this.rejectedBy.set(r.reason, (this.rejectedBy.get(r.reason) ?? 0) + 1);
    } catch (err) {
      // The database refused the data (not the connection): find the guilty message by
      // writing the batch's messages one by one, so that the others still commit.
      if (isDataError(err) && batch.messages.length > 1) return this.commitOneByOne(batch, err);
      if (isDataError(err)) return this.refuse(batch, err);
      this.stats.failedBatches++;
      reportFailure(this.log, err, { messages: batch.messages.length }, 'ingest: batch failed, not acknowledged');
      for (const m of batch.messages) m.reject(err);
    }
  }

  private async writeAgainIfVictim(batch: Batch) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.write(batch);
      } catch (err) {
        if (!isTransient(err) || attempt >= VICTIM_ATTEMPTS) throw err;
        this.stats.retriedBatches++;
        this.log.warn({ err: (err as Error).message, attempt }, 'ingest: batch aborted by the database as a deadlock victim; writing it again');
        batch.messages.forEach(uncount);
        // A little apart, so that the two sides of the deadlock do not meet again in step.
        await new Promise((r) => setTimeout(r, Math.random() * 20 * attempt));
      }
    }
  }

  /** Resolves each message with its counts and announces what changed. */
  private settle(batch: Batch, live: { status: DeviceStatusEvent[]; readings: LiveReading[]; exceptions: ExceptionEvent[] }) {
    for (const m of batch.messages) {
      this.stats.accepted += m.result.accepted;
      this.stats.duplicates += m.result.duplicates;
      this.stats.rejected += m.result.rejected;
      m.resolve(m.result);
    }
    for (const e of live.status) this.bus.emit('deviceStatus', e);
    for (const r of live.readings) this.bus.emit('reading', r);
    for (const e of live.exceptions) this.bus.emit('exception', e);
  }

  private async commitOneByOne(batch: Batch, err: unknown) {
    this.stats.splitBatches++;
    this.log.warn({ err, messages: batch.messages.length }, 'ingest: batch refused by the database; retrying its messages one by one');
    const ones: Batch[] = batch.messages.map((m, i) => {
      uncount(m);
      return {
        items: batch.items.filter((it) => it.msg === m),
        // The batch's reject rows and gateway touches ride with its first message.
        rejects: i === 0 ? batch.rejects : [],
        messages: [m],
        gateways: i === 0 ? batch.gateways : new Map(m.gw ? [[m.gw.id, m.gw]] : []),
      };
    });
    // Each goes through commit() again: alone, a refusal is that message's own.
    for (const one of ones) await this.commit(one);
  }

  /**
   * One message the database refuses on its own: its readings are rejected with the database's
   * reason and the message is acknowledged, so the sender does not resend it forever.
   */
  private async refuse(batch: Batch, err: unknown) {
    const m = batch.messages[0];
    const detail = (err instanceof Error ? err.message : String(err)).slice(0, 200);
    const rejects: Reject[] = [
      ...batch.rejects,
      ...batch.items.map((it) => ({ sn: m.gw?.sn ?? '', customerId: it.sensor.customerId, dev: it.r.dev, reason: 'db_refused', detail })),
    ];
    try {
      await this.db.tx((q) => insertRejects(q, rejects));
    } catch (logErr) {
      this.log.error({ err: logErr }, 'ingest: could not log the refused readings');
    }
    m.result.accepted = 0;
    m.result.duplicates = 0;
    m.result.rejected += batch.items.length;
    this.stats.rejected += m.result.rejected;
    for (const r of rejects) this.rejectedBy.set(r.reason, (this.rejectedBy.get(r.reason) ?? 0) + 1);
    this.log.warn({ err, readings: batch.items.length }, 'ingest: message refused by the database, acknowledged and logged');
    m.resolve(m.result);
  }

  private async write(batch: Batch) {
    // Duplicates inside the batch (a redelivery racing the original) count once.
    batch.items.sort(byKey);
    const items: Item[] = [];
    for (const it of batch.items) {
      const prev = items[items.length - 1];
      if (prev && prev.sensor.id === it.sensor.id && prev.r.ts === it.r.ts) it.msg.result.duplicates++;
      else items.push(it);
    }
    if (items.length) await this.partitions.ensureFor(items.map((i) => i.r.ts));

    const now = Date.now();
    const touch = [...batch.gateways.keys()].filter((id) => (this.touched.get(id) ?? 0) < now - GATEWAY_TOUCH_MS).sort((a, b) => a - b);

    const result = await this.db.tx(async (q) => {
      const stored = items.length ? await insertReadings(q, items) : 'all';
      const inserted = (it: Item) => stored === 'all' || stored.has(keyOf(it.sensor.id, it.r.ts));
      const newestPerSensor = new Map<number, Item>();
      const span = new Map<number, Span>();
      for (const it of items) {
        if (inserted(it)) {
          it.msg.result.accepted++;
          const cur = newestPerSensor.get(it.sensor.id);
          if (!cur || cur.r.ts < it.r.ts) newestPerSensor.set(it.sensor.id, it);
          widen(span, it);
        } else it.msg.result.duplicates++;
      }
      const updated = newestPerSensor.size ? await updateSensors(q, [...newestPerSensor.values()]) : [];
      if (span.size) await queueAlarms(q, span, new Map(updated.map((u) => [u.id, u])));
      if (span.size) await queueRollups(q, stored === 'all' ? items : items.filter(inserted));
      const gws = touch.length ? await touchGateways(q, touch) : [];
      if (batch.rejects.length) await insertRejects(q, batch.rejects);
      // A sensor or gateway a reading brought back (offline → running) ends its connection
      // exception here, in the readings' transaction, at the reading's time (alarm/devices.ts).
      // Only devices that were offline can have one, so a batch of running devices pays nothing.
      const back = updated.filter((u) => u.old_status === DEVICE_STATUS.offline && u.status === DEVICE_STATUS.running);
      const ended = [
        ...(await endSensorConnections(q, back.map((u) => ({ id: u.id, ts: newestPerSensor.get(u.id)!.r.ts })))),
        ...(await endGatewayConnections(q, gws.filter((g) => g.old_status === DEVICE_STATUS.offline && g.status === DEVICE_STATUS.running).map((g) => g.id))),
      ];
      return { updated, gws, newestPerSensor, ended };
    });
    for (const id of touch) this.touched.set(id, now);

    const status: DeviceStatusEvent[] = [];
    const readings: LiveReading[] = [];
    for (const u of result.updated) {
      const it = result.newestPerSensor.get(u.id)!;
      if (u.old_status !== u.status) status.push({ customerId: it.sensor.customerId, kind: 'sensor', id: u.id, status: u.status });
      readings.push({
        customerId: it.sensor.customerId,
        sensorId: u.id,
        devNo: it.sensor.devNo,
        carrierId: it.sensor.carrierId,
        ts: it.r.ts,
        temp: it.r.temp,
        hum: it.r.hum,
        volt: it.r.volt,
        rssi: it.r.rssi,
        lqi: it.r.lqi,
        gas: it.r.gas,
        door: it.r.door,
      });
    }
    for (const g of result.gws) if (g.old_status !== g.status) status.push({ customerId: g.customer_id, kind: 'gateway', id: g.id, status: g.status });
    return { status, readings, exceptions: result.ended.map(toEvent) };
  }

  private async retentionDays(): Promise<number> {
    if (this.opts.retentionDays) return this.opts.retentionDays;
    if (Date.now() - this.retention.readAt > 60_000) {
      const row = await this.db.one<{ value: string }>('SELECT value FROM setting WHERE key = $1', [RETENTION_SETTING]);
      // The readings the retention job keeps are the ones a back-filling gateway may still send.
      this.retention = { days: historyRetentionDays(row?.value, this.opts.gxpRecords ?? true), readAt: Date.now() };
    }
    return this.retention.days;
  }
}

