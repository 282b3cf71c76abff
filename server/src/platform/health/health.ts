import { pino } from 'pino';
import type { Db } from '../db/client.js';

/**
 * Faults of the parts around the console (the database, the broker, a silent ingest): each is
 * logged once when it starts, at error level, and once when it ends, with how long it lasted;
 * never once per failed attempt. /readyz answers from them and /metrics counts them
 * (docs/operations.md "Faults").
 */

export interface HealthLog {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export class Fault {
  private since: number | undefined;
  private why = '';
  /** How many times it started, for /metrics. */
  starts = 0;

  constructor(
    readonly name: string,
    private readonly health: Health,
  ) {}

  get active() {
    return this.since !== undefined;
  }

  /** What is wrong, while active. */
  get cause() {
    return this.active ? this.why : undefined;
  }

  /** The fault holds (again): logged only if it was not already active. A new cause is kept for /readyz. */
  begin(cause: string) {
    this.why = cause;
    if (this.since !== undefined) return;
    this.since = Date.now();
    this.starts++;
    this.health.log().error({ fault: this.name, cause }, `${this.name}: ${cause}`);
  }

  /** The fault is over: logged with its duration, if it was active. */
  end(how = 'recovered') {
    if (this.since === undefined) return;
    const ms = Date.now() - this.since;
    this.since = undefined;
    this.health.log().warn({ fault: this.name, durationS: Math.round(ms / 100) / 10, cause: this.why }, `${this.name}: ${how} after ${formatDuration(ms)}`);
  }
}

export interface Check {
  ok: boolean;
  detail: string;
}

export class Health {
  private readonly faults = new Map<string, Fault>();
  private readonly checks = new Map<string, () => Check>();

  /** Asked at each entry: the HTTP server's log once it exists (main.ts sets deps.log). */
  constructor(readonly log: () => HealthLog) {}

  /** The fault of this name, made on first use. */
  fault(name: string): Fault {
    let f = this.faults.get(name);
    if (!f) this.faults.set(name, (f = new Fault(name, this)));
    return f;
  }

  all(): Fault[] {
    return [...this.faults.values()];
  }

  /** A part that /readyz asks (ingest registers 'broker' while it runs); returns the removal. */
  check(name: string, fn: () => Check): () => void {
    this.checks.set(name, fn);
    return () => void (this.checks.get(name) === fn && this.checks.delete(name));
  }

  checkOf(name: string): Check | undefined {
    return this.checks.get(name)?.();
  }
}

function formatDuration(ms: number) {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return s < 3600 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/** What healthOf needs of the process's parts (AppDeps has them): it keeps the one Health on `health`. */
export interface HealthHost {
  health?: Health;
  log?: HealthLog;
  config: { logLevel: string };
  db: Pick<Db, 'status'>;
}

/** The health of this process, made on first use; the database's outages become its 'database' fault. */
export function healthOf(deps: HealthHost): Health {
  if (deps.health) return deps.health;
  let fallback: HealthLog | undefined;
  const health = (deps.health = new Health(() => deps.log ?? (fallback ??= pino({ level: deps.config.logLevel }))));
  const db = health.fault('database');
  deps.db.status.watch((down, cause) => (down ? db.begin(`unreachable (${cause}); calls fail at once and answer 503 until it is back`) : db.end('reachable again')));
  return health;
}
