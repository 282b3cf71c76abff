import { randomUUID } from 'node:crypto';
import type { Db } from '../../platform/db/client.js';
import type { Metrics } from '../../platform/metrics/metrics.js';
import { forwardingKey, open } from '../../modules/forwarding/secret.js';
import { linkFor, type Link, type PlatformIdentity } from './links.js';
import * as stream from './stream.js';
import { exceptionMessage, readingMessage } from './messages.js';

/*
 * The forwarder (docs/forwarding.md): one worker per server with something to forward, each on
 * its own loop, so a remote that hangs holds up only its own worker, never ingest (which does
 * nothing for forwarding) nor the other servers. A worker holds its server's lease in
 * forward_state (one console forwards each server, whichever replica took it first; a lease not
 * renewed for LEASE_MS passes to another), sends from the settings' cursors, and moves them
 * only after the remote has acknowledged: at least once, in order per carrier, across restarts
 * of the console (the cursors are rows) and of the remote (the batch is sent again). A failure
 * backs off 1 s, 2 s, 4 s … 30 s.
 */

export interface ForwarderOptions {
  /** How often the list of servers is read, and an idle worker looks for new readings (ms). */
  pollMs?: number;
  /**
   * Messages sent per round, shared by the server's settings: a round is acknowledged within the
   * server's timeout as a whole, so it stays small enough for a remote to take in that time.
   */
  batch?: number;
  leaseMs?: number;
  /** FORWARD_SECRET_KEY and the like (tests pass their own). */
  env?: NodeJS.ProcessEnv;
}

interface Log {
  info(o: object, m?: string): void;
  error(o: object, m?: string): void;
}

export const backoffMs = (failures: number) => Math.min(30_000, 1000 * 2 ** Math.max(0, failures - 1));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

export class Forwarder {
  readonly owner = `${process.pid}-${randomUUID()}`;
  private readonly workers = new Map<number, Worker>();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | null = null;
  private stopped = false;
  readonly pollMs: number;
  readonly batch: number;
  readonly leaseMs: number;

  constructor(
    readonly db: Db,
    readonly log: Log,
    readonly opts: ForwarderOptions = {},
  ) {
    this.pollMs = opts.pollMs ?? 250;
    this.batch = opts.batch ?? 5000;
    this.leaseMs = opts.leaseMs ?? 30_000;
  }

  key() {
    return forwardingKey(this.db, this.opts.env);
  }

  start(metrics?: Metrics) {
    metrics?.collect(async () => {
      const rows = await stream.allStates(this.db);
      const of = (v: (r: (typeof rows)[number]) => number) => rows.map((r) => ({ labels: { server: String(r.server_id), customer: String(r.customer_id), name: r.name }, value: v(r) }));
      return [
        { name: 'coldwatch_forward_connected', help: '1 while the forwarder is connected to the server', type: 'gauge', values: of((r) => (r.connected ? 1 : 0)) },
        { name: 'coldwatch_forward_sent_total', help: 'Readings and exceptions the server acknowledged', type: 'counter', values: of((r) => Number(r.forwarded)) },
        { name: 'coldwatch_forward_backlog', help: 'Readings committed and not yet acknowledged by the server', type: 'gauge', values: of((r) => r.backlog) },
        { name: 'coldwatch_forward_failures', help: 'Failed tries in a row (0 while it forwards)', type: 'gauge', values: of((r) => r.failures) },
        { name: 'coldwatch_forward_last_seconds', help: 'Unix time of the last acknowledged batch', type: 'gauge', values: of((r) => (r.lastMs === null ? 0 : Math.round(Number(r.lastMs) / 1000))) },
      ];
    });
    this.timer = setInterval(() => void this.tick(), Math.max(this.pollMs, 1000));
    this.timer.unref();
    void this.tick();
    return this;
  }

  /** Starts a worker for each server that has settings, and stops those that no longer have. */
  tick(): Promise<void> {
    if (this.ticking || this.stopped) return this.ticking ?? Promise.resolve();
    this.ticking = (async () => {
      try {
        const servers = await stream.activeServers(this.db);
        const ids = new Set(servers.map((s) => s.id));
        for (const [id, w] of this.workers) if (!ids.has(id) || w.stale(servers.find((s) => s.id === id)!)) await this.drop(id);
        for (const s of servers) if (!this.workers.has(s.id)) this.workers.set(s.id, new Worker(this, s).begin());
      } catch (err) {
        this.log.error({ err }, 'forwarder: could not read the servers');
      } finally {
        this.ticking = null;
      }
    })();
    return this.ticking;
  }

  private async drop(id: number) {
    const w = this.workers.get(id);
    this.workers.delete(id);
    await w?.stop();
  }

