import { DEVICE_STATUS } from '@coldwatch/contract';
import { ROLLUP_BUCKET_MS } from './rollup.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '../platform/db/client.js';
import type { Bus, DeviceStatusEvent, LiveReading } from '../platform/events.js';
import type { DeviceReading, RefusedReading } from './protocol.js';
import { FUTURE_TOLERANCE_MS } from '@coldwatch/contract';
import { foreignReason, type Directory, type GatewayInfo, type SensorInfo } from './directory.js';
import type { Partitions } from './partitions.js';
import { reportFailure } from '../platform/db/outage.js';
import { copyValue } from '../platform/db/copy.js';
import { outOfZone } from '../alarm/quiet.js';

export interface IngestResult {
  accepted: number;
  duplicates: number;
  rejected: number;
}

export interface Reject {
  sn: string;
  /** The gateway's customer; null for an unknown gateway. */
  customerId?: number | null;
  dev: string | null;
  reason: string;
  detail: string;
}

interface Message {
  /** The sending gateway (null: an unknown one, rejected whole). */
  gw: GatewayInfo | null;
  result: IngestResult;
  resolve: (r: IngestResult) => void;
  reject: (err: unknown) => void;
}

interface Item {
  sensor: SensorInfo;
  r: DeviceReading;
  msg: Message;
}

/** Key order (sensor, time): duplicates become neighbours, and two batches lock their rows in the same order. */
const byKey = (a: Item, b: Item) => a.sensor.id - b.sensor.id || a.r.ts - b.r.ts;
const keyOf = (sensorId: number, ts: number) => `${sensorId}:${ts}`;

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
  /** Overrides the `setting` row; default 365. */
  retentionDays?: number;
  /** Batches committing at once: 2 on PostgreSQL (one fills while two commit), 1 on PGlite (one connection). */
  inflight?: number;
}

/** The `setting` key that overrides how far back a back-filled reading is accepted. */
export const RETENTION_SETTING = 'sensor_history_retention_days';
const GATEWAY_TOUCH_MS = 15_000;

const newBatch = (): Batch => ({ items: [], rejects: [], messages: [], gateways: new Map() });

/** PostgreSQL refused the data itself (class 22 data exception, 23 integrity), not the connection or the server. */
const isDataError = (err: unknown) => /^2[23]/.test(String((err as { code?: unknown })?.code ?? ''));

/**
 * Group commit of readings: messages from every gateway are gathered into one batch and
 * written with one INSERT … SELECT FROM unnest(…) per batch, in one transaction with the
 * sensors' latest values, the alarm hand-over rows and the reject log. A message's promise
 * settles when its batch has committed (or failed), which is what MQTT acks wait for.
 * On PostgreSQL two batches commit at once on two connections while the next one fills (the
 * database's insert work is then spread over two backends); PGlite is one connection, so one.
 * Two concurrent batches lock their sensor, alarm-queue and rollup rows in key order, so they
 * queue behind each other there; only two batches redelivering the same readings at once can
 * still deadlock, and the one the database aborts is not acknowledged and is resent.
 */
export class ReadingWriter {
  private queue: Batch[] = [newBatch()];
  private timer: NodeJS.Timeout | null = null;
  private inflight = new Set<Promise<void>>();
  private touched = new Map<number, number>();
  private retention = { days: 365, readAt: 0 };
  readonly stats = { accepted: 0, duplicates: 0, rejected: 0, batches: 0, failedBatches: 0, splitBatches: 0, commitMs: 0 };
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
    const oldest = Date.now() - (await this.retentionDays()) * 86_400_000;
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
        rejects.push({ sn: gw.sn, customerId: gw.customerId, dev: r.dev, reason, detail: `ts=${r.ts}` });
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
      this.settle(batch, await this.write(batch));
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

  /** Resolves each message with its counts and announces what changed. */
  private settle(batch: Batch, live: { status: DeviceStatusEvent[]; readings: LiveReading[] }) {
    for (const m of batch.messages) {
      this.stats.accepted += m.result.accepted;
      this.stats.duplicates += m.result.duplicates;
      this.stats.rejected += m.result.rejected;
      m.resolve(m.result);
    }
    for (const e of live.status) this.bus.emit('deviceStatus', e);
    for (const r of live.readings) this.bus.emit('reading', r);
  }

