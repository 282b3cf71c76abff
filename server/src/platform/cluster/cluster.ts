import { createHash } from 'node:crypto';
import pg from 'pg';
import { REMOTE, SHARED_EVENTS, type Bus, type Origin } from '../events.js';
import type { Fault } from '../health/health.js';
import { CHANNEL, decode, encode, hello, type WireEvent } from './wire.js';

interface ClusterLog {
  info(o: unknown, m?: string): void;
  warn(o: unknown, m?: string): void;
  error(o: unknown, m?: string): void;
}

export interface ClusterOptions {
  /** The PostgreSQL of every replica; undefined for PGlite, which is one process by nature. */
  databaseUrl?: string;
  replicaId: string;
  bus: Bus;
  log: ClusterLog;
  /** The 'cluster' fault: begins when the listening connection is lost, ends when it is back. */
  fault?: Fault;
  /** How often the other replicas are counted (ms); a new replica's hello also recounts. */
  peerPollMs?: number;
}

/** Advisory lock keys (the two-int form): the first names Coldwatch, the second what is locked. */
const APP = 0x43574331;
const IDS = 0x43574332;
const MEMBERSHIP = 1;
const ROLES: Record<string, number> = { simulator: 2 };

/** How this replica takes part: the embedded broker and the exclusive subscription admit one console per database. */
export interface Membership {
  exclusive: boolean;
  /** Says why in the refusal: 'embedded' or 'exclusive'. */
  reason: 'embedded broker' | 'exclusive subscription' | 'shared subscription';
}

export class ClusterRefusal extends Error {}

/** The other sessions of this database holding the membership lock (parameters $1 APP, $2 MEMBERSHIP). */
const OTHER_MEMBERS = `l.locktype = 'advisory' AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND l.classid = $1 AND l.objid = $2 AND l.objsubid = 2 AND l.granted AND l.pid <> pg_backend_pid()`;

const idKey = (id: string) => createHash('sha1').update(id).digest().readInt32BE(0);

/**
 * The replicas of one database as one console (docs/scaling.md). One connection per replica
 * LISTENs on one channel; the events every replica must see (live readings, exceptions, device
 * status, directory and parameter changes) are sent there after their commit, batched per
 * commit, and re-emitted on the other replicas' buses marked REMOTE. The same connection holds
 * the replica's advisory locks: its id (two consoles with one id would take each other's MQTT
 * session), its membership (shared by the replicas of a shared subscription, exclusive for the
 * embedded broker and the exclusive subscription) and single-replica roles (the demo simulator).
 * A lock ends with its connection, so a replica killed with -9 frees them at once.
 *
 * On PGlite everything is one process: nothing is sent and every claim succeeds.
 */