  async stop() {
    this.stopped = true;
    clearInterval(this.timer);
    await this.ticking;
    await Promise.all([...this.workers.keys()].map((id) => this.drop(id)));
  }
}

class Worker {
  private link: Link | null = null;
  private stopping = false;
  private done: Promise<void> = Promise.resolve();
  private wake: (() => void) | null = null;
  private backlogAt = 0;

  constructor(
    private readonly f: Forwarder,
    private readonly s: stream.ServerRow,
  ) {}

  /** A server changed on its page: its worker starts again with the new settings. */
  stale(now: stream.ServerRow) {
    return now.updatedAt !== this.s.updatedAt;
  }

  begin(): this {
    this.done = this.loop();
    return this;
  }

  async stop() {
    this.stopping = true;
    this.wake?.();
    await this.done;
  }

  private async pause(ms: number) {
    await Promise.race([sleep(ms), new Promise<void>((r) => (this.wake = r))]);
    this.wake = null;
  }

  private async loop() {
    const { db, owner, leaseMs } = this.f;
    let password: string | null = null;
    while (!this.stopping) {
      let held: Awaited<ReturnType<typeof stream.lease>>;
      try {
        held = await stream.lease(db, this.s.id, this.s.customerId, owner, leaseMs);
      } catch {
        await this.pause(1000);
        continue;
      }
      if (!held) {
        // Another console forwards this server; look again before its lease could run out.
        await this.pause(Math.min(leaseMs / 3, 5000));
        continue;
      }
      if (held.retryAt > Date.now()) {
        await this.pause(Math.min(held.retryAt - Date.now(), 1000));
        continue;
      }
      try {
        password ??= open(await this.f.key(), this.s.passwordEnc);
        this.link ??= linkFor({ ...this.s, password });
        await this.link.connect();
        const sent = await this.round();
        if (sent === 0) await this.pause(this.f.pollMs);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        await this.link?.close().catch(() => undefined);
        const wait = backoffMs(held.failures + 1);
        this.f.log.error({ server: this.s.id, err: message, retryInMs: wait }, 'forwarder: the server did not take the batch');
        await stream.failed(db, this.s.id, owner, message, wait).catch(() => undefined);
        await this.pause(Math.min(wait, 1000));
      }
    }
    await this.link?.close().catch(() => undefined);
    await stream.release(db, this.s.id, owner).catch(() => undefined);
  }

  /** One round: every setting's next readings and exceptions, sent and acknowledged, then the cursors moved. Answers how many went. */
  private async round(): Promise<number> {
    const { db, owner, batch } = this.f;
    const bindings = await stream.bindingsOf(db, this.s.id);
    const moves: stream.Advance[] = [];
    const groups = new Map<string, { platform?: PlatformIdentity; messages: string[] }>();
    let sent = 0;
    let key: Buffer | null = null;
    const share = Math.max(50, Math.floor(batch / Math.max(1, bindings.length)));
    // The settings' reads go side by side on the pool; their messages keep each setting's order.
    const next = await Promise.all(bindings.map(async (b) => ({ b, readings: await stream.nextReadings(db, b, share), exceptions: await stream.nextExceptions(db, b, 500) })));
    for (const { b, readings, exceptions } of next) {
      if (!readings.length && !exceptions.length) continue;
      let platform: PlatformIdentity | undefined;
      if (b.platform) {
        key ??= await this.f.key();
        platform = { code: b.platform.code, vendorCode: b.platform.vendorCode, appId: b.platform.appId, key: open(key, b.platform.keyEnc) };
      }
      const group = groups.get(b.platform?.code ?? '') ?? { platform, messages: [] };
      groups.set(b.platform?.code ?? '', group);
      for (const r of readings) group.messages.push(readingMessage(b, r));
      for (const e of exceptions) group.messages.push(exceptionMessage(b, e));
      const last = readings.at(-1);
      moves.push({ bindingId: b.id, ...(last ? { cursorTs: last.ts, cursorSensor: last.sensorId } : {}), ...(exceptions.length ? { cursorEx: exceptions.at(-1)!.id } : {}) });
      sent += readings.length + exceptions.length;
    }
    for (const g of groups.values()) await this.link!.send(g.messages, g.platform);
    if (sent > 0 && !(await stream.advance(db, this.s.id, owner, moves, sent))) throw new Error('the lease passed to another console');
    // The backlog is counted now and then, after the cursors moved (a count reads what waits).
    if (Date.now() - this.backlogAt > 2000) {
      this.backlogAt = Date.now();
      await stream.idle(db, this.s.id, owner, this.link!.connected || this.s.type === 'http', await stream.backlogOf(db, await stream.bindingsOf(db, this.s.id)));
    }
    return sent;
  }
}
