/**
 * The database's reachability, as the console's pool sees it (docs/operations.md "Faults").
 * A failed connection marks the database down; from then on every call fails at once with
 * DbUnavailableError instead of queueing on a dead pool, and one probe reconnects with
 * back-off (0.1 s, then 0.25 s doubling to 5 s). The first probe that answers brings it back.
 * Terminated backends (a failover, pg_terminate_backend) come back on the first probe.
 */

/** The database cannot be reached now; nothing was done. Answered as 503 with Retry-After. */
export class DbUnavailableError extends Error {
  readonly code = 'DB_UNAVAILABLE';
  constructor(readonly reason: string) {
    super(`database unavailable: ${reason}`);
  }
}

export interface DbStatus {
  readonly down: boolean;
  /** Why, while down: the last connection error. */
  readonly cause: string | undefined;
  /** Called with each change (down → true, back → false); returns the unsubscribe. */
  watch(fn: (down: boolean, cause?: string) => void): () => void;
}

const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);
/**
 * SQLSTATEs that say the server or the connection is away, not that the statement is wrong:
 * class 08 (connection exception), 57P01–57P03 (shut down, crashed, starting), 53300 (too many
 * connections) and 25006 (a read-only standby answered: a failover not finished yet).
 */
const SERVER_CODES = /^(08...|57P0[123]|53300|25006)$/;
const CLIENT_MESSAGES = /Connection terminated|connection error and is not queryable|Client was closed|timeout exceeded when trying to connect|Connection refused/i;
/** pg-pool's answer when every connection stayed busy for connectionTimeoutMillis: the database is busy, not away. */
const POOL_WAIT = /timeout exceeded when trying to connect/;

/** The pool was saturated (every connection busy): answered like an outage (503, try again) but it is not one. */
export const isPoolWait = (err: unknown) => POOL_WAIT.test(String((err as Error | null)?.message ?? ''));

/** True when err says the database is unreachable (as opposed to a statement it refused). */
export function isConnectionError(err: unknown): boolean {
  if (err instanceof DbUnavailableError) return true;
  const e = err as { code?: unknown; message?: unknown; errors?: unknown[] } | null;
  if (!e) return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (SOCKET_CODES.has(code) || SERVER_CODES.test(code)) return true;
  // Node's AggregateError of a failed dual-stack connect (::1 and 127.0.0.1).
  if (Array.isArray(e.errors) && e.errors.some(isConnectionError)) return true;
  return typeof e.message === 'string' && CLIENT_MESSAGES.test(e.message);
}

const PROBE_DELAYS_MS = { first: 100, base: 250, max: 5_000 };

export class Outage implements DbStatus {
  down = false;
  cause: string | undefined;
  private attempt = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly watchers = new Set<(down: boolean, cause?: string) => void>();

  constructor(private readonly probe: () => Promise<unknown>) {}

  watch(fn: (down: boolean, cause?: string) => void) {
    this.watchers.add(fn);
    return () => void this.watchers.delete(fn);
  }

  /** Runs fn unless the database is known to be down; a connection failure marks it down. */
  async guard<T>(fn: () => Promise<T>): Promise<T> {
    if (this.down) throw new DbUnavailableError(this.cause ?? 'reconnecting');
    try {
      return await fn();
    } catch (err) {
      if (isConnectionError(err) && !isPoolWait(err)) this.fail(err);
      throw err;
    }
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
  }

  private fail(err: unknown) {
    if (this.down || this.closed) return;
    this.down = true;
    this.cause = describe(err);
    this.attempt = 0;
    this.emit();
    this.schedule();
  }

  private schedule() {
    const delay = this.attempt === 0 ? PROBE_DELAYS_MS.first : Math.min(PROBE_DELAYS_MS.max, PROBE_DELAYS_MS.base * 2 ** (this.attempt - 1));
    this.timer = setTimeout(() => {
      this.probe().then(
        () => {
          if (this.closed) return;
          this.down = false;
          this.cause = undefined;
          this.emit();
        },
        (err) => {
          if (this.closed) return;
          this.attempt++;
          this.cause = describe(err);
          this.schedule();
        },
      );
    }, delay);
    this.timer.unref();
  }

  private emit() {
    for (const fn of this.watchers) fn(this.down, this.cause);
  }
}

/** The status of a database that cannot fail to connect (PGlite runs in the process). */
export const alwaysUp: DbStatus = { down: false, cause: undefined, watch: () => () => undefined };

function describe(err: unknown): string {
  const e = err as { code?: string; message?: string; errors?: { message?: string }[] };
  const msg = e?.message || e?.errors?.map((x) => x.message).join('; ') || String(err);
  return e?.code && !msg.includes(e.code) ? `${e.code}: ${msg}` : msg;
}

export interface FailureLog {
  error(obj: object, msg?: string): void;
  debug?(obj: object, msg?: string): void;
}

/**
 * Logs a failed pass of a loop (ingest batch, alarm pass, job poll): at error level, unless it
 * failed because the database is away. That is logged once, as the 'database' fault
 * (platform/health), not once per loop and attempt.
 */
export function reportFailure(log: FailureLog, err: unknown, fields: object, msg: string) {
  if (isConnectionError(err)) log.debug?.({ ...fields, err: (err as Error)?.message ?? String(err) }, msg);
  else log.error({ ...fields, err }, msg);
}