export class Cluster {
  private client: pg.Client | null = null;
  private held: string[] = [];
  private queue: WireEvent[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private stopping = false;
  private connected = false;
  private everConnected = false;
  private peerTimer: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private unhook: (() => void)[] = [];
  /** Other replicas holding the membership lock, as last counted. */
  peers = 0;
  /** Events received from other replicas (the tests read it). */
  received = 0;

  constructor(private opts: ClusterOptions) {}

  get replicaId() {
    return this.opts.replicaId;
  }

  get single() {
    return !this.opts.databaseUrl;
  }

  /** Listening (always true on PGlite). */
  get up() {
    return this.single || this.connected;
  }

  async start(): Promise<void> {
    if (this.single) return;
    await this.connect();
    for (const name of SHARED_EVENTS) {
      const forward = (data: unknown, origin?: Origin) => {
        if (origin === REMOTE) return;
        this.queue.push([name, data] as WireEvent);
        this.schedule();
      };
      this.opts.bus.on(name, forward);
      this.unhook.push(() => this.opts.bus.off(name, forward));
    }
    this.peerTimer = setInterval(() => void this.countPeers(), this.opts.peerPollMs ?? 2_000);
    this.peerTimer.unref();
  }

  /** Takes this replica's id and its membership, or refuses with what to change. */
  async join(m: Membership): Promise<void> {
    if (this.single) return;
    const id = this.opts.replicaId;
    if (!(await this.lock(`pg_try_advisory_lock(${IDS}, ${idKey(id)})`))) {
      throw new ClusterRefusal(
        `Another Coldwatch console with REPLICA_ID "${id}" is running on this database. Two consoles with one id would take each other's MQTT session: give each replica its own REPLICA_ID.`,
      );
    }
    const fn = m.exclusive ? 'pg_try_advisory_lock' : 'pg_try_advisory_lock_shared';
    if (await this.lock(`${fn}(${APP}, ${MEMBERSHIP})`)) return;
    const others = await this.holders();
    const who = others.length > 1 ? `Coldwatch consoles ${others.join(', ')} are` : `Coldwatch console ${others[0] ?? '(another one)'} is`;
    throw new ClusterRefusal(
      m.reason === 'shared subscription'
        ? `${who} running on this database with the embedded MQTT broker or the exclusive subscription, which admit one console. Restart it with MQTT_URL and MQTT_SUBSCRIPTION=shared, as this one, to run them side by side (docs/scaling.md).`
        : m.reason === 'embedded broker'
          ? `${who} already running on this database. The embedded MQTT broker serves one console only: to run several replicas, start each with MQTT_URL (an external broker such as Mosquitto or EMQX) and MQTT_SUBSCRIPTION=shared (docs/scaling.md).`
          : `${who} already running on this database, and MQTT_SUBSCRIPTION=exclusive (the default) would hand every message to every console. Set MQTT_SUBSCRIPTION=shared on every replica (docs/scaling.md).`,
    );
  }

  /** Whether this replica takes a role that one replica plays (the demo simulator); true on PGlite. */
  async lead(role: keyof typeof ROLES): Promise<boolean> {
    if (this.single) return true;
    return this.lock(`pg_try_advisory_lock(${APP}, ${ROLES[role]})`);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const off of this.unhook) off();
    if (this.peerTimer) clearInterval(this.peerTimer);
    if (this.retry) clearTimeout(this.retry);
    await this.flushed();
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => undefined);
  }

  private async lock(call: string): Promise<boolean> {
    const row = await this.client!.query<{ ok: boolean }>(`SELECT ${call} AS ok`);
    if (!row.rows[0]?.ok) return false;
    this.held.push(call);
    return true;
  }

  /** The application names of the other sessions that hold the membership lock. */
  private async holders(): Promise<string[]> {
    const r = await this.client!.query<{ name: string }>(
      `SELECT DISTINCT coalesce(nullif(a.application_name, ''), 'pid ' || l.pid) AS name
         FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid WHERE ${OTHER_MEMBERS}`,
      [APP, MEMBERSHIP],
    );
    return r.rows.map((x) => x.name.replace(/^coldwatch\//, ''));
  }

  private async countPeers(): Promise<void> {
    if (!this.connected || !this.client) return;
    try {
      const r = await this.client.query<{ n: number }>(`SELECT count(DISTINCT l.pid)::int AS n FROM pg_locks l WHERE ${OTHER_MEMBERS}`, [APP, MEMBERSHIP]);
      this.peers = r.rows[0]?.n ?? 0;
    } catch {
      // The connection's own error handler reconnects.
    }
  }

  private async connect(): Promise<void> {
    const c = new pg.Client({
      connectionString: this.opts.databaseUrl,
      application_name: `coldwatch/${this.opts.replicaId}`,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      connectionTimeoutMillis: 5_000,
    });
    c.on('notification', (n) => n.channel === CHANNEL && n.payload !== undefined && this.receive(n.payload));
    c.on('error', (err) => this.lost(c, err.message));
    c.on('end', () => this.lost(c, 'connection ended'));
    await c.connect();
    this.client = c;
    await c.query(`LISTEN ${CHANNEL}`);
    // Locks taken before a lost connection are taken again: a replica that cannot get them back
    // (another console took its place meanwhile) says so in the 'cluster' fault.
    const again = this.held;
    this.held = [];
    for (const call of again) if (!(await this.lock(call))) throw new Error(`could not take back ${call}: another console holds it`);
    this.connected = true;
    await this.countPeers();
    await c.query(`SELECT pg_notify($1, $2)`, [CHANNEL, hello(this.opts.replicaId)]);
    if (this.everConnected) {
      // While the connection was away, invalidations may have passed by in both directions:
      // this replica and the others forget their device directories (the next lookups reload).
      this.opts.bus.emit('directory', {});
      this.opts.fault?.end('listening again');
    }
    this.everConnected = true;
  }

  private lost(c: pg.Client, cause: string) {
    if (this.client !== c) return;
    this.client = null;
    this.connected = false;
    c.removeAllListeners('end');
    void c.end().catch(() => undefined);
    if (this.stopping) return;
    this.opts.fault?.begin(`the replicas' channel is lost (${cause}); live values and cache changes of other replicas wait until it is back`);
    this.reconnectSoon(1_000);
  }

  private reconnectSoon(ms: number) {
    if (this.retry || this.stopping) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (this.stopping) return;
      this.connect().catch((err) => {
        this.client?.end().catch(() => undefined);
        this.client = null;
        this.connected = false;
        this.opts.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'cluster: reconnecting to PostgreSQL failed; trying again');
        this.reconnectSoon(Math.min(ms * 2, 10_000));
      });
    }, ms);
    this.retry.unref();
  }

  private receive(payload: string) {
    if (payload.startsWith(`${this.opts.replicaId}|`)) return;
    const d = decode(payload);
    if (!d) return;
    if ('hello' in d) return void this.countPeers();
    for (const [name, data] of d.events) {
      this.received++;
      (this.opts.bus.emit as (n: string, d: unknown, o: Origin) => boolean)(name, data, REMOTE);
    }
  }

  /**
   * Resolves once what has been emitted so far is sent. A change answered by the API waits for
   * it (app.ts), so another replica knows of it before the caller can ask there: a secret
   * reset on replica A is refused by replica B at the caller's next message.
   */
  flushed(): Promise<void> {
    return this.next ?? this.flushing;
  }

  private next: Promise<void> | null = null;

  private schedule() {
    if (this.next) return;
    // Everything one commit emits is emitted in the same turn of the event loop: one batch.
    this.next = new Promise<void>((resolve) =>
      setImmediate(() => {
        this.next = null;
        const events = this.queue;
        this.queue = [];
        // Alone, nobody would read them; without the connection they cannot go (the reconnect sends "forget everything").
        if (this.peers && this.connected && events.length) {
          const payloads = encode(this.opts.replicaId, events);
          const c = this.client!;
          this.flushing = this.flushing.then(() =>
            c.query(`SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p`, [CHANNEL, payloads]).then(
              () => undefined,
              (err) => this.opts.log.warn({ err: err.message, events: events.length }, 'cluster: events not sent to the other replicas'),
            ),
          );
        }
        void this.flushing.then(resolve);
      }),
    );
  }
}