  private async commitOneByOne(batch: Batch, err: unknown) {
    this.stats.splitBatches++;
    this.log.warn({ err, messages: batch.messages.length }, 'ingest: batch refused by the database; retrying its messages one by one');
    const ones: Batch[] = batch.messages.map((m, i) => {
      m.result.accepted = 0;
      m.result.duplicates = 0;
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
      return { updated, gws, newestPerSensor };
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
    return { status, readings };
  }

  private async retentionDays(): Promise<number> {
    if (this.opts.retentionDays) return this.opts.retentionDays;
    if (Date.now() - this.retention.readAt > 60_000) {
      const row = await this.db.one<{ value: string }>('SELECT value FROM setting WHERE key = $1', [RETENTION_SETTING]);
      const days = Number(row?.value);
      this.retention = { days: Number.isFinite(days) && days > 0 ? days : 365, readAt: Date.now() };
    }
    return this.retention.days;
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The 5-minute buckets the committed readings fall in, for the rollup job (ingest/rollup.ts); late ones included. */
async function queueRollups(q: Queryable, items: Item[]) {
  const keys = new Map<string, [number, number]>();
  for (const it of items) {
    const bucket = Math.floor(it.r.ts / ROLLUP_BUCKET_MS) * ROLLUP_BUCKET_MS;
    keys.set(`${it.sensor.id}:${bucket}`, [it.sensor.id, bucket]);
  }
  const rows = [...keys.values()].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  await q.query(
    `INSERT INTO rollup_pending (sensor_id, bucket)
     SELECT s, to_timestamp(b / 1000.0) FROM unnest($1::int[], $2::float8[]) AS v(s, b) ON CONFLICT DO NOTHING`,
    [rows.map((r) => r[0]), rows.map((r) => r[1])],
  );
}

const READING_COLUMNS = 'reading (sensor_id, ts, customer_id, temp, hum, volt, rssi, lqi, gas, door)';

const INSERT_READINGS = `INSERT INTO ${READING_COLUMNS}
     SELECT s, to_timestamp(t / 1000.0), c, te, hu, vo, rs, lq, ga, do_
       FROM unnest($1::int[], $2::float8[], $3::int[], $4::real[], $5::real[], $6::real[], $7::real[], $8::real[], $9::real[], $10::smallint[])
              AS v(s, t, c, te, hu, vo, rs, lq, ga, do_)`;

/** The batch as rows of COPY's text format, in the columns of READING_COLUMNS. */
function copyText(items: Item[]): string {
  let text = '';
  for (const { sensor, r } of items) {
    text += `${sensor.id}\t${iso(r.ts)}\t${sensor.customerId}\t${copyValue(r.temp)}\t${copyValue(r.hum)}\t${copyValue(r.volt)}\t${copyValue(r.rssi)}\t${copyValue(r.lqi)}\t${copyValue(r.gas)}\t${copyValue(r.door)}\n`;
  }
  return text;
}

/**
 * Inserts the batch and answers the keys it stored ('all', or those of the set; the others were
 * duplicates). Usually
 * every row is new: a plain COPY (about twice as fast as INSERT … SELECT FROM unnest, which is
 * a third cheaper than ON CONFLICT; docs/performance.md), inside a savepoint. A redelivered
 * reading makes it fail on the key; then the batch goes in again with ON CONFLICT DO NOTHING,
 * whose RETURNING list names the new ones.
 */
async function insertReadings(q: Queryable, items: Item[]): Promise<'all' | Set<string>> {
  // In key order (write() sorted them), so that two batches committing at once meet on duplicate keys in the same order.
  const col = <T>(f: (it: Item) => T) => items.map(f);
  await q.exec('SAVEPOINT readings');
  try {
    if (q.copyIn) await q.copyIn(READING_COLUMNS, copyText(items));
    else await q.run(INSERT_READINGS, params());
    await q.exec('RELEASE SAVEPOINT readings');
    return 'all';
  } catch (err) {
    if ((err as { code?: string }).code !== '23505') throw err;
    await q.exec('ROLLBACK TO SAVEPOINT readings');
  }
  const stored = await q.query<{ sensor_id: number; t: number }>(
    `${INSERT_READINGS} ON CONFLICT DO NOTHING RETURNING sensor_id, (extract(epoch FROM ts) * 1000)::bigint AS t`,
    params(),
  );
  return new Set(stored.map((r) => keyOf(r.sensor_id, Number(r.t))));

  // Epoch ms as float8: parsed far faster than timestamp text; to_timestamp keeps whole ms exactly.
  function params() {
    return [col((i) => i.sensor.id), col((i) => i.r.ts), col((i) => i.sensor.customerId), col((i) => i.r.temp), col((i) => i.r.hum), col((i) => i.r.volt), col((i) => i.r.rssi), col((i) => i.r.lqi), col((i) => i.r.gas), col((i) => i.r.door)];
  }
}

/** A sensor whose latest values a batch moved: its status before and after, and the latest reading before the batch. */
interface Updated {
  id: number;
  old_status: number;
  status: number;
  old_ts: Date | null;
  old_temp: number | null;
  old_hum: number | null;
}

/**
 * Latest values move only forward in time (a back-filled reading never replaces a newer
 * one); a sensor counts as running again only if that reading is recent.
 */
async function updateSensors(q: Queryable, newest: Item[]) {
  newest.sort((a, b) => a.sensor.id - b.sensor.id);
  const col = <T>(f: (it: Item) => T) => newest.map(f);
  return q.query<Updated>(
    `UPDATE sensor s SET last_ts = v.ts, last_temp = v.temp, last_hum = v.hum, last_volt = v.volt, last_rssi = v.rssi,
            last_lqi = v.lqi, last_gas = v.gas, last_door = v.door,
            status = CASE WHEN s.status = 2 THEN 2
                          WHEN v.ts > now() - (3 * s.sample_interval + 60) * interval '1 second' THEN 1
                          ELSE s.status END
       FROM unnest($1::int[], $2::timestamptz[], $3::real[], $4::real[], $5::real[], $6::real[], $7::real[], $8::real[], $9::smallint[])
              AS v(id, ts, temp, hum, volt, rssi, lqi, gas, door),
            (SELECT id, status AS old_status, last_ts AS old_ts, last_temp AS old_temp, last_hum AS old_hum
               FROM sensor WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE) o
      WHERE s.id = v.id AND o.id = v.id AND (s.last_ts IS NULL OR s.last_ts < v.ts)
      RETURNING s.id, o.old_status, s.status, o.old_ts, o.old_temp, o.old_hum`,
    [
      col((i) => i.sensor.id),
      col((i) => iso(i.r.ts)),
      col((i) => i.r.temp),
      col((i) => i.r.hum),
      col((i) => i.r.volt),
      col((i) => i.r.rssi),
      col((i) => i.r.lqi),
      col((i) => i.r.gas),
      col((i) => i.r.door),
    ],
  );
}

/** Per sensor, the span and the extremes of the readings a batch committed. */
interface Span {
  customerId: number;
  min: number;
  max: number;
  tLo: number | null;
  tHi: number | null;
  hLo: number | null;
  hHi: number | null;
}

const lo = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));
const hi = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

function widen(spans: Map<number, Span>, it: Item) {
  const { ts, temp, hum } = it.r;
  const s = spans.get(it.sensor.id);
  if (!s) {
    spans.set(it.sensor.id, { customerId: it.sensor.customerId, min: ts, max: ts, tLo: temp, tHi: temp, hLo: hum, hHi: hum });
    return;
  }
  s.min = Math.min(s.min, ts);
  s.max = Math.max(s.max, ts);
  s.tLo = lo(s.tLo, temp);
  s.tHi = hi(s.tHi, temp);
  s.hLo = lo(s.hLo, hum);
  s.hHi = hi(s.hHi, hum);
}

/** The previous reading gives the field a value inside the zone, or the carrier has no zone for it. */
const inBefore = (field: 'temp' | 'hum', x: string) => `(k.${field}_min IS NULL OR k.${field}_max IS NULL OR (${x} IS NOT NULL AND NOT ${outOfZone(field, x)}))`;

/**
 * Widens each sensor's alarm window. `queued_at` keeps the time the window first became due:
 * the evaluator works oldest first, and a sensor that reports in every batch must not be
 * pushed to the back of the queue each time (it would never be evaluated under load).
 *
 * A window with a reading outside its carrier's zone is marked hot with the version that
 * brought it (migration 0027): the evaluator takes it first, since it may open an exception.
 *
 * A calm window is not queued at all: its readings all follow the sensor's latest one (no
 * back-fill), are all inside the zone, the latest one before them was inside it too, the
 * carrier is judged on each sensor (sample mode "latest") and no data exception of the sensor
 * or the carrier is ongoing. Its evaluation would find exactly what the quiet check
 * (alarm/quiet.ts) finds, nothing to do, and at a reading a minute from every sensor that check
 * was most of the evaluator's work. A window queued before it (not yet evaluated) needs
 * nothing from it: its run ended at that in-range latest reading, and it reads the readings
 * after it as its neighbours. The sensor row lock taken by updateSensors orders two batches of
 * one sensor, so "the latest one before them" is what the other batch committed.
 */
async function queueAlarms(q: Queryable, spans: Map<number, Span>, before: Map<number, Updated>) {
  const ids = [...spans.keys()].sort((a, b) => a - b);
  const col = <T>(f: (s: Span) => T) => ids.map((id) => f(spans.get(id)!));
  const prev = (id: number) => before.get(id);
  await q.query(
    `WITH v AS (
       SELECT v.*, s.carrier_id, k.sample_mode,
              coalesce(k.alarm_on AND (${outOfZone('temp', 'v.t_hi')} OR ${outOfZone('temp', 'v.t_lo')} OR ${outOfZone('hum', 'v.h_hi')} OR ${outOfZone('hum', 'v.h_lo')}), false) AS hot,
              coalesce(k.alarm_on AND k.sample_mode = 'latest' AND v.p_ts < v.lo
                AND ${inBefore('temp', 'v.p_t')} AND ${inBefore('hum', 'v.p_h')}
                AND NOT EXISTS (SELECT 1 FROM exception_record e WHERE e.sensor_id = v.s AND e.ongoing AND e.type = 'data')
                AND NOT EXISTS (SELECT 1 FROM exception_record e WHERE e.carrier_id = k.id AND e.sensor_id IS NULL AND e.ongoing AND e.type = 'data'),
              false) AS calm
         FROM unnest($1::int[], $2::int[], $3::timestamptz[], $4::timestamptz[], $5::real[], $6::real[], $7::real[], $8::real[],
                     $9::timestamptz[], $10::real[], $11::real[])
                AS v(s, c, lo, hi, t_lo, t_hi, h_lo, h_hi, p_ts, p_t, p_h)
         LEFT JOIN sensor s ON s.id = v.s LEFT JOIN carrier k ON k.id = s.carrier_id
     )
     INSERT INTO alarm_queue (sensor_id, customer_id, min_ts, max_ts, hot_version)
     SELECT s, c, lo, hi, CASE WHEN hot THEN 1 END FROM v WHERE hot OR NOT calm
      ORDER BY s
     ON CONFLICT (sensor_id) DO UPDATE SET min_ts = LEAST(alarm_queue.min_ts, EXCLUDED.min_ts),
       max_ts = GREATEST(alarm_queue.max_ts, EXCLUDED.max_ts), version = alarm_queue.version + 1,
       hot_version = CASE WHEN EXCLUDED.hot_version IS NULL THEN alarm_queue.hot_version ELSE alarm_queue.version + 1 END`,
    [
      ids,
      col((s) => s.customerId),
      col((s) => iso(s.min)),
      col((s) => iso(s.max)),
      col((s) => s.tLo),
      col((s) => s.tHi),
      col((s) => s.hLo),
      col((s) => s.hHi),
      ids.map((id) => prev(id)?.old_ts ?? null),
      ids.map((id) => prev(id)?.old_temp ?? null),
      ids.map((id) => prev(id)?.old_hum ?? null),
    ],
  );
}

export async function touchGateways(q: Queryable, ids: number[]) {
  return q.query<{ id: number; customer_id: number; old_status: number; status: number }>(
    `UPDATE gateway g SET last_seen_at = now(), status = CASE WHEN g.status = 2 THEN 2 ELSE 1 END
       FROM (SELECT id, status AS old_status FROM gateway WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE) o
      WHERE g.id = o.id
      RETURNING g.id, g.customer_id, o.old_status, g.status`,
    [ids],
  );
}

export async function insertRejects(q: Queryable, rejects: Reject[]) {
  await q.query(
    `INSERT INTO ingest_reject (gateway_sn, dev_no, reason, detail, customer_id) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[])`,
    [rejects.map((r) => r.sn), rejects.map((r) => r.dev), rejects.map((r) => r.reason), rejects.map((r) => r.detail.slice(0, 500)), rejects.map((r) => r.customerId ?? null)],
  );
}
